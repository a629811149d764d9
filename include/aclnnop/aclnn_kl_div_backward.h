/* aclnn-cpu: aclnnKlDivBackward, the gradient of the KL divergence loss with respect to self:
 *   out = -(target * gradOutput) * cof, or with logTarget -(exp(target) * gradOutput) * cof,
 * per element of self's shape (gradOutput and target broadcast to it); cof is 1 for reduction 0 (none) and 2
 * (sum), 1/N for 1 (mean) and 1/(the first dim) for 3 (batchmean); any other value is none. */
#ifndef ACLNN_CPU_INC_ACLNNOP_ACLNN_KL_DIV_BACKWARD_H
#define ACLNN_CPU_INC_ACLNNOP_ACLNN_KL_DIV_BACKWARD_H

#include "aclnn/aclnn_base.h"
#include "aclnn_util.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Phase 1: validates the arguments, plans the computation and hands out an executor. */
ACLNN_API aclnnStatus aclnnKlDivBackwardGetWorkspaceSize(const aclTensor *gradOutput, const aclTensor *self,
                                                         const aclTensor *target, int64_t reduction, bool logTarget,
                                                         aclTensor *out, uint64_t *workspaceSize,
                                                         aclOpExecutor **executor);

/* Phase 2: enqueues the planned computation on stream (NULL: the default stream). */
ACLNN_API aclnnStatus aclnnKlDivBackward(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                         aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACLNN_CPU_INC_ACLNNOP_ACLNN_KL_DIV_BACKWARD_H */
