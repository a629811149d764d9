/* aclnn-cpu: aclnnCrossEntropyLossGrad, the gradient of aclnnCrossEntropyLoss with respect to its input, from
 * gradLoss ([N] for "none", one element otherwise), the forward's logProb [N, C], target [N] and the optional
 * weight [C]:
 *   out[n, c] = exp(logProb[n, c]) * s[n] - (c == target[n] ? s[n] : 0), s[n] = weight[t] * gradLoss (/ the sum
 *   of the weights counted, for "mean"), 0 where t is ignored
 * (ops-nn loss/cross_entropy_loss_grad), plus label smoothing's term on Ascend 950 (Atlas A2/A3's kernel takes
 * labelSmoothing 0 only). gradZlossOptional and lseForZlossOptional are not read, as on the NPU. FLOAT, FLOAT16,
 * BFLOAT16 on Atlas A2/A3 and Ascend 950 only. A target outside [0, C) that is not ignored fails the kernel before
 * it writes anything: aclrtSynchronizeStream returns 161002. */
#ifndef ACLNN_CPU_INC_ACLNNOP_ACLNN_CROSS_ENTROPY_LOSS_GRAD_H
#define ACLNN_CPU_INC_ACLNNOP_ACLNN_CROSS_ENTROPY_LOSS_GRAD_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Phase 1: validates the arguments, plans the computation and hands out an executor. */
ACLNN_API aclnnStatus aclnnCrossEntropyLossGradGetWorkspaceSize(
    const aclTensor *gradLoss, const aclTensor *logProb, const aclTensor *target, const aclTensor *weightOptional,
    const aclTensor *gradZlossOptional, const aclTensor *lseForZlossOptional, char *reductionOptional,
    int64_t ignoreIndex, double labelSmoothing, double lseSquareScaleForZloss, const aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);

/* Phase 2: enqueues the planned computation on stream (NULL: the default stream). */
ACLNN_API aclnnStatus aclnnCrossEntropyLossGrad(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNN_CPU_INC_ACLNNOP_ACLNN_CROSS_ENTROPY_LOSS_GRAD_H */
