/* aclnn-cpu: aclnnSmoothL1Loss, the Huber-like loss of self against target with threshold beta >= 0:
 *   L = 0.5 * (self - target)^2 / beta where |self - target| < beta, else |self - target| - 0.5 * beta
 * (beta == 0: |self - target|) per element of the broadcast shape; reduction 0 (none) gives L in result of that
 * shape, 1 (mean) mean(L) and 2 (sum) sum(L) in a one-element result. */
#ifndef ACLNN_CPU_INC_ACLNNOP_ACLNN_SMOOTH_L1_LOSS_H
#define ACLNN_CPU_INC_ACLNNOP_ACLNN_SMOOTH_L1_LOSS_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Phase 1: validates the arguments, plans the computation and hands out an executor. */
ACLNN_API aclnnStatus aclnnSmoothL1LossGetWorkspaceSize(const aclTensor *self, const aclTensor *target,
                                                        int64_t reduction, float beta, aclTensor *result,
                                                        uint64_t *workspaceSize, aclOpExecutor **executor);

/* Phase 2: enqueues the planned computation on stream (NULL: the default stream). */
ACLNN_API aclnnStatus aclnnSmoothL1Loss(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                        aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNN_CPU_INC_ACLNNOP_ACLNN_SMOOTH_L1_LOSS_H */
