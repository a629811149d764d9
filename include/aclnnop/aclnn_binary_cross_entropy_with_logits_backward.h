/* aclnn-cpu: aclnnBinaryCrossEntropyWithLogitsBackward, the gradient of aclnnBinaryCrossEntropyWithLogits with
 * respect to self:
 *   out = gradOutput * weight * ((1 + posWeight * target - target) * sigmoid(self) - posWeight * target)
 * per element of self's shape (gradOutput, weightOptional and posWeightOptional broadcast to it; absent ones are
 * 1), divided by numel(self) for reduction 1 (mean). */
#ifndef ACLNN_CPU_INC_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_WITH_LOGITS_BACKWARD_H
#define ACLNN_CPU_INC_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_WITH_LOGITS_BACKWARD_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Phase 1: validates the arguments, plans the computation and hands out an executor. */
ACLNN_API aclnnStatus aclnnBinaryCrossEntropyWithLogitsBackwardGetWorkspaceSize(
    const aclTensor *gradOutput, const aclTensor *self, const aclTensor *target, const aclTensor *weightOptional,
    const aclTensor *posWeightOptional, int64_t reduction, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor);

/* Phase 2: enqueues the planned computation on stream (NULL: the default stream). */
ACLNN_API aclnnStatus aclnnBinaryCrossEntropyWithLogitsBackward(void *workspace, uint64_t workspaceSize,
                                                                aclOpExecutor *executor, const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNN_CPU_INC_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_WITH_LOGITS_BACKWARD_H */
