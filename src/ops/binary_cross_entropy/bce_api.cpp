// aclnnBinaryCrossEntropy on the elementwise engine, in the order of CANN's op_api (ops-nn
// loss/binary_cross_entropy/op_api/aclnn_binary_cross_entropy.cpp): self, target and out not null (CANN's
// status there is 561103), their dtypes in the SoC's list, weight's in it, one dtype for all, self's shape
// target's, the reduction; then the arch35 tiling's rule that weight has self's shape. out has self's shape for
// none, one element for mean and sum.
#include <string>

#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_binary_cross_entropy.h"
#include "common/error_message.h"
#include "common/log.h"
#include "engine/elementwise_operator.h"
#include "ops/binary_cross_entropy/bce_kernels.h"
#include "validation/exact_shape_checks.h"
#include "ops/operator_table.h"

namespace {

constexpr const char* kPhase1Name = "aclnnBinaryCrossEntropyGetWorkspaceSize";
constexpr const char* kPhase2Name = "aclnnBinaryCrossEntropy";

using aclnn_cpu::validation::BroadcastOperation;
using aclnn_cpu::validation::ValidationState;

// CANN's CheckParams returns ACLNN_ERR_INNER_NULLPTR for a null tensor (its docs say 161001; its code and unit
// tests, 561103), with OP_CHECK_NULL's message.
aclnnStatus CheckNotNull(const BroadcastOperation& op, ValidationState&) {
    const aclnn_cpu::validation::NamedTensor* tensors[3] = {&op.inputs[0], &op.inputs[1], &op.out};
    for (const auto* t : tensors) {
        if (t->tensor != nullptr) continue;
        aclnn_cpu::SetErrorMessage(aclnn_cpu::kAclnnParameterError,
                                   "%s: Expected a proper Tensor but got null for argument %s.", kPhase1Name, t->name);
        return ACLNN_ERR_INNER_NULLPTR;
    }
    return ACLNN_SUCCESS;
}

// weight's dtype in the list, in the op_api's own words (its list string already has brackets).
aclnnStatus CheckWeightDtype(const aclTensor* weight) {
    using namespace aclnn_cpu::validation;
    const DtypeList& list = SupportedDtypes(kFloatTypesBf16FromAtlasA2);
    if (weight == nullptr || list.Contains(weight->data_type)) return ACLNN_SUCCESS;
    aclnn_cpu::SetErrorMessage(aclnn_cpu::kAclnnParameterError,
                               "%s: weight dtype %s should be in dtype support list [%s].", kPhase1Name,
                               CannDtypeName(weight->data_type).c_str(), CannDtypeListString(list).c_str());
    return ACLNN_ERR_PARAM_INVALID;
}

// The arch35 tiling's rule, a failure of phase 1's kernel launch (561103 from GetWorkspaceSize).
aclnnStatus CheckWeightShape(const aclTensor* self, const aclTensor* weight) {
    if (weight == nullptr || weight->view_dims == self->view_dims) return ACLNN_SUCCESS;
    aclnn_cpu::SetErrorMessage(aclnn_cpu::kAclnnInnerError, "%s: weight and x should have the same shape.",
                               kPhase1Name);
    return ACLNN_ERR_INNER_NULLPTR;
}

}  // namespace

