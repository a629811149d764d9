/* aclnn-cpu: AscendCL entry header, laid out as CANN's: the runtime and the (empty here) operator-by-name API. */
#ifndef ACLNN_CPU_INC_ACL_ACL_H
#define ACLNN_CPU_INC_ACL_ACL_H

#include "acl_rt.h"
#include "acl_op.h"

#endif /* ACLNN_CPU_INC_ACL_ACL_H */
