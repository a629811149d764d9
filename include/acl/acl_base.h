/* aclnn-cpu: AscendCL base header, laid out as CANN's: the base runtime types and the two error-code lists. */
#ifndef ACLNN_CPU_INC_ACL_ACL_BASE_H
#define ACLNN_CPU_INC_ACL_ACL_BASE_H

#include "acl/acl_base_rt.h"
#include "error_codes/ge_error_codes.h"
#include "error_codes/rt_error_codes.h"

#endif /* ACLNN_CPU_INC_ACL_ACL_BASE_H */
