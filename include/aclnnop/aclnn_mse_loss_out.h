/* aclnn-cpu: aclnnMseLossOut, the squared error of self against target reduced over the first dim:
 *   L = (self - target)^2 per element of the broadcast shape S of self and target;
 * reduction 0 (none) gives L in out of shape S; 1 (mean) and 2 (sum) give the mean or sum of L over dim 0 of S
 * in out of shape S without its first dim. Dtypes as aclnnMseLoss. */
#ifndef ACLNN_CPU_INC_ACLNNOP_ACLNN_MSE_LOSS_OUT_H
#define ACLNN_CPU_INC_ACLNNOP_ACLNN_MSE_LOSS_OUT_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Phase 1: validates the arguments, plans the computation and hands out an executor. */
ACLNN_API aclnnStatus aclnnMseLossOutGetWorkspaceSize(const aclTensor *self, const aclTensor *target, int64_t reduction,
                                                      aclTensor *out, uint64_t *workspaceSize,
                                                      aclOpExecutor **executor);

/* Phase 2: enqueues the planned computation on stream (NULL: the default stream). */
ACLNN_API aclnnStatus aclnnMseLossOut(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                      aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNN_CPU_INC_ACLNNOP_ACLNN_MSE_LOSS_OUT_H */
