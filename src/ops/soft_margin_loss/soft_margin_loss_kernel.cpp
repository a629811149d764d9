// The SIMD arithmetic of aclnnSoftMarginLoss: one functor for the engine's tile loops (elementwise for
// reduction none, summed for mean and sum), compiled once per SIMD target and chosen at run time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/soft_margin_loss/soft_margin_loss_kernel.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "hwy/contrib/math/math-inl.h"
#include "hwy/highway.h"
#include "kernels/elementwise_tiles-inl.h"
#include "kernels/vector_exp-inl.h"
#include "ops/soft_margin_loss/soft_margin_loss_kernel.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::ops::soft_margin_loss::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// CANN's arch35 order: t = target*self; L = max(-t, 0) + log(1 + exp(-|t|)). The logarithm is evaluated as
// log1p(e) rather than log of the rounded e + 1: the same formula, but small losses (t above ~8, where
// e + 1 rounds away most of e) keep fp32 precision instead of collapsing to 0 (docs/compatibility.md).
// exp is the project's VectorExp; Max drops a NaN on x86, so a NaN t is passed through explicitly; inf
// inputs follow the formula (t = +inf: 0; t = -inf: +inf; 0 * inf: NaN).
struct SoftMarginLoss {
    static constexpr int kInputs = 2;        // self, target
    static constexpr int kScaledInput = -1;  // none: mean divides the sum, not an input

    template <class D>
    HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> x, hn::Vec<D> y) const {
        const auto t = hn::Mul(y, x);
        const auto e = kernels::HWY_NAMESPACE::VectorExp(d, hn::Neg(hn::Abs(t)));  // in [0, 1]: no overflow
        const auto loss = hn::Add(hn::Max(hn::Neg(t), hn::Zero(d)), Log1pOfUnitInterval(d, e));
        return hn::IfThenElse(hn::IsNaN(t), t, loss);
    }

    // log(1 + e) for e in [0, 1], within 3 ulp. Highway's Log1p corrects log(1 + e) for the rounding of 1 + e
    // with a division; here the correction (e - ((1 + e) - 1)) / (1 + e) is at most 2^-24 and needs only a
    // few correct bits, which the approximate reciprocal gives at a fraction of the cost, where log(1 + e) is
    // at least 2^-10 (so the correction's error stays below 2^-26 of the result). Below that, three terms of
    // the series e - e^2/2 + e^3/3 are exact to 2^-30 relative. 1 + e is in [1, 2], never subnormal, so the
    // logarithm skips Highway's subnormal handling (as its own Log1p does).
    template <class D>
    static HWY_INLINE hn::Vec<D> Log1pOfUnitInterval(D d, hn::Vec<D> e) {
        const auto one = hn::Set(d, 1.0f);
        const auto sum = hn::Add(one, e);
        const auto rounding = hn::Sub(e, hn::Sub(sum, one));  // exact: what 1 + e lost
        const auto logarithm = hn::impl::Log<D, hn::Vec<D>, /*kAllowSubnormals=*/false>(d, sum);
        const auto corrected = hn::MulAdd(rounding, hn::ApproximateReciprocal(sum), logarithm);
        const auto cubic = hn::NegMulAdd(e, hn::Set(d, 1.0f / 3.0f), hn::Set(d, 0.5f));  // 1/2 - e/3
        const auto series = hn::Mul(e, hn::NegMulAdd(e, cubic, one));                    // e (1 - e (1/2 - e/3))
        return hn::IfThenElse(hn::Lt(e, hn::Set(d, 0x1p-10f)), series, corrected);
    }
};

kernels::TileKernel ChooseKernel(const kernels::KernelConfig& config, bool fusable) {
    return kernels::HWY_NAMESPACE::ChooseTileKernel<SoftMarginLoss>(config, fusable);
}

}  // namespace aclnn_cpu::ops::soft_margin_loss::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace aclnn_cpu::ops::soft_margin_loss {

HWY_EXPORT(ChooseKernel);

kernels::TileKernel ChooseTileKernel(const kernels::KernelConfig& config, bool fusable) {
    return HWY_DYNAMIC_DISPATCH(ChooseKernel)(config, fusable);
}

}  // namespace aclnn_cpu::ops::soft_margin_loss
#endif  // HWY_ONCE
