/* A program that includes only acl/acl_rt.h, as CANN allows: aclInit, aclFinalize, the version macros and the
 * declarations of acl_base_rt.h (reached through acl_rt.h) must all be there. Also checks the numbers of the
 * runtime additions against CANN's. */
#include "acl/acl_rt.h"

#define CHECK(cond)            \
    do {                       \
        if (!(cond)) return 1; \
    } while (0)

int main(void) {
    aclrtEvent event = 0;
    aclrtContext context = 0;
    aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    aclrtPtrAttributes attributes;
    CHECK(aclInit(0) == ACL_SUCCESS);
    CHECK(ACL_MAJOR_VERSION == 1 && ACL_MINOR_VERSION == 17 && ACL_PATCH_VERSION == 0);
    CHECK(ACL_EVENT_TIME_LINE == 0x8U && ACL_EVENT_SYNC == 0x1U && ACL_PKG_VERSION_MAX_SIZE == 128);
    CHECK(ACL_EVENT_RECORDED_STATUS_COMPLETE == 1 && ACL_MEM_LOCATION_TYPE_UNREGISTERED == 2);
    CHECK(ACL_HBM_MEM == 1 && ACL_MEM_P2P_HUGE1G == 17 && ACL_DEVICE_INFO_L2_SIZE == 2);
    CHECK(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT == 507046 && ACL_ERROR_RT_AICORE_TIMEOUT == 507014);
    CHECK(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT == 507047 && ACL_ERROR_RT_CONTEXT_NULL == 107002);
    CHECK(ACL_ERROR_GE_PARAM_INVALID == 145000U && ACL_ERROR_GE_INTERNAL_ERROR == 545000U);
    CHECK(ACL_ERROR_INVALID_BUNDLE_MODEL_ID == 148053 && ACL_ERROR_DUMP_NOT_RUN == 100045);
    CHECK(aclrtGetSocName() != 0);
    CHECK(aclrtCreateContext(&context, 0) == ACL_SUCCESS);
    CHECK(aclrtCreateEvent(&event) == ACL_SUCCESS);
    CHECK(aclrtRecordEvent(event, 0) == ACL_SUCCESS);
    CHECK(aclrtSynchronizeStreamWithTimeout(0, -1) == ACL_SUCCESS);
    CHECK(aclrtQueryEventStatus(event, &status) == ACL_SUCCESS && status == ACL_EVENT_RECORDED_STATUS_COMPLETE);
    CHECK(aclrtPointerGetAttributes(&status, &attributes) == ACL_SUCCESS);
    CHECK(aclrtDestroyEvent(event) == ACL_SUCCESS && aclrtDestroyContext(context) == ACL_SUCCESS);
    CHECK(aclFinalize() == ACL_SUCCESS);
    return 0;
}
