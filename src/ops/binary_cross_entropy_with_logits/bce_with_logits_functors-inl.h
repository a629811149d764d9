// The functors of the binary cross-entropy losses on logits: CANN's arch35 DAGs (ops-nn
// loss/sigmoid_cross_entropy_with_logits_v2, loss/sigmoid_cross_entropy_with_logits_grad_v2) evaluated to their
// true value, for the engine's tile loops (binary_cross_entropy_with_logits.cpp) and the exhaustive check of their
// arithmetic (tests/exhaustive), compiled once per SIMD target.

// Include guard toggled per target, as Highway's per-target headers require.
#if defined(ACLNN_CPU_OPS_BCE_WITH_LOGITS_FUNCTORS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLNN_CPU_OPS_BCE_WITH_LOGITS_FUNCTORS_INL_H_
#undef ACLNN_CPU_OPS_BCE_WITH_LOGITS_FUNCTORS_INL_H_
#else
#define ACLNN_CPU_OPS_BCE_WITH_LOGITS_FUNCTORS_INL_H_
#endif

#include "hwy/highway.h"
#include "kernels/float64_evaluation-inl.h"
#include "kernels/mask_test-inl.h"
#include "kernels/tile_kernel.h"
#include "kernels/vector_exp-inl.h"
#include "kernels/vector_nan-inl.h"
#include "kernels/vector_softplus-inl.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::ops::binary_cross_entropy_with_logits::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The bound on |x| for e^-|x| in float64 (kernels::ExpOfModerate's range): past it, e^-|x| times any product of
// fp32 weights (at most 2^256) is below fp32's smallest subnormal, as it is at 700.
constexpr double kLargestExponent = 700.0;

// e^-|x| in float64, |x| clamped to kLargestExponent.
template <class DD>
HWY_INLINE hn::Vec<DD> ExpOfMinusMagnitude(DD dd, hn::Vec<DD> x) {
    return kernels::HWY_NAMESPACE::ExpOfModerate(dd, hn::Neg(hn::Min(hn::Abs(x), hn::Set(dd, kLargestExponent))));
}

// CANN's DAG for the loss: ls = min(x, 0) - log1p(exp(-|x|)) (log sigmoid(x)); lw = (pw - 1) * y + 1; then
// ((1 - y) * x - ls * lw) * weight, each step in fp32. For x < 0 its two leading terms cancel: (1 - y) x and
// -lw min(x, 0) are of opposite signs and nearly equal, and the fp32 sum loses the small loss (109 ulp at x = -5,
// y = 0; 0 against 2e-9 at x = -20). So the kernel evaluates the same value rearranged, equal in exact arithmetic:
// with L = log1p(exp(-|x|)), a = 1 - y for x >= 0, pw * y for x < 0, and lw = (1 - y) + pw * y,
//     loss = (a * |x| + lw * L) * weight,
// where for y in [0, 1] and pw >= 0 every term is non-negative and nothing cancels (docs/compatibility.md, "The
// logits losses' true value"). L is log1p(exp(-|x|)) in one piece (kernels/vector_softplus-inl.h), as
// aclnnSoftMarginLoss computes it. Without weights (the instance for a call with neither weight nor posWeight)
// the loss is one fp32 multiply-add, a * |x| + L. With them, L's own error (1.3 ulp of L at most) scaled by
// w * lw would stray past 2 ulp of the loss, so L is refined and the products formed in float64, and rounded
// once. Lanes whose result is not finite (a non-finite input, an overflow) take the DAG's own order, which
// decides the special values as the NPU does: an infinite x or y; a posWeight of ones where none is given
// ((1 - 1) * y is NaN for an infinite y).
template <bool kWeighted>
struct BinaryCrossEntropyWithLogits {
    static constexpr int kInputs = 4;  // self, target, weight, posWeight
    static constexpr int kScaledInput = -1;
    static constexpr bool kOutTypeIsInputType = true;  // out's dtype is target's (the op_api's check)


