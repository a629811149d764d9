// The two public entry points of aclnnSoftMarginLossBackward.
#include <cstdio>
#include <memory>
#include <new>

#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_soft_margin_loss_backward.h"
#include "common/error_message.h"
#include "executor/executor.h"
#include "ops/soft_margin_loss_backward/smlb_plan.h"

using namespace aclnn_cpu::ops::smlb;

extern "C" {

aclnnStatus aclnnSoftMarginLossBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                        const aclTensor* target, int64_t reduction, aclTensor* out,
                                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
    const Arguments args{gradOutput, self, target, reduction, out, workspaceSize, executor};
    ValidatedShapes shapes;
    try {
        aclnnStatus status = Validate(args, &shapes);
        if (status != ACLNN_SUCCESS) return status;
        if (gradOutput->format == ACL_FORMAT_FRACTAL_NZ) {
            // CANN accepts it with a warning; the data are still read as ND here.
            std::fprintf(stderr, "[WARNING] aclnn-cpu: %s: gradOutput has format FRACTAL_NZ, which may reduce "
                         "precision; it is read as ND.\n", kPhase1Name);
        }
        auto plan = std::make_shared<SmlbPlan>(args, shapes);
        status = plan->CheckAddressesAndSizeWorkspace(kPhase1Name);
        if (status != ACLNN_SUCCESS) return status;
        aclOpExecutor* created = aclnn_cpu::CreateExecutor(
            plan, {const_cast<aclTensor*>(gradOutput), const_cast<aclTensor*>(self), const_cast<aclTensor*>(target)},
            {out}, "aclnnSoftMarginLossBackward");
        if (created == nullptr) {
            aclnn_cpu::SetErrorMessage("%s: cannot create the executor (out of memory).", kPhase1Name);
            return ACLNN_ERR_INNER_CREATE_EXECUTOR;
        }
        *workspaceSize = plan->WorkspaceSize();
        *executor = created;
        return ACLNN_SUCCESS;
    } catch (const std::exception& e) {
        aclnn_cpu::SetErrorMessage("%s: %s while planning.", kPhase1Name, e.what());
        return ACLNN_ERR_INNER;
    }
}

aclnnStatus aclnnSoftMarginLossBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                        aclrtStream stream) {
    try {
        return aclnn_cpu::RunExecutor(workspace, workspaceSize, executor, stream, kPhase2Name);
    } catch (const std::exception& e) {
        aclnn_cpu::SetErrorMessage("%s: %s.", kPhase2Name, e.what());
        return ACLNN_ERR_INNER;
    }
}

}  // extern "C"
