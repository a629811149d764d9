/* aclnn-cpu: aclnn framework entry points (libnnopbase). */
#ifndef ACLNN_CPU_INC_ACLNN_ACLNN_BASE_H
#define ACLNN_CPU_INC_ACLNN_ACLNN_BASE_H

#include <stdint.h>
#include <stdlib.h>

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

/* configPath may be NULL. Calling these and aclInit/aclFinalize in one process is allowed. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnInit(const char *configPath);
ACL_FUNC_VISIBILITY aclnnStatus aclnnFinalize(void);

#ifdef __cplusplus
}
#endif

#endif /* ACLNN_CPU_INC_ACLNN_ACLNN_BASE_H */
