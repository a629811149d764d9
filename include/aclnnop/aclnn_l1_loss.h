/* aclnn-cpu: aclnnL1Loss, the absolute error of self against target:
 *   L = |self - target| per element of the broadcast shape of self and target;
 * reduction 0 (none) gives L in out of that shape, 1 (mean) mean(L) and 2 (sum) sum(L) in a 0-d out. Dtypes
 * FLOAT, FLOAT16 and, on Atlas A2/A3 and Ascend 950, BFLOAT16 (CANN also takes INT64: docs/compatibility.md). */
#ifndef ACLNN_CPU_INC_ACLNNOP_ACLNN_L1_LOSS_H
#define ACLNN_CPU_INC_ACLNNOP_ACLNN_L1_LOSS_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Phase 1: validates the arguments, plans the computation and hands out an executor. */
ACLNN_API aclnnStatus aclnnL1LossGetWorkspaceSize(const aclTensor *self, const aclTensor *target, int64_t reduction,
                                                  aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);

/* Phase 2: enqueues the planned computation on stream (NULL: the default stream). */
ACLNN_API aclnnStatus aclnnL1Loss(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNN_CPU_INC_ACLNNOP_ACLNN_L1_LOSS_H */
