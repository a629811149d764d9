// The SIMD arithmetic of the binary cross-entropy losses on logits: CANN's arch35 DAGs (ops-nn
// loss/sigmoid_cross_entropy_with_logits_v2, loss/sigmoid_cross_entropy_with_logits_grad_v2) as functors for
// the engine's tile loops, one instance per operator, compiled once per SIMD target.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/binary_cross_entropy_with_logits/bce_with_logits_kernels.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "hwy/highway.h"
#include "kernels/elementwise_tiles-inl.h"
#include "kernels/vector_exp-inl.h"
#include "kernels/vector_nan-inl.h"
#include "kernels/vector_softplus-inl.h"
#include "ops/binary_cross_entropy_with_logits/bce_with_logits_kernels.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::ops::binary_cross_entropy_with_logits::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The loss, in the DAG's order: ls = min(x, 0) - log(1 + exp(-|x|)) (log sigmoid(x)); ls = ls * ((pw - 1) * y + 1);
// then (1 - y) * x - ls, times weight. The logarithm term is log1p(exp(-|x|)) in one piece
// (kernels/vector_softplus-inl.h), as aclnnSoftMarginLoss computes it: the same formula, but where exp(-|x|) is
// below fp32's half ulp of 1 the term keeps its value rather than rounding to 0 (docs/compatibility.md). An
// absent weight or posWeight is read as ones (the engine binds them), as CANN's op_api passes: (1 - 1) * y + 1 = 1
// and v * 1 = v exactly, so the bits are those of the formula without it (an infinite y aside: (1 - 1) * y is
// NaN, on the NPU too).
struct BinaryCrossEntropyWithLogits {
    static constexpr int kInputs = 4;  // self, target, weight, posWeight
    static constexpr int kScaledInput = -1;
    static constexpr bool kOutTypeIsInputType = true;  // out's dtype is target's (the op_api's check)

    explicit BinaryCrossEntropyWithLogits(const kernels::FunctorParameters&) {}

    template <class D>
    HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> x, hn::Vec<D> y, hn::Vec<D> weight, hn::Vec<D> pos) const {
        const auto one = hn::Set(d, 1.0f);
        const auto softplus = kernels::HWY_NAMESPACE::SoftplusOfMinusMagnitude(d, hn::Abs(x));
        const auto log_sigmoid = hn::Sub(kernels::HWY_NAMESPACE::MinPassingNaN(d, hn::Zero(d), x), softplus);
        const auto log_weight = hn::Add(hn::Mul(hn::Sub(pos, one), y), one);
        const auto loss = hn::Sub(hn::Mul(hn::Sub(one, y), x), hn::Mul(log_sigmoid, log_weight));
        return hn::Mul(loss, weight);
    }
};

// The gradient, in the DAG's order: s = 1 / (exp(-x) + 1); p = pw * y; ((p + 1) - y) * s - p, times gradOutput,
// times weight, times the mean's coefficient (1 for none and sum: exact). An absent weight or posWeight is read
// as ones, as CANN's op_api passes. exp is the project's VectorExp: NaN stays NaN; exp(-x) = +inf (x below
// about -88.7) makes s = 0.
struct BinaryCrossEntropyWithLogitsGrad {
    static constexpr int kInputs = 5;  // gradOutput, self, target, weight, posWeight
    static constexpr int kScaledInput = -1;
    static constexpr bool kOutTypeIsInputType = true;  // out's dtype is target's (the op_api's check)

    explicit BinaryCrossEntropyWithLogitsGrad(const kernels::FunctorParameters& parameters)
        : mean_coefficient(parameters.values[0]) {}

    template <class D>
    HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> g, hn::Vec<D> x, hn::Vec<D> y, hn::Vec<D> weight,
                                     hn::Vec<D> pos) const {
        const auto one = hn::Set(d, 1.0f);
        const auto weighted_y = hn::Mul(pos, y);
        const auto sigmoid = hn::Div(one, hn::Add(kernels::HWY_NAMESPACE::VectorExp(d, hn::Neg(x)), one));
        const auto slope = hn::Sub(hn::Mul(hn::Sub(hn::Add(weighted_y, one), y), sigmoid), weighted_y);
        return hn::Mul(hn::Mul(hn::Mul(slope, g), weight), hn::Set(d, mean_coefficient));
    }

    float mean_coefficient;
};

kernels::TileKernel ChooseLoss(const kernels::KernelConfig& config, bool fusable) {
    return kernels::HWY_NAMESPACE::ChooseTileKernel<BinaryCrossEntropyWithLogits>(config, fusable);
}
kernels::TileKernel ChooseGradient(const kernels::KernelConfig& config, bool fusable) {
    return kernels::HWY_NAMESPACE::ChooseTileKernel<BinaryCrossEntropyWithLogitsGrad>(config, fusable);
}

}  // namespace aclnn_cpu::ops::binary_cross_entropy_with_logits::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace aclnn_cpu::ops::binary_cross_entropy_with_logits {

HWY_EXPORT(ChooseLoss);
HWY_EXPORT(ChooseGradient);

kernels::TileKernel ChooseLossKernel(const kernels::KernelConfig& config, bool fusable) {
    return HWY_DYNAMIC_DISPATCH(ChooseLoss)(config, fusable);
}

kernels::TileKernel ChooseGradientKernel(const kernels::KernelConfig& config, bool fusable) {
    return HWY_DYNAMIC_DISPATCH(ChooseGradient)(config, fusable);
}

}  // namespace aclnn_cpu::ops::binary_cross_entropy_with_logits
#endif  // HWY_ONCE
