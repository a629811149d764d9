#include "engine/elementwise_operator.h"

#include <memory>

#include "aclnn/opdev/op_errno.h"
#include "common/error_message.h"
#include "common/log.h"
#include "executor/executor.h"

namespace aclnn_cpu::engine {

ElementwiseDescription ReducedLoss(kernels::TileKernelChooser choose_kernel, int64_t reduction, MeanRule mean_rule,
                                   const kernels::FunctorParameters& parameters) {
    ElementwiseDescription description;
    description.choose_kernel = choose_kernel;
    description.output = reduction == 0 ? kernels::OutputMode::kStore : kernels::OutputMode::kSum;
    description.mean = reduction == 1 ? mean_rule : MeanRule::kNone;
    description.parameters = parameters;
    return description;
}

int64_t ViewElementCount(const aclTensor& tensor) { return ElementCount(tensor.view_dims); }

aclnnStatus PlanElementwiseOperator(const ElementwiseRequest& request) {
    const char* api = request.validation.api;
    return GuardCBoundary(api, [&]() -> aclnnStatus {
        validation::ValidatedOperation validated;
        aclnnStatus status = validation::ValidateBroadcastOperation(request.validation, &validated);
        if (status != ACLNN_SUCCESS) return status;
        const auto& inputs = request.validation.inputs;
        if (request.nz_warning_input >= 0 &&
            inputs[request.nz_warning_input].tensor->format == ACL_FORMAT_FRACTAL_NZ) {
            // CANN accepts it with a warning; the data are still read as ND here.
            Log(LogLevel::kWarning, "%s: %s has format FRACTAL_NZ, which may reduce precision; it is read as ND.",
                api, inputs[request.nz_warning_input].name);
        }
        // A shape-only input's dtype still takes part in the promotion (CANN casts every input).
        int32_t promoted = -1;
        bool any_shape_only = false;
        for (size_t i = 0; i + 1 < validated.present.size(); ++i) {
            const int32_t type = validated.present[i]->tensor->data_type;
            promoted = promoted < 0 ? type : validation::PromoteType(promoted, type);
            any_shape_only = any_shape_only || validated.present[i]->shape_only;
        }
        // The operands, in the inputs' order, then out: each present tensor the arithmetic reads (a shape-only
        // input has none), and each absent optional input as ones of the promoted dtype, as CANN's op_api passes
        // a tensor of ones for it: the functor always takes every input (one instance per operator, where one
        // per combination of the optional inputs would multiply the compiled kernels).
        std::vector<PlanOperand> operands;
        std::vector<aclTensor*> input_tensors;
        size_t present_index = 0;
        for (const validation::NamedTensor& input : inputs) {
            if (input.tensor == nullptr) {
                operands.push_back({nullptr, input.name, {1, 0, 0}, promoted});
                continue;
            }
            const size_t i = present_index++;
            if (input.shape_only) continue;
            operands.push_back({input.tensor, input.name, validated.extents[i]});
            input_tensors.push_back(const_cast<aclTensor*>(input.tensor));
        }
        operands.push_back({validated.present.back()->tensor, validated.present.back()->name,
                            validated.extents.back()});
        ElementwiseDescription description = request.describe(validated);
        description.phase2_name = request.phase2_name;
        if (any_shape_only) description.promote_type = promoted;
        auto plan = std::make_shared<ElementwisePlan>(description, std::move(operands), validated.broadcast_shape);
        status = plan->CheckAddressesAndSizeWorkspace(api);
        if (status != ACLNN_SUCCESS) return status;
        return HandOutExecutor(request.validation, plan, std::move(input_tensors), description.phase2_name);
    });
}

aclnnStatus HandOutExecutor(const validation::BroadcastOperation& operation, std::shared_ptr<const OpPlan> plan,
                            std::vector<aclTensor*> inputs, const char* phase2_name,
                            const std::vector<aclTensor*>& more_outputs) {
    const uint64_t workspace_size = plan->WorkspaceSize();
    std::vector<aclTensor*> outputs = {const_cast<aclTensor*>(operation.out.tensor)};
    outputs.insert(outputs.end(), more_outputs.begin(), more_outputs.end());
    aclOpExecutor* created = CreateExecutor(std::move(plan), std::move(inputs), std::move(outputs), phase2_name);
    if (created == nullptr) {
        SetErrorMessage(aclnn_cpu::kAclnnInnerError, "%s: cannot create the executor (out of memory).", operation.api);
        return ACLNN_ERR_INNER_CREATE_EXECUTOR;
    }
    *operation.workspace_size = workspace_size;
    *operation.executor = created;
    return ACLNN_SUCCESS;
}

aclnnStatus RunElementwiseOperator(void* workspace, uint64_t workspace_size, aclOpExecutor* executor,
                                   aclrtStream stream, const char* op_name) {
    return GuardCBoundary(op_name,
                          [&] { return RunExecutor(workspace, workspace_size, executor, stream, op_name); });
}

}  // namespace aclnn_cpu::engine
