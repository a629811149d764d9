// aclnnBinaryCrossEntropyWithLogitsBackward on the elementwise engine, in the order of CANN's op_api (ops-nn
// loss/sigmoid_cross_entropy_with_logits_grad_v2/op_api/aclnn_binary_cross_entropy_with_logits_backward.cpp):
// out's rank (the only one CANN's template checks), every tensor's dtype in the SoC's list, out's dtype target's,
// the storage formats, the shapes (self, target and out equal; gradOutput and the optional weights broadcast to
// self), the reduction. The mean multiplies by 1 / numel(self) in fp32, after everything else.
#include <algorithm>

#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_binary_cross_entropy_with_logits_backward.h"
#include "common/error_message.h"
#include "engine/elementwise_operator.h"
#include "ops/binary_cross_entropy_with_logits/bce_with_logits_kernels.h"
#include "validation/exact_shape_checks.h"
#include "ops/operator_table.h"

namespace {

constexpr const char* kPhase1Name = "aclnnBinaryCrossEntropyWithLogitsBackwardGetWorkspaceSize";
constexpr const char* kPhase2Name = "aclnnBinaryCrossEntropyWithLogitsBackward";
// CANN's CHECK_RET(selfShape == broadcastShape) logs its condition.
constexpr const char* kShapeMismatch = "check selfShape == broadcastShape failed.";

// CANN's CheckInputDimension reaches OP_CHECK_MAX_DIM only for out (its other arguments are const), with the
// template's parameter name in the message.
aclnnStatus CheckOutRank(const aclTensor* out) {
    if (out->view_dims.size() <= 8) return ACLNN_SUCCESS;
    aclnn_cpu::SetErrorMessage(aclnn_cpu::kAclnnParameterError, "%s: The t tensor cannot be larger than 8 dimensions.",
                               kPhase1Name);
    return ACLNN_ERR_PARAM_INVALID;
}

}  // namespace

extern "C" {

aclnnStatus aclnnBinaryCrossEntropyWithLogitsBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, const aclTensor* target, const aclTensor* weightOptional,
    const aclTensor* posWeightOptional, int64_t reduction, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor) {
    using namespace aclnn_cpu;
    namespace checks = validation::checks;
    namespace bce = ops::binary_cross_entropy_with_logits;
    return engine::GuardCBoundary(kPhase1Name, [&]() -> aclnnStatus {
        engine::ElementwiseRequest request(kPhase1Name, workspaceSize, executor);
        request.validation.inputs = {{gradOutput, "gradOutput"},
                                     {self, "self"},
                                     {target, "target"},
                                     {weightOptional, "weightOptional", true},
                                     {posWeightOptional, "posWeightOptional", true}};
        request.validation.out = {out, "out"};
        request.validation.dtypes = &validation::kHalfFirstTypesBf16FromAtlasA2;
        request.validation.steps = {
            checks::NullTensors(),
            checks::Custom([=] { return CheckOutRank(out); }),
            checks::DtypesInList({0, 1, 2, 3, 4, checks::kOut}),
            checks::DtypeMatches(checks::kOut, 2),
            checks::StorageFormatsEqual(1, 2),
            checks::StorageFormatsEqual(1, checks::kOut),
            checks::Layouts(),
            checks::UnlessEmpty(1, {checks::ShapesEqual(1, 2), checks::ShapesEqual(1, checks::kOut),
                                    checks::BroadcastsToShapeOf(0, 1, 1, kShapeMismatch),
                                    checks::BroadcastsToShapeOf(3, 1, 1, kShapeMismatch),
                                    checks::BroadcastsToShapeOf(4, 1, 1, kShapeMismatch)}),
            checks::ReductionInRange(reduction, "Reduction should be between 0 and 2, but current is %lld"),
            checks::Broadcast(),
            checks::OutShape(false),
            checks::OutDoesNotOverlapItself(),
        };
        const bool weighted = weightOptional != nullptr || posWeightOptional != nullptr;
        request.describe = [reduction, self, weighted](const validation::ValidatedOperation&) {
            engine::ElementwiseDescription description;
            description.phase2_name = kPhase2Name;
            description.choose_kernel = weighted ? &bce::ChooseWeightedGradientKernel : &bce::ChooseGradientKernel;
            // CANN's tiling: 1.0f / max(1.0f, (float)numel(self)), in fp32.
            const float count = static_cast<float>(engine::ViewElementCount(*self));
            description.parameters = kernels::FunctorParameters::Of(
                kernels::ScaleParameters{reduction == 1 ? 1.0f / std::max(1.0f, count) : 1.0f});
            return description;
        };
        return engine::PlanElementwiseOperator(request);
    });
}

aclnnStatus aclnnBinaryCrossEntropyWithLogitsBackward(void* workspace, uint64_t workspaceSize,
                                                      aclOpExecutor* executor, const aclrtStream stream) {
    return aclnn_cpu::engine::RunElementwiseOperator(workspace, workspaceSize, executor, stream, kPhase2Name);
}

}  // extern "C"

// The operator's row of the table every layer above the C API reads (ops/operator_table.h).
namespace aclnn_cpu {

ACLNN_CPU_OPERATOR_ROW(binary_cross_entropy_with_logits_backward) = {
    "binary_cross_entropy_with_logits_backward", "aclnnBinaryCrossEntropyWithLogitsBackward",
    "gradOutput * weight * ((1 + posWeight * target - target) * sigmoid(self) - posWeight * target), divided by "
    "numel(self) for mean",
    5, {operator_rows::kGradOutputToSelf, operator_rows::kSelf, operator_rows::kProbabilityTarget,
        operator_rows::kWeightOptional, operator_rows::kPosWeightOptional}, 1,
    1, {operator_rows::kReduction},
    ResultRule::kGradient, MeanDivisor::kSelfElements, &validation::kHalfFirstTypesBf16FromAtlasA2, false,
    &references::BinaryCrossEntropyWithLogitsGrad, nullptr, AtenResultType::kSelf, nullptr, 0,
    [](const aclTensor* const* in, const double* p, aclTensor* out, uint64_t* size, aclOpExecutor** executor) {
        return aclnnBinaryCrossEntropyWithLogitsBackwardGetWorkspaceSize(in[0], in[1], in[2], in[3], in[4],
                                                                         operator_rows::Int(p[0]), out, size,
                                                                         executor);
    },
    aclnnBinaryCrossEntropyWithLogitsBackward, 2};

}  // namespace aclnn_cpu
