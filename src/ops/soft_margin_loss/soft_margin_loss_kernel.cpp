// The SIMD arithmetic of aclnnSoftMarginLoss: one functor for the engine's tile loops (elementwise for
// reduction none, summed for mean and sum), compiled once per SIMD target and chosen at run time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/soft_margin_loss/soft_margin_loss_kernel.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "hwy/highway.h"
#include "kernels/elementwise_tiles-inl.h"
#include "kernels/vector_exp-inl.h"
#include "kernels/vector_log1p-inl.h"
#include "kernels/vector_nan-inl.h"
#include "ops/soft_margin_loss/soft_margin_loss_kernel.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::ops::soft_margin_loss::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// CANN's arch35 order: t = target*self; L = max(-t, 0) + log(1 + exp(-|t|)). The logarithm is evaluated as
// log1p(e) rather than log of the rounded e + 1: the same formula, but small losses (t above ~8, where
// e + 1 rounds away most of e) keep fp32 precision instead of collapsing to 0 (docs/compatibility.md).
// exp and log1p are the project's (kernels/vector_exp-inl.h, kernels/vector_log1p-inl.h): exp within 1 ulp,
// log1p within 1 ulp on FMA targets and 2 ulp on the others.
// max(-t, 0) is added as log1p - min(0, t): the same bits (negation is exact, and a + b = a - (-b) in IEEE
// arithmetic) one negation fewer; -|t| is t with its sign bit set, one instruction.
// A NaN t must give NaN: min(0, t) passes it through (kernels/vector_nan-inl.h: free on x86) and the
// subtraction keeps it NaN, whatever log1p gave. inf inputs follow the formula (t = +inf: 0; t = -inf: +inf;
// 0 * inf: NaN).
struct SoftMarginLoss {
    static constexpr int kInputs = 2;        // self, target
    static constexpr int kScaledInput = -1;  // none: mean divides the sum, not an input

    template <class D>
    HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> x, hn::Vec<D> y) const {
        const auto t = hn::Mul(y, x);
        const auto minus_magnitude = hn::Or(t, hn::SignBit(d));
        const auto e = kernels::HWY_NAMESPACE::VectorExp(d, minus_magnitude);  // in [0, 1]: no overflow
        const auto log1p = kernels::HWY_NAMESPACE::Log1pOfUnitInterval(d, e);
        return hn::Sub(log1p, kernels::HWY_NAMESPACE::MinPassingNaN(d, hn::Zero(d), t));
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
