/* aclnn-cpu: aclnnNLLLoss, the negative log-likelihood loss of class scores self [C] or [N, C] (log-probabilities)
 * at class-index targets [] or [N] (INT64, INT32, UINT8), with a weight per class:
 *   loss[n] = -weight[t] * self[n, t] for t = target[n], 0 where t == ignoreIndex
 * (ops-nn loss/nll_loss). reduction 0 none (out [N]), 1 mean (the sum divided by totalWeightOut, the sum of the
 * weights counted), 2 sum; totalWeightOut is written for mean and sum only. A target outside [0, C) that is not
 * ignoreIndex fails the kernel before it writes anything: aclrtSynchronizeStream returns 161002. FLOAT, FLOAT16;
 * BFLOAT16 too on Atlas A2/A3 and Ascend 950. */
#ifndef ACLNN_CPU_INC_ACLNNOP_ACLNN_NLL_LOSS_H
#define ACLNN_CPU_INC_ACLNNOP_ACLNN_NLL_LOSS_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Phase 1: validates the arguments, plans the computation and hands out an executor. */
ACLNN_API aclnnStatus aclnnNLLLossGetWorkspaceSize(const aclTensor *self, const aclTensor *target,
                                                   const aclTensor *weight, int64_t reduction, int64_t ignoreIndex,
                                                   aclTensor *out, aclTensor *totalWeightOut, uint64_t *workspaceSize,
                                                   aclOpExecutor **executor);

/* Phase 2: enqueues the planned computation on stream (NULL: the default stream). */
ACLNN_API aclnnStatus aclnnNLLLoss(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNN_CPU_INC_ACLNNOP_ACLNN_NLL_LOSS_H */
