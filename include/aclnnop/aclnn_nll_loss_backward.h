/* aclnn-cpu: aclnnNLLLossBackward, the gradient of aclnnNLLLoss with respect to self [C] or [N, C]:
 *   out[n, t] = -weight[t] * gradOutput[n] (none), -weight[t] * gradOutput (sum),
 *               -weight[t] * (gradOutput / totalWeight) (mean), for t = target[n] != ignoreIndex; 0 elsewhere
 * (ops-nn loss/nll_loss_grad). A target outside [0, C) that is not ignoreIndex fails the kernel before it writes
 * anything: aclrtSynchronizeStream returns 161002. FLOAT, FLOAT16; BFLOAT16 too on Atlas A2/A3 and Ascend 950. */
#ifndef ACLNN_CPU_INC_ACLNNOP_ACLNN_NLL_LOSS_BACKWARD_H
#define ACLNN_CPU_INC_ACLNNOP_ACLNN_NLL_LOSS_BACKWARD_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Phase 1: validates the arguments, plans the computation and hands out an executor. */
ACLNN_API aclnnStatus aclnnNLLLossBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *self,
                                                           const aclTensor *target, const aclTensor *weight,
                                                           int64_t reduction, int64_t ignoreIndex,
                                                           const aclTensor *totalWeight, aclTensor *out,
                                                           uint64_t *workspaceSize, aclOpExecutor **executor);

/* Phase 2: enqueues the planned computation on stream (NULL: the default stream). */
ACLNN_API aclnnStatus aclnnNLLLossBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                           aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNN_CPU_INC_ACLNNOP_ACLNN_NLL_LOSS_BACKWARD_H */
