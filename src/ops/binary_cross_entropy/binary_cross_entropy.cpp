// aclnnBinaryCrossEntropy and aclnnBinaryCrossEntropyBackward, each whole: its functor (CANN's arch35 DAG, ops-nn
// loss/binary_cross_entropy and loss/binary_cross_entropy_grad) compiled once per SIMD target, its phase 1 in
// CANN's order, and its row of the operator table. An absent weight is read as ones (the engine binds them):
// v * 1 = v, the bits of the formula without it.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/binary_cross_entropy/binary_cross_entropy.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include <cmath>

#include "hwy/highway.h"
#include "kernels/elementwise_tiles-inl.h"
#include "kernels/vector_log-inl.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::ops::binary_cross_entropy::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// max(log(v), -100), as the DAG's Log then Maxs, for any v: log(0) = -inf gives -100, a negative v or NaN
// gives NaN (the NaN is kept: CANN's kernel documents no range check, and PyTorch refuses such inputs), +inf
// gives +inf. Only a v below e^-100 (a subnormal) has a log below -100.
template <class D>
HWY_INLINE hn::Vec<D> ClampedLog(D d, hn::Vec<D> v) {
    const auto log = kernels::HWY_NAMESPACE::LogOfAny(d, v);
    const auto floor = hn::Set(d, -100.0f);
    return hn::IfThenElse(hn::Lt(log, floor), floor, log);  // Lt is false for NaN, which therefore stays
}

// The loss, in the DAG's order: -(max(log(x), -100) * y + max(log(1 - x), -100) * (1 - y)), times weight, times
// the scale (the mean's 1/N, applied to every element before the sum as CANN's reduce does; else 1). The logs
// are the project's table log (kernels/vector_log-inl.h). operator() serves any input; two faster forms give its
// bits where they apply (the tile loops test them on several vectors at once, kernels/functor_application-inl.h):
// form 0 where every label is 0 or 1 (one log), form 1 where every x and 1 - x is normal and positive -- every x
// in (0, 1) but the extremes -- where neither log can reach -100 and the logs take their fast path.
struct BinaryCrossEntropy {
    static constexpr int kInputs = 3;  // self, target, weight
    static constexpr int kScaledInput = -1;
    static constexpr bool kOutTypeIsInputType = true;  // out's dtype is self's (the op_api's check)
    // For probabilities and weights >= 0 every loss is >= +0, and the sums take their cheaper widening; a
    // negative result (a weight below 0, a target outside [0, 1], or -0 where both terms are 0) sends its row
    // back to the general one (kernels/fused_sum-inl.h), with the same bits.
    static constexpr bool kNonNegativeResults = true;
    static constexpr int kForms = 2;

    using Parameters = kernels::ScaleParameters;
    explicit BinaryCrossEntropy(const Parameters& parameters) : negative_scale(-parameters.scale) {}

    template <int kForm, class D>
    HWY_INLINE hn::Mask<D> Admits(D d, hn::Vec<D> x, hn::Vec<D> y, hn::Vec<D> /*w*/) const {
        // x and 1 - x are both normal and positive exactly where x is in [2^-126, 1) (below 1, 1 - x is at
        // least 2^-24): one compare of x's bits where testing both would take three operations more.
        const auto fast = kernels::HWY_NAMESPACE::IsNormalPositive<0x3f800000u>(d, x);
        if constexpr (kForm == 1) return fast;
        // Hard labels, every target 0 or 1 (the common training case): the term a label zeroes is +-0 times a
        // finite log, and adding it leaves the other term's bits (a log of an x below 1 is never 0, and
        // log(1 - x) = +0 plus -0 is +0), so one log gives the two-log form's bits. y - y y is +-0 exactly
        // for y = +-0 and 1, fused or not. For any other y, fused: the exact y (1 - y) is above 2^-150 in
        // magnitude, so it rounds to a nonzero float; unfused: y y rounds to a float other than y, and two
        // different floats never differ by 0. One multiply-add and one compare, where testing y = 0 and y = 1
        // takes two compares and an or.
        return hn::And(fast, hn::Eq(hn::NegMulAdd(y, y, y), hn::Zero(d)));
    }
    template <int kForm, class D>
    HWY_INLINE hn::Vec<D> Form(D d, hn::Vec<D> x, hn::Vec<D> y, hn::Vec<D> w) const {
        namespace math = kernels::HWY_NAMESPACE;
        const auto one = hn::Set(d, 1.0f);
        const auto complement = hn::Sub(one, x);
        if constexpr (kForm == 0) {
            return Scaled(d, math::LogOfNormal(d, hn::IfThenElse(hn::Eq(y, one), x, complement)), w);
        } else {
            return Scaled(d, Combined(d, math::LogOfNormal(d, x), math::LogOfNormal(d, complement), y), w);
        }
    }
    template <class D>
    HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> x, hn::Vec<D> y, hn::Vec<D> w) const {
        return Scaled(d, Combined(d, ClampedLog(d, x), ClampedLog(d, hn::Sub(hn::Set(d, 1.0f), x)), y), w);
    }

    // The sum in the DAG's brackets, before its negation: y log(x) + (1 - y) log(1 - x).
    template <class D>
    static HWY_INLINE hn::Vec<D> Combined(D d, hn::Vec<D> log_x, hn::Vec<D> log_complement, hn::Vec<D> y) {
        return hn::Add(hn::Mul(log_x, y), hn::Mul(log_complement, hn::Sub(hn::Set(d, 1.0f), y)));
    }
    // The DAG's negation is folded into the scale: -(s w) c = (s w) (-c) with the same bits, the sign being
    // exact and rounding symmetric.
    template <class D>
    HWY_INLINE hn::Vec<D> Scaled(D d, hn::Vec<D> log_likelihood, hn::Vec<D> w) const {
        return hn::Mul(hn::Mul(log_likelihood, w), hn::Set(d, negative_scale));
    }

    float negative_scale;
};

