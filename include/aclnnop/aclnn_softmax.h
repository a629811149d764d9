/* aclnn-cpu: aclnnSoftmax, the softmax of self along dim:
 *   out = exp(self - max) / sum(exp(self - max)), the max and the sum over dim
 * (ops-nn activation/softmax_v2), computed in self's dtype and cast to out's. FLOAT, FLOAT16 and DOUBLE;
 * BFLOAT16 too on Atlas A2/A3 and Ascend 950. */
#ifndef ACLNN_CPU_INC_ACLNNOP_ACLNN_SOFTMAX_H
#define ACLNN_CPU_INC_ACLNNOP_ACLNN_SOFTMAX_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Phase 1: validates the arguments, plans the computation and hands out an executor. */
ACLNN_API aclnnStatus aclnnSoftmaxGetWorkspaceSize(const aclTensor *self, int64_t dim, aclTensor *out,
                                                   uint64_t *workspaceSize, aclOpExecutor **executor);

/* Phase 2: enqueues the planned computation on stream (NULL: the default stream). */
ACLNN_API aclnnStatus aclnnSoftmax(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNN_CPU_INC_ACLNNOP_ACLNN_SOFTMAX_H */
