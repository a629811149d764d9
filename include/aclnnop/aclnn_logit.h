/* aclnn-cpu: aclnnLogit, the log-odds of each element of input:
 *   out = ln(z / (1 - z)), z = input clamped to [eps, 1 - eps] where eps >= 0, z = input where eps < 0
 * (ops-nn loss/logit). FLOAT, FLOAT16 and BFLOAT16 on Atlas A2/A3 and Ascend 950; not offered elsewhere. */
#ifndef ACLNN_CPU_INC_ACLNNOP_ACLNN_LOGIT_H
#define ACLNN_CPU_INC_ACLNNOP_ACLNN_LOGIT_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Phase 1: validates the arguments, plans the computation and hands out an executor. */
ACLNN_API aclnnStatus aclnnLogitGetWorkspaceSize(const aclTensor *input, double eps, const aclTensor *out,
                                                 uint64_t *workspaceSize, aclOpExecutor **executor);

/* Phase 2: enqueues the planned computation on stream (NULL: the default stream). */
ACLNN_API aclnnStatus aclnnLogit(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                 aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNN_CPU_INC_ACLNNOP_ACLNN_LOGIT_H */
