/* aclnn-cpu: AscendCL entry header. */
#ifndef ACLNN_CPU_INC_ACL_ACL_H
#define ACLNN_CPU_INC_ACL_ACL_H

#include "acl_base.h"
#include "acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Version of the AscendCL API this library follows. */
#define ACL_MAJOR_VERSION 1
#define ACL_MINOR_VERSION 0
#define ACL_PATCH_VERSION 0

/* aclInit twice without aclFinalize gives ACL_ERROR_REPEAT_INITIALIZE; aclFinalize twice gives
 * ACL_ERROR_REPEAT_FINALIZE. configPath may be NULL; a named file must exist. */
ACL_FUNC_VISIBILITY aclError aclInit(const char *configPath);
ACL_FUNC_VISIBILITY aclError aclFinalize(void);
ACL_FUNC_VISIBILITY aclError aclrtGetVersion(int32_t *majorVersion, int32_t *minorVersion, int32_t *patchVersion);

#ifdef __cplusplus
}
#endif

#endif /* ACLNN_CPU_INC_ACL_ACL_H */
