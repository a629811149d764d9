/* aclnn-cpu: aclnnSoftmaxBackward, the gradient of softmax along dim from its result output:
 *   out = output * gradOutput - output * sum(output * gradOutput), the sum over dim
 * (ops-nn activation/softmax_grad), computed in gradOutput's dtype and cast to out's. FLOAT and FLOAT16;
 * BFLOAT16 too on Atlas A2/A3 and Ascend 950. */
#ifndef ACLNN_CPU_INC_ACLNNOP_ACLNN_SOFTMAX_BACKWARD_H
#define ACLNN_CPU_INC_ACLNNOP_ACLNN_SOFTMAX_BACKWARD_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Phase 1: validates the arguments, plans the computation and hands out an executor. */
ACLNN_API aclnnStatus aclnnSoftmaxBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *output,
                                                           int64_t dim, aclTensor *out, uint64_t *workspaceSize,
                                                           aclOpExecutor **executor);

/* Phase 2: enqueues the planned computation on stream (NULL: the default stream). */
ACLNN_API aclnnStatus aclnnSoftmaxBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                           aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNN_CPU_INC_ACLNNOP_ACLNN_SOFTMAX_BACKWARD_H */
