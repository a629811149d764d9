/* aclnn-cpu: aclnnNLLLoss2dBackward, the gradient of aclnnNLLLoss2d with respect to self [N, C, H, W]:
 *   out[n, t, h, w] = -weight[t] * gradOutput[n, h, w] (none), -weight[t] * gradOutput (sum),
 *                     -weight[t] * (gradOutput / totalWeight) (mean), for t = target[n, h, w] != ignoreIndex;
 *                     0 elsewhere
 * (ops-nn loss/nll_loss_grad). totalWeight is `aclTensor *` here, as in CANN's header. A target outside [0, C)
 * that is not ignoreIndex fails the kernel before it writes anything: aclrtSynchronizeStream returns 161002.
 * FLOAT, FLOAT16; BFLOAT16 too on Atlas A2/A3 and Ascend 950. */
#ifndef ACLNN_CPU_INC_ACLNNOP_ACLNN_NLL_LOSS2D_BACKWARD_H
#define ACLNN_CPU_INC_ACLNNOP_ACLNN_NLL_LOSS2D_BACKWARD_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Phase 1: validates the arguments, plans the computation and hands out an executor. */
ACLNN_API aclnnStatus aclnnNLLLoss2dBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *self,
                                                             const aclTensor *target, const aclTensor *weight,
                                                             int64_t reduction, int64_t ignoreIndex,
                                                             aclTensor *totalWeight, aclTensor *out,
                                                             uint64_t *workspaceSize, aclOpExecutor **executor);

/* Phase 2: enqueues the planned computation on stream (NULL: the default stream). */
ACLNN_API aclnnStatus aclnnNLLLoss2dBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                             aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNN_CPU_INC_ACLNNOP_ACLNN_NLL_LOSS2D_BACKWARD_H */
