// The SIMD arithmetic of the smooth L1 losses: CANN's arch35 DAGs (ops-nn loss/smooth_l1_loss_v2,
// loss/smooth_l1_loss_grad_v2) as functors for the engine's tile loops, compiled once per SIMD target.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/smooth_l1_loss/smooth_l1_loss_kernels.cpp"
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

kernels::TileKernel ChooseLoss(const kernels::KernelConfig& config, bool fusable) {
    return kernels::HWY_NAMESPACE::ChooseTileKernel<SmoothL1Loss>(config, fusable);
}
kernels::TileKernel ChooseGradient(const kernels::KernelConfig& config, bool fusable) {
    return kernels::HWY_NAMESPACE::ChooseTileKernel<SmoothL1LossGrad<false>>(config, fusable);
}
kernels::TileKernel ChooseGradientWithEdges(const kernels::KernelConfig& config, bool fusable) {
    return kernels::HWY_NAMESPACE::ChooseTileKernel<SmoothL1LossGrad<true>>(config, fusable);
}

}  // namespace aclnn_cpu::ops::smooth_l1_loss::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace aclnn_cpu::ops::smooth_l1_loss {

HWY_EXPORT(ChooseLoss);
HWY_EXPORT(ChooseGradient);
HWY_EXPORT(ChooseGradientWithEdges);

// CANN's tiling: the reciprocal is 1 / beta in fp32, or (|beta| < 1e-6) 0 for the loss and NaN for the gradient.
LossParameters LossParametersOf(float beta) {
    return {beta, std::fabs(beta) < 1e-6f ? 0.0f : 1.0f / beta, -0.5f * beta};
}

GradientParameters GradientParametersOf(float beta, float mean_coefficient) {
    return {beta, -1.0f * beta, std::fabs(beta) < 1e-6f ? NAN : 1.0f / beta, mean_coefficient};
}

kernels::TileKernel ChooseLossKernel(const kernels::KernelConfig& config, bool fusable) {
    return HWY_DYNAMIC_DISPATCH(ChooseLoss)(config, fusable);
}
kernels::TileKernel ChooseGradientKernel(const kernels::KernelConfig& config, bool fusable) {
    return HWY_DYNAMIC_DISPATCH(ChooseGradient)(config, fusable);
}
kernels::TileKernel ChooseGradientWithEdgesKernel(const kernels::KernelConfig& config, bool fusable) {
    return HWY_DYNAMIC_DISPATCH(ChooseGradientWithEdges)(config, fusable);
}

}  // namespace aclnn_cpu::ops::smooth_l1_loss
#endif  // HWY_ONCE
