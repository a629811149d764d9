/* aclnn-cpu: aclnnBinaryCrossEntropy, binary cross-entropy on probabilities:
 *   out = -weight * (target * max(log(self), -100) + (1 - target) * max(log(1 - self), -100))
 * per element (self, target and weight of one shape; weight may be NULL), or its mean (reduction 1) or sum
 * (reduction 2). As CANN's header, it declares the Reduction enumeration. */
#ifndef ACLNN_CPU_INC_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_H
#define ACLNN_CPU_INC_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

enum Reduction { None = 0, Mean = 1, Sum = 2 };

/* Phase 1: validates the arguments, plans the computation and hands out an executor. */
ACLNN_API aclnnStatus aclnnBinaryCrossEntropyGetWorkspaceSize(const aclTensor *self, const aclTensor *target,
                                                              const aclTensor *weight, int64_t reduction,
                                                              aclTensor *out, uint64_t *workspaceSize,
                                                              aclOpExecutor **executor);

/* Phase 2: enqueues the planned computation on stream (NULL: the default stream). */
ACLNN_API aclnnStatus aclnnBinaryCrossEntropy(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                              aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNN_CPU_INC_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_H */