// The gradient, in the DAG's order: gradOutput * (x - y) / max((1 - x) * x, 1e-12f), times weight, times the
// mean's coefficient (1 for none and sum: exact). A NaN product passes the max (Lt is false for it).
struct BinaryCrossEntropyGrad {
    static constexpr int kInputs = 4;  // gradOutput, self, target, weight
    static constexpr int kScaledInput = -1;

    using Parameters = kernels::ScaleParameters;
    explicit BinaryCrossEntropyGrad(const Parameters& parameters) : mean_coefficient(parameters.scale) {}

    template <class D>
    HWY_INLINE hn::Vec<D> Gradient(D d, hn::Vec<D> g, hn::Vec<D> x, hn::Vec<D> y) const {
        const auto epsilon = hn::Set(d, 1e-12f);
        const auto product = hn::Mul(hn::Sub(hn::Set(d, 1.0f), x), x);
        const auto denominator = hn::IfThenElse(hn::Lt(product, epsilon), epsilon, product);
        return hn::Div(hn::Mul(g, hn::Sub(x, y)), denominator);
    }
    template <class D>
    HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> g, hn::Vec<D> x, hn::Vec<D> y, hn::Vec<D> w) const {
        return hn::Mul(hn::Mul(Gradient(d, g, x, y), w), hn::Set(d, mean_coefficient));
    }

    float mean_coefficient;
};

ACLNN_CPU_TILE_KERNEL_CHOOSER(ChooseLoss, BinaryCrossEntropy)
ACLNN_CPU_STORE_KERNEL_CHOOSER(ChooseGradient, BinaryCrossEntropyGrad)

}  // namespace aclnn_cpu::ops::binary_cross_entropy::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_binary_cross_entropy.h"
#include "aclnnop/aclnn_binary_cross_entropy_backward.h"
#include "common/error_message.h"
#include "common/log.h"
#include "engine/elementwise_operator.h"
#include "ops/operator_request.h"
#include "validation/exact_shape_checks.h"
#include <string>

namespace aclnn_cpu::ops::binary_cross_entropy {

ACLNN_CPU_DISPATCH_TILE_KERNEL(ChooseLoss)
ACLNN_CPU_DISPATCH_TILE_KERNEL(ChooseGradient)

}  // namespace aclnn_cpu::ops::binary_cross_entropy

