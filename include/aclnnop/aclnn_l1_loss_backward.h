/* aclnn-cpu: aclnnL1LossBackward, the gradient of aclnnL1Loss with respect to self:
 *   gradInput = sign(self - target) * gradOutput (0 where self == target), divided by N for reduction 1 (mean),
 * per element of the broadcast shape of gradOutput, self and target (N its element count). */
#ifndef ACLNN_CPU_INC_ACLNNOP_ACLNN_L1_LOSS_BACKWARD_H
#define ACLNN_CPU_INC_ACLNNOP_ACLNN_L1_LOSS_BACKWARD_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Phase 1: validates the arguments, plans the computation and hands out an executor. */
ACLNN_API aclnnStatus aclnnL1LossBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *self,
                                                          const aclTensor *target, int64_t reduction,
                                                          aclTensor *gradInput, uint64_t *workspaceSize,
                                                          aclOpExecutor **executor);

/* Phase 2: enqueues the planned computation on stream (NULL: the default stream). */
ACLNN_API aclnnStatus aclnnL1LossBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                          aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNN_CPU_INC_ACLNNOP_ACLNN_L1_LOSS_BACKWARD_H */
