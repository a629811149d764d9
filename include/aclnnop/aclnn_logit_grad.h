/* aclnn-cpu: aclnnLogitGrad, the gradient of aclnnLogit:
 *   out = dy / (x * (1 - x)) for x in [eps, 1 - eps] and 0 outside where eps >= 0; for x in [0, 1] and NaN
 *   outside where eps < 0 (ops-nn loss/logit_grad). x, dy and out of one shape and one dtype: FLOAT, FLOAT16
 *   or BFLOAT16 on Atlas A2/A3 and Ascend 950; not offered elsewhere. */
#ifndef ACLNN_CPU_INC_ACLNNOP_ACLNN_LOGIT_GRAD_H
#define ACLNN_CPU_INC_ACLNNOP_ACLNN_LOGIT_GRAD_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Phase 1: validates the arguments, plans the computation and hands out an executor. */
ACLNN_API aclnnStatus aclnnLogitGradGetWorkspaceSize(const aclTensor *x, const aclTensor *dy, double eps,
                                                     const aclTensor *out, uint64_t *workspaceSize,
                                                     aclOpExecutor **executor);

/* Phase 2: enqueues the planned computation on stream (NULL: the default stream). */
ACLNN_API aclnnStatus aclnnLogitGrad(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                     aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNN_CPU_INC_ACLNNOP_ACLNN_LOGIT_GRAD_H */
