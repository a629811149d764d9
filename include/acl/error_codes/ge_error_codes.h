/* aclnn-cpu: graph-engine error codes. CANN's acl_base.h includes this file; aclnn-cpu runs no graphs,
 * so no graph-engine code is ever returned and none is declared here. The file exists so that code that
 * includes it by path keeps compiling. */
#ifndef ACLNN_CPU_INC_ACL_ERROR_CODES_GE_ERROR_CODES_H
#define ACLNN_CPU_INC_ACL_ERROR_CODES_GE_ERROR_CODES_H

#include <stddef.h>

#endif /* ACLNN_CPU_INC_ACL_ERROR_CODES_GE_ERROR_CODES_H */
