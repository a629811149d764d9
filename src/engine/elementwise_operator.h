// The two phases of a broadcasting elementwise operator, shared by every such operator: an operator's API
// file describes its arguments and its kernel, and these run the checks, plan, hand out the executor, and
// later run it -- with the C boundary guarded (no exception leaves).
#pragma once

#include <exception>
#include <functional>
#include <memory>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "common/error_message.h"

#include "engine/elementwise_plan.h"
#include "validation/broadcast_validation.h"

namespace aclnn_cpu::engine {

struct ElementwiseRequest {
    ElementwiseRequest() = default;
    // Phase 1's and phase 2's names and phase 1's output pointers, as every operator's phase 1 starts.
    ElementwiseRequest(const char* api, const char* phase2, uint64_t* workspace_size, aclOpExecutor** executor)
        : phase2_name(phase2) {
        validation.api = api;
        validation.workspace_size = workspace_size;
        validation.executor = executor;
    }

    const char* phase2_name = "";  // for phase 2's messages (the description's)
    validation::BroadcastOperation validation;  // the arguments, with phase 1's name and its output pointers
    // Builds the description once validation passed (it may depend on the broadcast shape, e.g. 1/N).
    std::function<ElementwiseDescription(const validation::ValidatedOperation&)> describe;
    // The input (index into validation.inputs) whose FRACTAL_NZ format CANN accepts with a precision warning.
    int nz_warning_input = -1;
};

// Runs an API function's body so that no exception crosses the C boundary: an exception (out of memory while
// describing the call, say) becomes ACLNN_ERR_INNER with the recent error message set.
template <class Body>
aclnnStatus GuardCBoundary(const char* api, Body&& body) noexcept {
    try {
        return body();
    } catch (const std::exception& e) {
        SetErrorMessage(aclnn_cpu::kAclnnInnerError, "%s: %s.", api, e.what());
    } catch (...) {
        SetErrorMessage(aclnn_cpu::kAclnnInnerError, "%s: an unknown exception.", api);
    }
    return ACLNN_ERR_INNER;
}

// The description of a loss whose reduction 0 stores every element and any other value sums them into out
// (1: a mean, by mean_rule; others: a sum).
ElementwiseDescription ReducedLoss(kernels::TileKernelChooser choose_kernel, int64_t reduction, MeanRule mean_rule,
                                   const kernels::FunctorParameters& parameters = {});

// The number of elements of a tensor's view (a 0-d tensor has one).
int64_t ViewElementCount(const aclTensor& tensor);

// Phase 1: validates, warns, plans, checks addresses, and hands out the executor and its workspace size.
aclnnStatus PlanElementwiseOperator(const ElementwiseRequest& request);

// Phase 1's last step for any plan: the executor (holding the plan, the inputs and the outputs: out, then
// `more_outputs`) and the workspace size, written to the operation's output pointers; 561101 where the executor
// cannot be created.
aclnnStatus HandOutExecutor(const validation::BroadcastOperation& operation, std::shared_ptr<const OpPlan> plan,
                            std::vector<aclTensor*> inputs, const char* phase2_name,
                            const std::vector<aclTensor*>& more_outputs = {});

// Phase 2: runs the executor on stream.
aclnnStatus RunElementwiseOperator(void* workspace, uint64_t workspace_size, aclOpExecutor* executor,
                                   aclrtStream stream, const char* op_name);

}  // namespace aclnn_cpu::engine