extern "C" {

aclnnStatus aclnnBinaryCrossEntropyGetWorkspaceSize(const aclTensor* self, const aclTensor* target,
                                                    const aclTensor* weight, int64_t reduction, aclTensor* out,
                                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
    using namespace aclnn_cpu;
    namespace checks = validation::checks;
    return engine::GuardCBoundary(kPhase1Name, [&]() -> aclnnStatus {
        engine::ElementwiseRequest request(kPhase1Name, workspaceSize, executor);
        request.validation.inputs = {{self, "self"}, {target, "target"}, {weight, "weight", true}};
        request.validation.out = {out, "out"};
        request.validation.out_shape = validation::OutShapeRule::kOneElement;
        request.validation.steps = {
            &CheckNotNull,
            checks::DtypesInList({0, 1, checks::kOut}),
            checks::Custom([=] { return CheckWeightDtype(weight); }),
            // With a weight, CANN requires one dtype; without, its kernels have no binary for mixed dtypes
            // (docs/compatibility.md): the same rule either way.
            checks::DtypeMatches(0, 1),
            checks::DtypeMatches(0, 2),
            checks::DtypeMatches(0, checks::kOut),
            checks::ShapesEqual(0, 1),
            checks::ReductionInRange(reduction, "Reduction only support 0, 1, 2."),
            checks::Custom([=] {
                // CANN only warns here: a reduced loss is written into any one-element out.
                if (reduction != 0 && !out->view_dims.empty())
                    Log(LogLevel::kWarning, "%s: Reduction is %lld, out shape must [1].", kPhase1Name,
                        static_cast<long long>(reduction));
                return CheckWeightShape(self, weight);
            }),
            checks::Ranks({0, 1, 2, checks::kOut}),  // aclnn-cpu's: CANN's op_api has no rank check
            checks::Layouts(),
            checks::Broadcast(),
            checks::OutShape(reduction != 0),
            checks::OutDoesNotOverlapItself(),
        };
        request.describe = [reduction](const validation::ValidatedOperation& validated) {
            const auto choose = &ops::binary_cross_entropy::ChooseLossKernel;
            const int64_t count = engine::ElementCount(validated.broadcast_shape);
            if (reduction != 1 || count == 0)  // a mean of nothing is NaN, as CANN fills it
                return engine::ReducedLoss(kPhase2Name, choose, reduction, engine::MeanRule::kTimesReciprocal,
                                           kernels::FunctorParameters::Of(kernels::ScaleParameters{1.0f}));
            // CANN's mean multiplies every loss by meanVar = (float)(1.0 / N) before the sum.
            const kernels::ScaleParameters mean_var{static_cast<float>(1.0 / static_cast<double>(count))};
            return engine::ReducedLoss(kPhase2Name, choose, 2, engine::MeanRule::kNone,
                                       kernels::FunctorParameters::Of(mean_var));
        };
        return engine::PlanElementwiseOperator(request);
    });
}

aclnnStatus aclnnBinaryCrossEntropy(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                    aclrtStream stream) {
    return aclnn_cpu::engine::RunElementwiseOperator(workspace, workspaceSize, executor, stream, kPhase2Name);
}

}  // extern "C"

// The operator's row of the table every layer above the C API reads (ops/operator_table.h).
namespace aclnn_cpu {

ACLNN_CPU_OPERATOR_ROW(binary_cross_entropy) = {"binary_cross_entropy", "aclnnBinaryCrossEntropy",
    "-weight * (target * max(log(self), -100) + (1 - target) * max(log(1 - self), -100)); or its mean or sum",
    3, {{"self", "self", false, ValueDomain::kProbability},
        {"target", "target", false, ValueDomain::kProbability, InputShape::kSameAsSelf},
        {"weight", "weight", true, ValueDomain::kWeight, InputShape::kSameAsSelf}}, 0,
    1, {operator_rows::kReduction},
    ResultRule::kLoss, MeanDivisor::kBroadcastElements, &validation::kFloatTypesBf16FromAtlasA2, true,
    &references::BinaryCrossEntropy, "binary_cross_entropy", AtenResultType::kOneDtype, nullptr, 0,
    [](const aclTensor* const* in, const double* p, aclTensor* out, uint64_t* size, aclOpExecutor** executor) {
        return aclnnBinaryCrossEntropyGetWorkspaceSize(in[0], in[1], in[2], operator_rows::Int(p[0]), out, size,
                                                       executor);
    },
    aclnnBinaryCrossEntropy, 0, false, ACLNN_ERR_INNER_NULLPTR};

}  // namespace aclnn_cpu
