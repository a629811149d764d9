/* aclnn-cpu: aclnnSoftMarginLossBackward, the gradient of SoftMarginLoss with respect to self:
 *   out = cof * gradOutput * (-target * exp(-self*target)) / (1 + exp(-self*target))
 * with cof = 1/numel(out) for reduction 1 (mean) and 1 for 0 (none) and 2 (sum). Inputs broadcast to out's
 * shape. Dtypes FLOAT, FLOAT16, BFLOAT16 on every tensor, in any mix. */
#ifndef ACLNN_CPU_INC_ACLNNOP_ACLNN_SOFT_MARGIN_LOSS_BACKWARD_H
#define ACLNN_CPU_INC_ACLNNOP_ACLNN_SOFT_MARGIN_LOSS_BACKWARD_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Phase 1: validates the arguments, plans the computation and hands out an executor. */
ACLNN_API aclnnStatus aclnnSoftMarginLossBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *self,
                                                                  const aclTensor *target, int64_t reduction,
                                                                  aclTensor *out, uint64_t *workspaceSize,
                                                                  aclOpExecutor **executor);

/* Phase 2: enqueues the planned computation on stream (NULL: the default stream). */
ACLNN_API aclnnStatus aclnnSoftMarginLossBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                  aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNN_CPU_INC_ACLNNOP_ACLNN_SOFT_MARGIN_LOSS_BACKWARD_H */
