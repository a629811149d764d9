/* aclnn-cpu: CANN's acl_op.h, for programs that include it. Current CANN ships it empty too, for compatibility
 * with older releases; the operator-by-name API (aclopCompileAndExecute and the rest) is not part of this slice:
 * operators are called through their aclnn functions (aclnnop/). */
#ifndef ACLNN_CPU_INC_ACL_ACL_OP_H
#define ACLNN_CPU_INC_ACL_ACL_OP_H

#include "acl_base.h"

#endif /* ACLNN_CPU_INC_ACL_ACL_OP_H */