// ---- aclnnBinaryCrossEntropy ------------------------------------------------------------------------------------
// aclnnBinaryCrossEntropy on the elementwise engine, in the order of CANN's op_api (ops-nn
// loss/binary_cross_entropy/op_api/aclnn_binary_cross_entropy.cpp): self, target and out not null (CANN's
// status there is 561103), their dtypes in the SoC's list, weight's in it, one dtype for all, self's shape
// target's, the reduction; then the arch35 tiling's rule that weight has self's shape. out has self's shape for
// none, one element for mean and sum.
namespace aclnn_cpu {

ACLNN_CPU_OPERATOR_ROW(binary_cross_entropy) =
    OperatorDescription(ACLNN_CPU_C_API(aclnnBinaryCrossEntropy), "binary_cross_entropy",
                        "-weight * (target * max(log(self), -100) + (1 - target) * max(log(1 - self), -100)); "
                        "or its mean or sum")
        .Inputs({{"self", "self", false, ValueDomain::kProbability},
                 {"target", "target", false, ValueDomain::kProbability, InputShape::kSameAsSelf},
                 {"weight", "weight", true, ValueDomain::kWeight, InputShape::kSameAsSelf}},
                0)
        .Parameters({operator_rows::kReduction})
        .Result(ResultRule::kLoss)
        .Dtypes(&validation::kFloatTypesBf16FromAtlasA2, true, 0)
        .Reference(&references::BinaryCrossEntropy)
        .Aten("binary_cross_entropy", AtenResultType::kOneDtype)
        .NullTensorStatus(ACLNN_ERR_INNER_NULLPTR);

}  // namespace aclnn_cpu

namespace {

const aclnn_cpu::OperatorDescription& kLossRow = aclnn_cpu::kOperatorRow_binary_cross_entropy;

using aclnn_cpu::validation::BroadcastOperation;
using aclnn_cpu::validation::ValidationState;

// CANN's CheckParams returns ACLNN_ERR_INNER_NULLPTR for a null tensor (its docs say 161001; its code and unit
// tests, 561103), with OP_CHECK_NULL's message.
aclnnStatus CheckNotNull(const BroadcastOperation& op, ValidationState&) {
    const aclnn_cpu::validation::NamedTensor* tensors[3] = {&op.inputs[0], &op.inputs[1], &op.out};
    for (const auto* t : tensors) {
        if (t->tensor != nullptr) continue;
        aclnn_cpu::SetErrorMessage(aclnn_cpu::kAclnnParameterError,
                                   "%s: Expected a proper Tensor but got null for argument %s.", kLossRow.phase1_name,
                                   t->name);
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
                               "%s: weight dtype %s should be in dtype support list [%s].", kLossRow.phase1_name,
                               CannDtypeName(weight->data_type).c_str(), CannDtypeListString(list).c_str());
    return ACLNN_ERR_PARAM_INVALID;
}

// The arch35 tiling's rule, a failure of phase 1's kernel launch (561103 from GetWorkspaceSize).
aclnnStatus CheckWeightShape(const aclTensor* self, const aclTensor* weight) {
    if (weight == nullptr || weight->view_dims == self->view_dims) return ACLNN_SUCCESS;
    aclnn_cpu::SetErrorMessage(aclnn_cpu::kAclnnInnerError, "%s: weight and x should have the same shape.",
                               kLossRow.phase1_name);
    return ACLNN_ERR_INNER_NULLPTR;
}

}  // namespace

extern "C" {

aclnnStatus aclnnBinaryCrossEntropyGetWorkspaceSize(const aclTensor* self, const aclTensor* target,
                                                    const aclTensor* weight, int64_t reduction, aclTensor* out,
                                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
    using namespace aclnn_cpu;
    namespace checks = validation::checks;
    return engine::GuardCBoundary(kLossRow.phase1_name, [&]() -> aclnnStatus {
        engine::ElementwiseRequest request =
            ops::RequestFor(kLossRow, {self, target, weight}, out, workspaceSize, executor);
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
                    Log(LogLevel::kWarning, "%s: Reduction is %lld, out shape must [1].", kLossRow.phase1_name,
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
                return engine::ReducedLoss(choose, reduction, engine::MeanRule::kTimesReciprocal,
                                           kernels::FunctorParameters::Of(kernels::ScaleParameters{1.0f}));
            // CANN's mean multiplies every loss by meanVar = (float)(1.0 / N) before the sum.
            const kernels::ScaleParameters mean_var{static_cast<float>(1.0 / static_cast<double>(count))};
            return engine::ReducedLoss(choose, 2, engine::MeanRule::kNone,
                                       kernels::FunctorParameters::Of(mean_var));
        };
        return engine::PlanElementwiseOperator(request);
    });
}

aclnnStatus aclnnBinaryCrossEntropy(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                    aclrtStream stream) {
    return aclnn_cpu::ops::Run(kLossRow, workspace, workspaceSize, executor, stream);
}

}  // extern "C"

