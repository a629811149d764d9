// aclnnBinaryCrossEntropyWithLogits and aclnnBinaryCrossEntropyWithLogitsBackward, each whole: its functor
// (bce_with_logits_functors-inl.h) in the engine's tile loops, an instance with and one without weights,
// compiled once per SIMD target; its phase 1 in CANN's order; its row of the operator table.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/binary_cross_entropy_with_logits/binary_cross_entropy_with_logits.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "hwy/highway.h"
#include "kernels/elementwise_tiles-inl.h"
#include "ops/binary_cross_entropy_with_logits/bce_with_logits_functors-inl.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::ops::binary_cross_entropy_with_logits::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

kernels::TileKernel ChooseLoss(const kernels::KernelConfig& config, bool fusable, bool weighted) {
    return weighted ? kernels::HWY_NAMESPACE::ChooseTileKernel<BinaryCrossEntropyWithLogits<true>>(config, fusable)
                    : kernels::HWY_NAMESPACE::ChooseTileKernel<BinaryCrossEntropyWithLogits<false>>(config, fusable);
}
kernels::TileKernel ChooseGradient(const kernels::KernelConfig& config, bool fusable, bool weighted) {
    return weighted
               ? kernels::HWY_NAMESPACE::ChooseStoreKernel<BinaryCrossEntropyWithLogitsGrad<true>>(config, fusable)
               : kernels::HWY_NAMESPACE::ChooseStoreKernel<BinaryCrossEntropyWithLogitsGrad<false>>(config, fusable);
}

}  // namespace aclnn_cpu::ops::binary_cross_entropy_with_logits::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace aclnn_cpu::ops::binary_cross_entropy_with_logits {

HWY_EXPORT(ChooseLoss);
HWY_EXPORT(ChooseGradient);

kernels::TileKernel ChooseLossKernel(const kernels::KernelConfig& config, bool fusable) {
    return HWY_DYNAMIC_DISPATCH(ChooseLoss)(config, fusable, false);
}
kernels::TileKernel ChooseWeightedLossKernel(const kernels::KernelConfig& config, bool fusable) {
    return HWY_DYNAMIC_DISPATCH(ChooseLoss)(config, fusable, true);
}
kernels::TileKernel ChooseGradientKernel(const kernels::KernelConfig& config, bool fusable) {
    return HWY_DYNAMIC_DISPATCH(ChooseGradient)(config, fusable, false);
}
kernels::TileKernel ChooseWeightedGradientKernel(const kernels::KernelConfig& config, bool fusable) {
    return HWY_DYNAMIC_DISPATCH(ChooseGradient)(config, fusable, true);
}

}  // namespace aclnn_cpu::ops::binary_cross_entropy_with_logits

#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_binary_cross_entropy_with_logits.h"
#include "aclnnop/aclnn_binary_cross_entropy_with_logits_backward.h"
#include "common/error_message.h"
#include "common/log.h"
#include "engine/elementwise_operator.h"
#include "ops/operator_request.h"
#include "validation/exact_shape_checks.h"
#include <algorithm>

// ---- aclnnBinaryCrossEntropyWithLogits --------------------------------------------------------------------------
// aclnnBinaryCrossEntropyWithLogits on the elementwise engine, in the order of CANN's op_api (ops-nn
// loss/sigmoid_cross_entropy_with_logits_v2/op_api/aclnn_binary_cross_entropy_with_logits.cpp): self, target and
// out in the SoC's list, out's dtype target's, the reduction, the ranks, self's shape target's, the optional
// weights broadcast to it; out of self's shape for none, one element otherwise (a mean or sum of the fp32
// losses, then cast to out's dtype).
namespace aclnn_cpu {

ACLNN_CPU_OPERATOR_ROW(binary_cross_entropy_with_logits) =
    OperatorDescription(ACLNN_CPU_C_API(aclnnBinaryCrossEntropyWithLogits), "binary_cross_entropy_with_logits",
                        "weight * ((1 - target) * self - (1 + (posWeight - 1) * target) * log(sigmoid(self))); "
                        "or its mean or sum")
        .Inputs({operator_rows::kSelf, operator_rows::kProbabilityTarget,
                 NamedInMessages(operator_rows::kWeightOptional, "weight"),
                 NamedInMessages(operator_rows::kPosWeightOptional, "posWeight")},
                0)
        .Parameters({operator_rows::kReduction})
        .Result(ResultRule::kLoss)
        .Dtypes(&validation::kHalfFirstTypesBf16FromAtlasA2, false, 1)
        .Reference(&references::BinaryCrossEntropyWithLogits)
        .Aten("binary_cross_entropy_with_logits", AtenResultType::kTarget)
        .GradientRow("binary_cross_entropy_with_logits_backward", 0);

}  // namespace aclnn_cpu

namespace {

const aclnn_cpu::OperatorDescription& kLossRow = aclnn_cpu::kOperatorRow_binary_cross_entropy_with_logits;

}  // namespace

