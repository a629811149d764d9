// aclnnSmoothL1Loss and aclnnSmoothL1LossBackward, each whole: its functor (CANN's arch35 DAGs, ops-nn
// loss/smooth_l1_loss_v2 and loss/smooth_l1_loss_grad_v2) compiled once per SIMD target, its phase 1 in CANN's
// order, its row of the operator table; their parameters in smooth_l1_loss.h.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/smooth_l1_loss/smooth_l1_loss.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include <cmath>

#include "hwy/highway.h"
#include "kernels/elementwise_tiles-inl.h"
#include "ops/smooth_l1_loss/smooth_l1_loss.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::ops::smooth_l1_loss::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// d = self - target; a = |d|; where a < beta: (d * (d * 0.5)) * (1/beta), else a + (-0.5 beta) -- both
// computed, one selected, as the DAG does. beta == 0 gives |d| (nothing is below 0, and a + -0 is a); a beta
// below 1e-6 has the reciprocal 0, so the quadratic part is 0 (CANN's tiling).
struct SmoothL1Loss {
    static constexpr int kInputs = 2;  // self, target
    static constexpr int kScaledInput = -1;
    // q * (1/beta) >= 0 and a - 0.5 beta >= 0.5 beta >= 0 where selected (or NaN).
    static constexpr bool kNonNegativeResults = true;
    static constexpr bool kCheap = true;

    using Parameters = LossParameters;
    explicit SmoothL1Loss(const Parameters& parameters)
        : beta(parameters.beta), reciprocal(parameters.reciprocal), minus_half_beta(parameters.minus_half_beta) {}

    template <class D>
    HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> x, hn::Vec<D> y) const {
        const auto difference = hn::Sub(x, y);
        const auto magnitude = hn::Abs(difference);
        const auto square = hn::Mul(difference, hn::Mul(difference, hn::Set(d, 0.5f)));
        const auto quadratic = hn::Mul(square, hn::Set(d, reciprocal));
        const auto linear = hn::Add(magnitude, hn::Set(d, minus_half_beta));
        return hn::IfThenElse(hn::Lt(magnitude, hn::Set(d, beta)), quadratic, linear);
    }

    float beta, reciprocal, minus_half_beta;
};

// x = self - target; P = 1 past +beta, N = -1 past -beta, S = x * (1/beta) inside; ((P + N) + S) * gradOut,
// then times the mean's coefficient (1 for none and sum: exact). kEdges: the comparisons include the edges
// (CANN's kernel for a one-element gradOut) -- then |x| == beta gives +-1, and x == 0 with beta == 0 gives
// (1 + -1) + 0 = 0 where the strict form gives 0 * NaN.
template <bool kEdges>
struct SmoothL1LossGrad {
    static constexpr int kInputs = 3;  // gradOut, self, target
    static constexpr int kScaledInput = -1;

    using Parameters = GradientParameters;
    explicit SmoothL1LossGrad(const Parameters& parameters)
        : beta(parameters.beta), minus_beta(parameters.minus_beta), reciprocal(parameters.reciprocal),
          mean_coefficient(parameters.mean_coefficient) {}

    template <class D>
    HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> g, hn::Vec<D> self, hn::Vec<D> target) const {
        const auto x = hn::Sub(self, target);
        const auto magnitude = hn::Abs(x);
        const auto inside = hn::Mul(x, hn::Set(d, reciprocal));
        const auto upper = hn::Set(d, beta), lower = hn::Set(d, minus_beta);
        const auto above = kEdges ? hn::Ge(x, upper) : hn::Gt(x, upper);
        const auto below = kEdges ? hn::Le(x, lower) : hn::Lt(x, lower);
        const auto outside = kEdges ? hn::Ge(magnitude, upper) : hn::Gt(magnitude, upper);
        const auto positive = hn::IfThenElseZero(above, hn::Set(d, 1.0f));
        const auto negative = hn::IfThenElseZero(below, hn::Set(d, -1.0f));
        const auto slope = hn::Add(hn::Add(positive, negative), hn::IfThenZeroElse(outside, inside));
        return hn::Mul(hn::Mul(slope, g), hn::Set(d, mean_coefficient));
    }

    float beta, minus_beta, reciprocal, mean_coefficient;
};

ACLNN_CPU_TILE_KERNEL_CHOOSER(ChooseLoss, SmoothL1Loss)
ACLNN_CPU_STORE_KERNEL_CHOOSER(ChooseGradient, SmoothL1LossGrad<false>)
ACLNN_CPU_STORE_KERNEL_CHOOSER(ChooseGradientWithEdges, SmoothL1LossGrad<true>)

}  // namespace aclnn_cpu::ops::smooth_l1_loss::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_smooth_l1_loss.h"
#include "aclnnop/aclnn_smooth_l1_loss_backward.h"
#include "common/error_message.h"
#include "engine/elementwise_operator.h"
#include "ops/operator_request.h"
#include "ops/smooth_l1_loss/smooth_l1_loss.h"
#include <algorithm>

