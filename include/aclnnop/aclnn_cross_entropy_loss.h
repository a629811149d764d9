/* aclnn-cpu: aclnnCrossEntropyLoss, the fused cross-entropy of logits input [N, C] (FLOAT, FLOAT16, BFLOAT16) at
 * class-index targets [N] (INT64; INT32 too on Ascend 950), with an optional FLOAT weight per class [C]:
 *   logProbOut[n, c] = log_softmax(input[n])[c]
 *   loss[n] = (1 - ls) * -weight[t] * logProb[n, t] + ls / C * -sum_c(weight[c] * logProb[n, c]), t = target[n]
 * (ops-nn loss/cross_entropy_loss), 0 where t is ignored. reductionOptional "none" (lossOut [N]), "mean" (divided
 * by the sum of the weights counted), "sum". zlossOut and lseForZlossOut are required but, as on the NPU, never
 * written. Atlas A2/A3 and Ascend 950 only. A target outside [0, C) that is not ignored fails the kernel before it
 * writes anything: aclrtSynchronizeStream returns 161002. */
#ifndef ACLNN_CPU_INC_ACLNNOP_ACLNN_CROSS_ENTROPY_LOSS_H
#define ACLNN_CPU_INC_ACLNNOP_ACLNN_CROSS_ENTROPY_LOSS_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Phase 1: validates the arguments, plans the computation and hands out an executor. */
ACLNN_API aclnnStatus aclnnCrossEntropyLossGetWorkspaceSize(
    const aclTensor *input, const aclTensor *target, const aclTensor *weightOptional, char *reductionOptional,
    int64_t ignoreIndex, double labelSmoothing, double lseSquareScaleForZloss, bool returnZloss,
    const aclTensor *lossOut, const aclTensor *logProbOut, const aclTensor *zlossOut, const aclTensor *lseForZlossOut,
    uint64_t *workspaceSize, aclOpExecutor **executor);

/* Phase 2: enqueues the planned computation on stream (NULL: the default stream). */
ACLNN_API aclnnStatus aclnnCrossEntropyLoss(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                            aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNN_CPU_INC_ACLNNOP_ACLNN_CROSS_ENTROPY_LOSS_H */
