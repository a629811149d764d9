#include "engine/along_dim_operator.h"

#include <memory>

#include "aclnn/opdev/op_errno.h"
#include "engine/elementwise_operator.h"

namespace aclnn_cpu::engine {
namespace {

// The plan of a call CANN ends in phase 1 (an empty tensor): phase 2 runs nothing, in the stream's order.
class NothingToComputePlan final : public OpPlan {
public:
    uint64_t WorkspaceSize() const override { return 0; }
    aclnnStatus Bind(void*, uint64_t, rt::Task* task) const override {
        *task = [] { return ACL_SUCCESS; };
        return ACLNN_SUCCESS;
    }
    bool IsSmall() const override { return true; }
};

}  // namespace

aclnnStatus PlanAlongDimOperator(const AlongDimRequest& request) {
    const char* api = request.validation.api;
    return GuardCBoundary(api, [&]() -> aclnnStatus {
        validation::ValidatedOperation validated;
        aclnnStatus status = validation::ValidateBroadcastOperation(request.validation, &validated);
        if (status != ACLNN_SUCCESS) return status;
        std::shared_ptr<OpPlan> plan;
        std::vector<aclTensor*> input_tensors;
        if (validated.finished_early) {
            plan = std::make_shared<NothingToComputePlan>();
        } else {
            std::vector<PlanOperand> operands;
            for (size_t i = 0; i < validated.present.size(); ++i) {
                operands.push_back({validated.present[i]->tensor, validated.present[i]->name, validated.extents[i]});
                if (i + 1 < validated.present.size())
                    input_tensors.push_back(const_cast<aclTensor*>(validated.present[i]->tensor));
            }
            AlongDimDescription description = request.describe(validated);
            description.phase2_name = request.phase2_name;
            auto along_dim = std::make_shared<AlongDimPlan>(description, std::move(operands),
                                                            validated.broadcast_shape, request.dim);
            status = along_dim->CheckAddressesAndSizeWorkspace(api);
            if (status != ACLNN_SUCCESS) return status;
            plan = along_dim;
        }
        return HandOutExecutor(request.validation, plan, std::move(input_tensors), request.phase2_name);
    });
}

}  // namespace aclnn_cpu::engine