extern "C" {

aclnnStatus aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize(const aclTensor* self, const aclTensor* target,
                                                              const aclTensor* weightOptional,
                                                              const aclTensor* posWeightOptional, int64_t reduction,
                                                              aclTensor* out, uint64_t* workspaceSize,
                                                              aclOpExecutor** executor) {
    using namespace aclnn_cpu;
    namespace checks = validation::checks;
    namespace bce = ops::binary_cross_entropy_with_logits;
    return engine::GuardCBoundary(kLossRow.phase1_name, [&]() -> aclnnStatus {
        engine::ElementwiseRequest request =
            ops::RequestFor(kLossRow, {self, target, weightOptional, posWeightOptional}, out, workspaceSize, executor);
        request.validation.out_shape = validation::OutShapeRule::kOneElement;
        // The forward's op_api tests a SocVersion range (Ascend910B to Ascend910E) for BFLOAT16: the family rule but
        // for Ascend910E and Ascend 350 (docs/compatibility.md).
        request.validation.steps = {
            checks::NullTensors(),
            checks::DtypesInList({0, 1, checks::kOut}),
            checks::DtypeMatches(1, checks::kOut),
            checks::Custom([=] {
                // CANN only warns here: a reduced loss is written into any one-element out.
                if (reduction != 0 && !out->view_dims.empty())
                    Log(LogLevel::kWarning, "%s: Reduction is %lld, out shape must be [1].", kLossRow.phase1_name,
                        static_cast<long long>(reduction));
                return ACLNN_SUCCESS;
            }),
            checks::ReductionInRange(reduction, "Reduction only support [0, 1, 2]."),
            checks::Ranks({0, 1, 2, 3}),
            checks::ShapesEqual(0, 1),
            // aclnn-cpu's rule where CANN's result is not documented: the weights broadcast to no larger a shape.
            checks::UnlessEmpty(1, {checks::BroadcastsToShapeOf(2, 1, 1, "weight %s broadcast with target %s gives "
                                                                         "%s; aclnn-cpu needs target's shape."),
                                    checks::BroadcastsToShapeOf(3, 1, 1, "posWeight %s broadcast with target %s "
                                                                         "gives %s; aclnn-cpu needs target's shape.")}),
            checks::Layouts(),
            checks::Broadcast(),
            checks::OutShape(reduction != 0),
            checks::OutDoesNotOverlapItself(),
        };
        const bool weighted = weightOptional != nullptr || posWeightOptional != nullptr;
        request.describe = [reduction, weighted](const validation::ValidatedOperation&) {
            return engine::ReducedLoss(weighted ? &bce::ChooseWeightedLossKernel : &bce::ChooseLossKernel, reduction,
                                       engine::MeanRule::kTimesReciprocal);
        };
        return engine::PlanElementwiseOperator(request);
    });
}

aclnnStatus aclnnBinaryCrossEntropyWithLogits(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                              const aclrtStream stream) {
    return aclnn_cpu::ops::Run(kLossRow, workspace, workspaceSize, executor, stream);
}

}  // extern "C"

// ---- aclnnBinaryCrossEntropyWithLogitsBackward ------------------------------------------------------------------
// aclnnBinaryCrossEntropyWithLogitsBackward on the elementwise engine, in the order of CANN's op_api (ops-nn
// loss/sigmoid_cross_entropy_with_logits_grad_v2/op_api/aclnn_binary_cross_entropy_with_logits_backward.cpp):
// out's rank (the only one CANN's template checks), every tensor's dtype in the SoC's list, out's dtype target's,
// the storage formats, the shapes (self, target and out equal; gradOutput and the optional weights broadcast to
// self), the reduction. The mean multiplies by 1 / numel(self) in fp32, after everything else.
namespace aclnn_cpu {

ACLNN_CPU_OPERATOR_ROW(binary_cross_entropy_with_logits_backward) =
    OperatorDescription(ACLNN_CPU_C_API(aclnnBinaryCrossEntropyWithLogitsBackward),
                        "binary_cross_entropy_with_logits_backward",
                        "gradOutput * weight * ((1 + posWeight * target - target) * sigmoid(self) - "
                        "posWeight * target), divided by numel(self) for mean")
        .Inputs({operator_rows::kGradOutputToSelf, operator_rows::kSelf, operator_rows::kProbabilityTarget,
                 operator_rows::kWeightOptional, operator_rows::kPosWeightOptional},
                1)
        .Parameters({operator_rows::kReduction})
        .Result(ResultRule::kGradient, MeanDivisor::kSelfElements)
        .Dtypes(&validation::kHalfFirstTypesBf16FromAtlasA2, false, 2)
        .Reference(&references::BinaryCrossEntropyWithLogitsGrad);

}  // namespace aclnn_cpu

namespace {

const aclnn_cpu::OperatorDescription& kGradientRow =
    aclnn_cpu::kOperatorRow_binary_cross_entropy_with_logits_backward;
// CANN's CHECK_RET(selfShape == broadcastShape) logs its condition.
constexpr const char* kShapeMismatch = "check selfShape == broadcastShape failed.";

// CANN's CheckInputDimension reaches OP_CHECK_MAX_DIM only for out (its other arguments are const), with the
// template's parameter name in the message.
aclnnStatus CheckOutRank(const aclTensor* out) {
    if (out->view_dims.size() <= 8) return ACLNN_SUCCESS;
    aclnn_cpu::SetErrorMessage(aclnn_cpu::kAclnnParameterError, "%s: The t tensor cannot be larger than 8 dimensions.",
                               kGradientRow.phase1_name);
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
    return engine::GuardCBoundary(kGradientRow.phase1_name, [&]() -> aclnnStatus {
        engine::ElementwiseRequest request =
            ops::RequestFor(kGradientRow, {gradOutput, self, target, weightOptional, posWeightOptional}, out,
                            workspaceSize, executor);
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
    return aclnn_cpu::ops::Run(kGradientRow, workspace, workspaceSize, executor, stream);
}

}  // extern "C"

#endif  // HWY_ONCE
