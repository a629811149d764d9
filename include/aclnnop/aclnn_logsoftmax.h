/* aclnn-cpu: aclnnLogSoftmax, the log of the softmax of self along dim:
 *   out = (self - max) - log(sum(exp(self - max))), the max and the sum over dim
 * (ops-nn activation/log_softmax_v2), self cast to out's dtype first. FLOAT, FLOAT16, DOUBLE and BFLOAT16
 * (BFLOAT16 on Atlas A2/A3 and Ascend 950 only). */
#ifndef ACLNN_CPU_INC_ACLNNOP_ACLNN_LOGSOFTMAX_H
#define ACLNN_CPU_INC_ACLNNOP_ACLNN_LOGSOFTMAX_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Phase 1: validates the arguments, plans the computation and hands out an executor. */
ACLNN_API aclnnStatus aclnnLogSoftmaxGetWorkspaceSize(const aclTensor *self, int64_t dim, aclTensor *out,
                                                      uint64_t *workspaceSize, aclOpExecutor **executor);

/* Phase 2: enqueues the planned computation on stream (NULL: the default stream). */
ACLNN_API aclnnStatus aclnnLogSoftmax(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                      aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNN_CPU_INC_ACLNNOP_ACLNN_LOGSOFTMAX_H */
