/* aclnn-cpu: aclnnSmoothL1LossBackward, the gradient of aclnnSmoothL1Loss with respect to self:
 *   gradInput = gradOut * (self - target) / beta where |self - target| < beta, gradOut * sign(self - target)
 * elsewhere, divided by numel(self) for reduction 1 (mean), per element of the broadcast shape of gradOut, self
 * and target. */
#ifndef ACLNN_CPU_INC_ACLNNOP_ACLNN_SMOOTH_L1_LOSS_BACKWARD_H
#define ACLNN_CPU_INC_ACLNNOP_ACLNN_SMOOTH_L1_LOSS_BACKWARD_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Phase 1: validates the arguments, plans the computation and hands out an executor. */
ACLNN_API aclnnStatus aclnnSmoothL1LossBackwardGetWorkspaceSize(const aclTensor *gradOut, const aclTensor *self,
                                                                const aclTensor *target, int64_t reduction, float beta,
                                                                aclTensor *gradInput, uint64_t *workspaceSize,
                                                                aclOpExecutor **executor);

/* Phase 2: enqueues the planned computation on stream (NULL: the default stream). */
ACLNN_API aclnnStatus aclnnSmoothL1LossBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNN_CPU_INC_ACLNNOP_ACLNN_SMOOTH_L1_LOSS_BACKWARD_H */
