// The per-element arithmetic of aclnnSoftMarginLoss, as a functor for the engine's tile loops. A header of its
// own so that tests/exhaustive/exhaustive_math.cpp checks the very code the operator runs, on every fp32 t.
// Included inside each target's namespace pass (Highway's foreach_target).

// Include guard toggled per target, as Highway's per-target headers require.
#if defined(ACLNN_CPU_OPS_SOFT_MARGIN_LOSS_FUNCTOR_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLNN_CPU_OPS_SOFT_MARGIN_LOSS_FUNCTOR_INL_H_
#undef ACLNN_CPU_OPS_SOFT_MARGIN_LOSS_FUNCTOR_INL_H_
#else
#define ACLNN_CPU_OPS_SOFT_MARGIN_LOSS_FUNCTOR_INL_H_
#endif

#include "hwy/highway.h"
#include "kernels/vector_nan-inl.h"
#include "kernels/vector_softplus-inl.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::ops::soft_margin_loss::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// CANN's arch35 order: t = target*self; L = max(-t, 0) + log(1 + exp(-|t|)). The logarithm term is
// log1p(exp(-|t|)) evaluated in one piece (kernels/vector_softplus-inl.h) rather than log of the rounded
// e + 1: the same formula, but small losses (t above ~8, where e + 1 rounds away most of e) keep fp32
// precision instead of collapsing to 0 (docs/compatibility.md).
// max(-t, 0) is added as softplus - min(0, t): the same bits (negation is exact, and a + b = a - (-b) in IEEE
// arithmetic) one negation fewer.
// A NaN t must give NaN: min(0, t) passes it through (kernels/vector_nan-inl.h: free on x86) and the
// subtraction keeps it NaN. inf inputs follow the formula (t = +inf: 0; t = -inf: +inf; 0 * inf: NaN).
struct SoftMarginLoss {
    static constexpr int kInputs = 2;        // self, target
    static constexpr int kScaledInput = -1;  // none: mean divides the sum, not an input
    // Every loss is >= +0 or NaN (softplus >= +0, minus min(0, t) <= +0): its sums widen by moving bits
    // (kernels/sum_accumulation-inl.h, Widening::kScaledBits).
    static constexpr bool kNonNegativeResults = true;

    // The loss of one product t = target * self.
    template <class D>
    static HWY_INLINE hn::Vec<D> OfProduct(D d, hn::Vec<D> t) {
        const auto softplus = kernels::HWY_NAMESPACE::SoftplusOfMinusMagnitude(d, hn::Abs(t));
        return hn::Sub(softplus, kernels::HWY_NAMESPACE::MinPassingNaN(d, hn::Zero(d), t));
    }

    template <class D>
    HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> x, hn::Vec<D> y) const {
        return OfProduct(d, hn::Mul(y, x));
    }
};

}  // namespace aclnn_cpu::ops::soft_margin_loss::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // include guard
