/* aclnn-cpu: aclnnSoftMarginLoss, the soft margin loss of self against target (labels, usually +-1):
 *   L = log(1 + exp(-target * self)) per element of the broadcast shape of self and target;
 * reduction 0 (none) gives L in out of that shape, 1 (mean) gives mean(L) in a 0-d out, and any other value
 * gives sum(L) in a 0-d out. Dtypes FLOAT, FLOAT16, BFLOAT16 on every tensor, in any mix. */
#ifndef ACLNN_CPU_INC_ACLNNOP_ACLNN_SOFT_MARGIN_LOSS_H
#define ACLNN_CPU_INC_ACLNNOP_ACLNN_SOFT_MARGIN_LOSS_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Phase 1: validates the arguments, plans the computation and hands out an executor. */
ACLNN_API aclnnStatus aclnnSoftMarginLossGetWorkspaceSize(const aclTensor *self, const aclTensor *target,
                                                          int64_t reduction, aclTensor *out, uint64_t *workspaceSize,
                                                          aclOpExecutor **executor);

/* Phase 2: enqueues the planned computation on stream (NULL: the default stream). */
ACLNN_API aclnnStatus aclnnSoftMarginLoss(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                          aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNN_CPU_INC_ACLNNOP_ACLNN_SOFT_MARGIN_LOSS_H */