    template <class D>
    HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> x, hn::Vec<D> y, hn::Vec<D> weight, hn::Vec<D> pos) const {
        const auto one = hn::Set(d, 1.0f);
        const auto magnitude = hn::Abs(x);
        const auto softplus = kernels::HWY_NAMESPACE::SoftplusOfMinusMagnitude(d, magnitude);
        hn::Vec<D> loss;
        if constexpr (kWeighted) {
            loss = kernels::HWY_NAMESPACE::EvaluateInFloat64(
                d, [](auto dd, auto... widened) { return WeightedLoss(dd, widened...); }, x, y, weight, pos, softplus);
        } else {
            loss = hn::MulAdd(hn::IfThenElse(hn::Lt(x, hn::Zero(d)), y, hn::Sub(one, y)), magnitude, softplus);
        }
        const auto finite = hn::IsFinite(loss);
        if (HWY_LIKELY(kernels::HWY_NAMESPACE::AllLanesTrue(d, finite))) return loss;
        // The DAG's order, for the lanes above (weight and posWeight are ones where none is given).
        const auto log_sigmoid = hn::Sub(kernels::HWY_NAMESPACE::MinPassingNaN(d, hn::Zero(d), x), softplus);
        const auto log_weight = hn::Add(hn::Mul(hn::Sub(pos, one), y), one);
        const auto in_dag_order =
            hn::Mul(hn::Sub(hn::Mul(hn::Sub(one, y), x), hn::Mul(log_sigmoid, log_weight)), weight);
        return hn::IfThenElse(finite, loss, in_dag_order);
    }

    // With weights: lw, a, L and the products in float64. L from the fp32 table's value by one Newton step on
    // exp: with F = e^-L, q = (1 + E) F - 1 = E F + (F - 1) (exact: F is in (1/2, 1]) and L + log1p(q) is
    // L + q - q^2 / 2 to float64's precision; where E = e^-|x| is below 2^-26, L is E - E^2 / 2.
    template <class DD>
    static HWY_INLINE hn::Vec<DD> WeightedLoss(DD dd, hn::Vec<DD> x, hn::Vec<DD> y, hn::Vec<DD> w, hn::Vec<DD> pw,
                                               hn::Vec<DD> table_softplus) {
        namespace k = kernels::HWY_NAMESPACE;
        const auto one = hn::Set(dd, 1.0);
        const auto half = hn::Set(dd, 0.5);
        const auto e = ExpOfMinusMagnitude(dd, x);
        const auto f = k::ExpOfModerate(dd, hn::Neg(table_softplus));
        const auto q = hn::MulAdd(e, f, hn::Sub(f, one));
        const auto refined = hn::Add(table_softplus, hn::Mul(q, hn::NegMulAdd(q, half, one)));
        const auto series = hn::Mul(e, hn::NegMulAdd(e, half, one));
        const auto softplus = hn::IfThenElse(hn::Lt(e, hn::Set(dd, 0x1p-26)), series, refined);
        const auto complement = hn::Sub(one, y);
        const auto weighted_y = hn::Mul(pw, y);
        const auto linear = hn::IfThenElse(hn::Lt(x, hn::Zero(dd)), weighted_y, complement);
        return hn::Mul(w, hn::MulAdd(linear, hn::Abs(x), hn::Mul(hn::Add(complement, weighted_y), softplus)));
    }
};

