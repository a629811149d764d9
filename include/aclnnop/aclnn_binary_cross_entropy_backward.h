/* aclnn-cpu: aclnnBinaryCrossEntropyBackward, the gradient of aclnnBinaryCrossEntropy with respect to self:
 *   out = gradOutput * (self - target) / max((1 - self) * self, 1e-12) * weight
 * per element of self's shape (gradOutput, target and weightOptional broadcast to it; an absent weight is 1),
 * times 1/numel(self) for reduction 1 (mean). */
#ifndef ACLNN_CPU_INC_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_BACKWARD_H
#define ACLNN_CPU_INC_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_BACKWARD_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Phase 1: validates the arguments, plans the computation and hands out an executor. */
ACLNN_API aclnnStatus aclnnBinaryCrossEntropyBackwardGetWorkspaceSize(
    const aclTensor *gradOutput, const aclTensor *self, const aclTensor *target, const aclTensor *weightOptional,
    int64_t reduction, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);

/* Phase 2: enqueues the planned computation on stream (NULL: the default stream). */
ACLNN_API aclnnStatus aclnnBinaryCrossEntropyBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                      const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNN_CPU_INC_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_BACKWARD_H */
