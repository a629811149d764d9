/* aclnn-cpu: aclnnMseLossBackward, the gradient of aclnnMseLoss with respect to self:
 *   out = 2 * (self - target) * gradOutput, divided by numel(self) for reduction 1 (mean),
 * per element of the broadcast shape of gradOutput, self and target. gradOutput and target have self's dtype
 * (FLOAT, FLOAT16 and, on Atlas A2/A3 and Ascend 950, BFLOAT16); out any of them. */
#ifndef ACLNN_CPU_INC_ACLNNOP_ACLNN_MSE_LOSS_BACKWARD_H
#define ACLNN_CPU_INC_ACLNNOP_ACLNN_MSE_LOSS_BACKWARD_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Phase 1: validates the arguments, plans the computation and hands out an executor. */
ACLNN_API aclnnStatus aclnnMseLossBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *self,
                                                           const aclTensor *target, int64_t reduction, aclTensor *out,
                                                           uint64_t *workspaceSize, aclOpExecutor **executor);

/* Phase 2: enqueues the planned computation on stream (NULL: the default stream). */
ACLNN_API aclnnStatus aclnnMseLossBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                           aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNN_CPU_INC_ACLNNOP_ACLNN_MSE_LOSS_BACKWARD_H */
