// The SIMD arithmetic of the binary cross-entropy losses on probabilities: CANN's arch35 DAGs (ops-nn
// loss/binary_cross_entropy, loss/binary_cross_entropy_grad) as functors for the engine's tile loops, one per
// operator, compiled once per SIMD target. An absent weight is read as ones (the engine binds them): v * 1 = v,
// the bits of the formula without it.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/binary_cross_entropy/bce_kernels.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include <cmath>

#include "hwy/highway.h"
#include "kernels/elementwise_tiles-inl.h"
#include "kernels/vector_log-inl.h"
#include "ops/binary_cross_entropy/bce_kernels.h"

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

kernels::TileKernel ChooseLoss(const kernels::KernelConfig& config, bool fusable) {
    return kernels::HWY_NAMESPACE::ChooseTileKernel<BinaryCrossEntropy>(config, fusable);
}
kernels::TileKernel ChooseGradient(const kernels::KernelConfig& config, bool fusable) {
    return kernels::HWY_NAMESPACE::ChooseTileKernel<BinaryCrossEntropyGrad>(config, fusable);
}

}  // namespace aclnn_cpu::ops::binary_cross_entropy::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace aclnn_cpu::ops::binary_cross_entropy {

HWY_EXPORT(ChooseLoss);
HWY_EXPORT(ChooseGradient);

kernels::TileKernel ChooseLossKernel(const kernels::KernelConfig& config, bool fusable) {
    return HWY_DYNAMIC_DISPATCH(ChooseLoss)(config, fusable);
}

kernels::TileKernel ChooseGradientKernel(const kernels::KernelConfig& config, bool fusable) {
    return HWY_DYNAMIC_DISPATCH(ChooseGradient)(config, fusable);
}

}  // namespace aclnn_cpu::ops::binary_cross_entropy
#endif  // HWY_ONCE
