/* CANN's numeric values, as C99 (test_headers_installed compiles every installed header). */
#include "acl/acl.h"
#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_soft_margin_loss.h"
#include "aclnnop/aclnn_soft_margin_loss_backward.h"
#include "aclnn/opdev/bfloat16.h" /* C++ only: empty in C */
#include "aclnn/opdev/fp16_t.h"
#include "aclnn/opdev/float4_e2m1.h" /* and the other small float types: C++ only, empty in C */
#include "aclnn/opdev/float8_e4m3fn.h"
#include "aclnn/opdev/hifloat8.h"
#include "aclnn_cpu/aclnn_cpu.h"

#define CHECK(cond)           \
    do {                      \
        if (!(cond)) return 1; \
    } while (0)

int main(void) {
    aclnnStatus status = ACLNN_SUCCESS;
    aclDataType type = ACL_BF16;
    aclFormat format = ACL_FORMAT_FRACTAL_NZ;
    CHECK(status == 0);
    CHECK(ACL_FLOAT == 0 && ACL_FLOAT16 == 1 && ACL_DOUBLE == 11 && type == 27 && ACL_DT_UNDEFINED == -1);
    CHECK(ACL_FORMAT_ND == 2 && ACL_FORMAT_NCHW == 0 && format == 29 && ACL_FRACTAL_Z_3D == 33);
    CHECK(ACL_MEMCPY_HOST_TO_DEVICE == 1 && ACL_MEMCPY_DEVICE_TO_HOST == 2 && ACL_MEMCPY_DEFAULT == 4);
    CHECK(ACL_MEM_MALLOC_HUGE_FIRST == 0 && ACL_MEM_MALLOC_NORMAL_ONLY == 2);
    CHECK(ACL_SUCCESS == 0 && ACL_ERROR_INVALID_PARAM == 100000 && ACL_ERROR_REPEAT_INITIALIZE == 100002);
    CHECK(ACL_ERROR_REPEAT_FINALIZE == 100037 && ACL_ERROR_RT_PARAM_INVALID == 107000);
    CHECK(ACL_ERROR_RT_INVALID_DEVICEID == 107001 && ACL_ERROR_RT_MEMORY_ALLOCATION == 207001);
    CHECK(ACLNN_ERR_PARAM_NULLPTR == 161001 && ACLNN_ERR_PARAM_INVALID == 161002 && ACLNN_ERR_INNER_NULLPTR == 561103);
    CHECK(sizeof(aclnnStatus) == 4 && sizeof(aclFloat16) == 2);
    {
        /* Function pointers prove the prototypes. */
        aclnnStatus (*phase1)(const aclTensor*, const aclTensor*, const aclTensor*, int64_t, aclTensor*, uint64_t*,
                              aclOpExecutor**) = aclnnSoftMarginLossBackwardGetWorkspaceSize;
        aclnnStatus (*phase2)(void*, uint64_t, aclOpExecutor*, aclrtStream) = aclnnSoftMarginLossBackward;
        aclError (*memcpy_fn)(void*, size_t, const void*, size_t, aclrtMemcpyKind) = aclrtMemcpy;
        aclError (*align32_fn)(void**, size_t, aclrtMemMallocPolicy) = aclrtMallocAlign32;
        const char* (*version_fn)(void) = aclnnCpuGetVersion;
        aclError (*threads_fn)(int32_t) = aclnnCpuSetThreadCount;
        CHECK(phase1 != 0 && phase2 != 0 && memcpy_fn != 0 && align32_fn != 0 && version_fn != 0 && threads_fn != 0);
    }
    return 0;
}
