/* aclnn-cpu: aclnnBinaryCrossEntropyWithLogits, binary cross-entropy on logits:
 *   out = weight * ((1 - target) * self - (1 + (posWeight - 1) * target) * log(sigmoid(self)))
 * per element (weightOptional and posWeightOptional broadcast to target's shape; absent ones are 1), or its
 * mean (reduction 1) or sum (reduction 2). */
#ifndef ACLNN_CPU_INC_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_WITH_LOGITS_H
#define ACLNN_CPU_INC_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_WITH_LOGITS_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Phase 1: validates the arguments, plans the computation and hands out an executor. */
ACLNN_API aclnnStatus aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize(
    const aclTensor *self, const aclTensor *target, const aclTensor *weightOptional, const aclTensor *posWeightOptional,
    int64_t reduction, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);

/* Phase 2: enqueues the planned computation on stream (NULL: the default stream). */
ACLNN_API aclnnStatus aclnnBinaryCrossEntropyWithLogits(void *workspace, uint64_t workspaceSize,
                                                        aclOpExecutor *executor, const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNN_CPU_INC_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_WITH_LOGITS_H */