// ---- aclnnBinaryCrossEntropyBackward ----------------------------------------------------------------------------
// aclnnBinaryCrossEntropyBackward on the elementwise engine, in the order of CANN's op_api (ops-nn
// loss/binary_cross_entropy_grad/op_api/aclnn_binary_cross_entropy_backward.cpp): out's rank (the only one
// CANN's template checks), every dtype in the SoC's list, the storage formats, the shapes (out self's; target,
// weightOptional and gradOutput broadcast to exactly self's), the reduction. All inputs are promoted together;
// the mean multiplies by 1.0f / numel(self), after the weight.
namespace aclnn_cpu {

ACLNN_CPU_OPERATOR_ROW(binary_cross_entropy_backward) =
    OperatorDescription(ACLNN_CPU_C_API(aclnnBinaryCrossEntropyBackward), "binary_cross_entropy_backward",
                        "gradOutput * (self - target) / max((1 - self) * self, 1e-12) * weight, "
                        "times 1/numel(self) for mean")
        .Inputs({operator_rows::kGradOutputToSelf, {"self", "self", false, ValueDomain::kProbability},
                 {"target", "target", false, ValueDomain::kProbability, InputShape::kToSelf},
                 operator_rows::kWeightOptional},
                1)
        .Parameters({operator_rows::kReduction})
        .Result(ResultRule::kGradient, MeanDivisor::kSelfElements)
        .Dtypes(&validation::kHalfFirstTypesBf16FromAtlasA2)
        .Reference(&references::BinaryCrossEntropyGrad)
        .Aten("binary_cross_entropy_backward", AtenResultType::kOneDtype);

}  // namespace aclnn_cpu

namespace {

const aclnn_cpu::OperatorDescription& kGradientRow = aclnn_cpu::kOperatorRow_binary_cross_entropy_backward;
// CANN's CHECK_RET(selfShape == broadcastShape) logs its condition.
constexpr const char* kShapeMismatch = "check selfShape == broadcastShape failed.";

}  // namespace

extern "C" {

aclnnStatus aclnnBinaryCrossEntropyBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                            const aclTensor* target, const aclTensor* weightOptional,
                                                            int64_t reduction, aclTensor* out, uint64_t* workspaceSize,
                                                            aclOpExecutor** executor) {
    using namespace aclnn_cpu;
    namespace checks = validation::checks;
    return engine::GuardCBoundary(kGradientRow.phase1_name, [&]() -> aclnnStatus {
        engine::ElementwiseRequest request =
            ops::RequestFor(kGradientRow, {gradOutput, self, target, weightOptional}, out, workspaceSize, executor);
        request.validation.steps = {
            checks::NullTensors(),
            checks::Ranks({checks::kOut}),  // CANN's template skips its const arguments
            checks::DtypesInList({1, 0, 2, checks::kOut, 3}),
            checks::StorageFormatsEqual(1, 2),
            checks::StorageFormatsEqual(1, 3),
            checks::Layouts(),
            checks::UnlessEmpty(1, {checks::ShapesEqual(checks::kOut, 1),
                                    checks::BroadcastsToShapeOf(1, 2, 1, kShapeMismatch),
                                    checks::BroadcastsToShapeOf(1, 3, 1, kShapeMismatch),
                                    checks::BroadcastsToShapeOf(1, 0, 1, kShapeMismatch)}),
            checks::ReductionInRange(reduction, "Reduction should be between 0 and 2, but current is %lld"),
            checks::Broadcast(),
            checks::OutShape(false),
            checks::OutDoesNotOverlapItself(),
        };
        request.describe = [reduction, self](const validation::ValidatedOperation&) {
            engine::ElementwiseDescription description;
            description.choose_kernel = &ops::binary_cross_entropy::ChooseGradientKernel;
            // CANN's tiling: 1.0f / (float)numel(out), out of self's shape.
            const int64_t count = engine::ViewElementCount(*self);
            description.parameters = kernels::FunctorParameters::Of(
                kernels::ScaleParameters{reduction == 1 && count > 0 ? 1.0f / static_cast<float>(count) : 1.0f});
            return description;
        };
        return engine::PlanElementwiseOperator(request);
    });
}

aclnnStatus aclnnBinaryCrossEntropyBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                            const aclrtStream stream) {
    return aclnn_cpu::ops::Run(kGradientRow, workspace, workspaceSize, executor, stream);
}

}  // extern "C"

#endif  // HWY_ONCE