namespace aclnn_cpu::ops::smooth_l1_loss {

ACLNN_CPU_DISPATCH_TILE_KERNEL(ChooseLoss)
ACLNN_CPU_DISPATCH_TILE_KERNEL(ChooseGradient)
ACLNN_CPU_DISPATCH_TILE_KERNEL(ChooseGradientWithEdges)

// CANN's tiling: the reciprocal is 1 / beta in fp32, or (|beta| < 1e-6) 0 for the loss and NaN for the gradient.
LossParameters LossParametersOf(float beta) {
    return {beta, std::fabs(beta) < 1e-6f ? 0.0f : 1.0f / beta, -0.5f * beta};
}

GradientParameters GradientParametersOf(float beta, float mean_coefficient) {
    return {beta, -1.0f * beta, std::fabs(beta) < 1e-6f ? NAN : 1.0f / beta, mean_coefficient};
}

}  // namespace aclnn_cpu::ops::smooth_l1_loss

// ---- aclnnSmoothL1Loss ------------------------------------------------------------------------------------------
// aclnnSmoothL1Loss: the smooth L1 loss with threshold beta on the elementwise engine, in the order of CANN's
// op_api (ops-nn loss/smooth_l1_loss_v2/op_api/aclnn_smooth_l1_loss.cpp): self's and target's dtypes in the
// SoC's list, their promoted dtype castable to result's, the reduction, the ranks, the broadcast, result of the
// broadcast shape for none, then beta >= 0. For mean and sum CANN does not check result's shape and writes the
// 0-d value through a ViewCopy; here result must have one element.
namespace aclnn_cpu {

ACLNN_CPU_OPERATOR_ROW(smooth_l1_loss) =
    OperatorDescription(ACLNN_CPU_C_API(aclnnSmoothL1Loss), "smooth_l1_loss",
                        "0.5 (self - target)^2 / beta where |self - target| < beta, else |self - target| - 0.5 beta; "
                        "or its mean or sum")
        .Inputs({operator_rows::kSelf, operator_rows::kTarget}, 0)
        .Out("result")
        .Parameters({operator_rows::kReduction, operator_rows::kBeta})
        .Result(ResultRule::kLoss)
        .Dtypes(&validation::kFloatTypesBf16FromAtlasA2)
        .Reference(&references::SmoothL1Loss)
        .Aten("smooth_l1_loss", AtenResultType::kPromoted)
        .WarnsOfFractalNz();

}  // namespace aclnn_cpu

namespace {

const aclnn_cpu::OperatorDescription& kLossRow = aclnn_cpu::kOperatorRow_smooth_l1_loss;

}  // namespace

namespace aclnn_cpu::ops::smooth_l1_loss {

aclnnStatus CheckBeta(const char* api, float beta) {
    if (beta >= 0) return ACLNN_SUCCESS;
    SetErrorMessage(kAclnnParameterError, "%s: beta should be greater than or equal to 0 (it is %g).", api,
                    static_cast<double>(beta));
    return ACLNN_ERR_PARAM_INVALID;
}

}  // namespace aclnn_cpu::ops::smooth_l1_loss

extern "C" {

aclnnStatus aclnnSmoothL1LossGetWorkspaceSize(const aclTensor* self, const aclTensor* target, int64_t reduction,
                                              float beta, aclTensor* result, uint64_t* workspaceSize,
                                              aclOpExecutor** executor) {
    using namespace aclnn_cpu;
    namespace checks = validation::checks;
    return engine::GuardCBoundary(kLossRow.phase1_name, [&]() -> aclnnStatus {
        engine::ElementwiseRequest request = ops::RequestFor(kLossRow, {self, target}, result, workspaceSize, executor);
        request.validation.out_shape = validation::OutShapeRule::kOneElement;
        request.validation.out_shape_message = "Shape of result should be %s, but current is %s.";
        request.validation.steps = {
            checks::NullTensors(),
            checks::DtypesInList({0, 1}),
            checks::PromotedCastableToOut({0, 1}),
            checks::ReductionInRange(reduction, "Reduction should be between 0 and 2, but current is %lld."),
            checks::Ranks({0, 1}),
            checks::Layouts(),
            checks::Broadcast(),
            checks::OutShape(reduction != 0),
            checks::Custom([=] { return ops::smooth_l1_loss::CheckBeta(kLossRow.phase1_name, beta); }),
            checks::OutDoesNotOverlapItself(),
        };
        request.describe = [reduction, beta](const validation::ValidatedOperation&) {
            return engine::ReducedLoss(&ops::smooth_l1_loss::ChooseLossKernel, reduction,
                                       engine::MeanRule::kTimesReciprocal,
                                       kernels::FunctorParameters::Of(ops::smooth_l1_loss::LossParametersOf(beta)));
        };
        return engine::PlanElementwiseOperator(request);
    });
}

aclnnStatus aclnnSmoothL1Loss(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
    return aclnn_cpu::ops::Run(kLossRow, workspace, workspaceSize, executor, stream);
}

}  // extern "C"