// CANN's DAG for the gradient: s = 1 / (exp(-x) + 1); p = pw * y; ((p + 1) - y) * s - p, times gradOutput, times
// weight, times the mean's coefficient. Its slope is a difference that cancels: for y = 1 it is s - 1 (5,740 ulp off at
// x = 10 in fp32, 0 at x = 20), and for a soft label it vanishes where (1 - y) s(x) meets p s(-x). The kernel evaluates
// the same value rearranged: with E = e^-|x| <= 1,
//     slope = ((1 - y) - p E) / (1 + E) for x >= 0,   ((1 - y) E - p) / (1 + E) for x < 0
// (the second is the first's numerator and denominator times e^x), in float64 (kernels/float64_evaluation-inl.h) with
// the products of gradOutput, weight and the coefficient, rounded once: a hard label has no cancellation left, and a
// soft one keeps the float64 precision its near-zero slope needs. |x| is clamped to 700, float64's range for e^-|x|:
// beyond it e^-|x| times the largest product of fp32 factors still rounds to 0 in fp32. The instance for a call without
// weights widens neither. Lanes whose result is not finite, or whose x is not, take the DAG's own order in fp32 (the
// NPU's special values: an infinite y gives NaN).
template <bool kWeighted>
struct BinaryCrossEntropyWithLogitsGrad {
    static constexpr int kInputs = 5;  // gradOutput, self, target, weight, posWeight
    static constexpr int kScaledInput = -1;
    static constexpr bool kOutTypeIsInputType = true;  // out's dtype is target's (the op_api's check)

    using Parameters = kernels::ScaleParameters;
    explicit BinaryCrossEntropyWithLogitsGrad(const Parameters& parameters) : mean_coefficient(parameters.scale) {}

    template <class D>
    HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> g, hn::Vec<D> x, hn::Vec<D> y, hn::Vec<D> weight,
                                     hn::Vec<D> pos) const {
        const double coefficient = mean_coefficient;
        hn::Vec<D> gradient;
        if constexpr (kWeighted) {
            gradient = kernels::HWY_NAMESPACE::EvaluateInFloat64(
                d,
                [coefficient](auto dd, auto g64, auto x64, auto y64, auto w64, auto p64) {
                    return ScaledSlope(dd, hn::Mul(hn::Mul(g64, w64), hn::Set(dd, coefficient)), x64, y64,
                                       hn::Mul(p64, y64));
                },
                g, x, y, weight, pos);
        } else {
            gradient = kernels::HWY_NAMESPACE::EvaluateInFloat64(
                d,
                [coefficient](auto dd, auto g64, auto x64, auto y64) {
                    return ScaledSlope(dd, hn::Mul(g64, hn::Set(dd, coefficient)), x64, y64, y64);
                },
                g, x, y);
        }
        const auto usable = hn::IsFinite(hn::Add(gradient, hn::Sub(x, x)));
        if (HWY_LIKELY(kernels::HWY_NAMESPACE::AllLanesTrue(d, usable))) return gradient;
        // The DAG's order, for the lanes above (weight and posWeight are ones where none is given).
        const auto one = hn::Set(d, 1.0f);
        const auto weighted_y = hn::Mul(pos, y);
        const auto sigmoid = hn::Div(one, hn::Add(kernels::HWY_NAMESPACE::VectorExp(d, hn::Neg(x)), one));
        const auto slope = hn::Sub(hn::Mul(hn::Sub(hn::Add(weighted_y, one), y), sigmoid), weighted_y);
        const auto in_dag_order = hn::Mul(hn::Mul(hn::Mul(slope, g), weight), hn::Set(d, mean_coefficient));
        return hn::IfThenElse(usable, gradient, in_dag_order);
    }

    // factor * slope in float64.
    template <class DD>
    static HWY_INLINE hn::Vec<DD> ScaledSlope(DD dd, hn::Vec<DD> factor, hn::Vec<DD> x, hn::Vec<DD> y,
                                              hn::Vec<DD> weighted_y) {
        const auto one = hn::Set(dd, 1.0);
        const auto e = ExpOfMinusMagnitude(dd, x);
        const auto complement = hn::Sub(one, y);
        const auto numerator = hn::IfThenElse(hn::Lt(x, hn::Zero(dd)), hn::MulSub(complement, e, weighted_y),
                                              hn::NegMulAdd(weighted_y, e, complement));
        return hn::Div(hn::Mul(factor, numerator), hn::Add(one, e));
    }

    float mean_coefficient;
};

}  // namespace aclnn_cpu::ops::binary_cross_entropy_with_logits::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // include guard