// ---- aclnnSmoothL1LossBackward ----------------------------------------------------------------------------------
// aclnnSmoothL1LossBackward: the smooth L1 loss's gradient on the elementwise engine, in the order of CANN's
// op_api (ops-nn loss/smooth_l1_loss_grad_v2/op_api/aclnn_smooth_l1_loss_backward.cpp): each tensor's dtype in the
// SoC's list, the inputs' largest rank, the reduction, beta >= 0, the promoted dtype in the list and castable to
// gradInput's, the broadcast, gradInput of the broadcast shape. The mean divides by numel(self), and a one-element
// gradOut selects CANN's kernel whose comparisons include the edges.
namespace aclnn_cpu {

ACLNN_CPU_OPERATOR_ROW(smooth_l1_loss_backward) =
    OperatorDescription(ACLNN_CPU_C_API(aclnnSmoothL1LossBackward), "smooth_l1_loss_backward",
                        "gradOut * (self - target) / beta inside |self - target| < beta, "
                        "gradOut * sign(self - target) outside; divided by numel(self) for mean")
        .Inputs({{"gradOut", "grad_output", false, ValueDomain::kGradient}, operator_rows::kSelf,
                 operator_rows::kTarget},
                1)
        .Out("gradInput")
        .Parameters({operator_rows::kReduction, operator_rows::kBeta})
        .Result(ResultRule::kGradient, MeanDivisor::kSelfElements)
        .Dtypes(&validation::kFloatTypesBf16FromAtlasA2)
        .Reference(&references::SmoothL1LossGrad)
        .Aten("smooth_l1_loss_backward", AtenResultType::kSelf);

}  // namespace aclnn_cpu

namespace {

const aclnn_cpu::OperatorDescription& kGradientRow = aclnn_cpu::kOperatorRow_smooth_l1_loss_backward;

// CANN checks the largest of the inputs' ranks.
aclnnStatus CheckLargestRank(const aclTensor* gradOut, const aclTensor* self, const aclTensor* target) {
    const size_t rank = std::max({gradOut->view_dims.size(), self->view_dims.size(), target->view_dims.size()});
    if (rank <= 8) return ACLNN_SUCCESS;
    aclnn_cpu::SetErrorMessage(aclnn_cpu::kAclnnParameterError,
                               "%s: expected tensor must have at most 8 dimensions, but got %zu.",
                               kGradientRow.phase1_name, rank);
    return ACLNN_ERR_PARAM_INVALID;
}

}  // namespace

extern "C" {

aclnnStatus aclnnSmoothL1LossBackwardGetWorkspaceSize(const aclTensor* gradOut, const aclTensor* self,
                                                      const aclTensor* target, int64_t reduction, float beta,
                                                      aclTensor* gradInput, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
    using namespace aclnn_cpu;
    namespace checks = validation::checks;
    return engine::GuardCBoundary(kGradientRow.phase1_name, [&]() -> aclnnStatus {
        engine::ElementwiseRequest request =
            ops::RequestFor(kGradientRow, {gradOut, self, target}, gradInput, workspaceSize, executor);
        request.validation.broadcast_message = "Broadcast %s and %s failed.";
        request.validation.out_shape_message =
            "Exepected tensor for result to have same size as tensor for gradInput, but %s does not equal %s.";
        request.validation.steps = {
            checks::NullTensors(),
            checks::DtypesInList({0, 1, 2, checks::kOut}),
            checks::Custom([=] { return CheckLargestRank(gradOut, self, target); }),
            checks::ReductionInRange(reduction, "Reduction should be between 0 and 2, but got %lld"),
            checks::Custom([=] { return ops::smooth_l1_loss::CheckBeta(kGradientRow.phase1_name, beta); }),
            checks::PromotedDtypeInList({0, 1, 2}, "promote dtype %s should be in dtype support list [%s]."),
            checks::PromotedCastableToOut({0, 1, 2}),
            checks::Layouts(),
            checks::Broadcast(),
            checks::OutShape(false),
            checks::OutDoesNotOverlapItself(),
        };
        request.describe = [reduction, beta, gradOut, self](const validation::ValidatedOperation&) {
            engine::ElementwiseDescription description;
            const bool edges = engine::ViewElementCount(*gradOut) == 1;
            description.choose_kernel = edges ? &ops::smooth_l1_loss::ChooseGradientWithEdgesKernel
                                              : &ops::smooth_l1_loss::ChooseGradientKernel;
            const int64_t n = engine::ViewElementCount(*self);
            const float mean_coefficient =
                reduction == 1 && n > 0 ? static_cast<float>(1.0f / static_cast<double>(n)) : 1.0f;
            description.parameters =
                kernels::FunctorParameters::Of(ops::smooth_l1_loss::GradientParametersOf(beta, mean_coefficient));
            return description;
        };
        return engine::PlanElementwiseOperator(request);
    });
}

aclnnStatus aclnnSmoothL1LossBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                      aclrtStream stream) {
    return aclnn_cpu::ops::Run(kGradientRow, workspace, workspaceSize, executor, stream);
}

}  // extern "C"

#endif  // HWY_ONCE
