// The SIMD arithmetic of aclnnSoftMarginLossBackward: one functor for the engine's tile loops, compiled once
// per SIMD target and chosen at run time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/soft_margin_loss_backward/soft_margin_loss_backward_kernel.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "hwy/highway.h"
#include "kernels/elementwise_tiles-inl.h"
#include "kernels/vector_exp-inl.h"
#include "ops/soft_margin_loss_backward/soft_margin_loss_backward_kernel.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::ops::soft_margin_loss_backward::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// CANN's kernel, in its order: p = x*y; e = exp(-p); q = (-y*e) / (e+1); r = q * gs, where gs = g*cof is
// gradOutput after the engine's pre-scale (cof = 1/N for mean). -p is formed as x * (-y), which rounds to
// exactly -(x*y), so -y is computed once. exp is the project's VectorExp (kernels/vector_exp-inl.h): NaN
// stays NaN, and where exp overflows e = +inf makes the quotient NaN, as on the NPU.
struct SoftMarginLossGrad {
    static constexpr int kInputs = 3;       // gradOutput, self, target
    static constexpr int kScaledInput = 0;  // gradOutput, times 1/N for mean

    template <class D>
    HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> gs, hn::Vec<D> x, hn::Vec<D> y) const {
        const auto minus_y = hn::Neg(y);
        const auto e = kernels::HWY_NAMESPACE::VectorExp(d, hn::Mul(x, minus_y));
        const auto q = hn::Div(hn::Mul(minus_y, e), hn::Add(e, hn::Set(d, 1.0f)));
        return hn::Mul(q, gs);
    }
};

kernels::TileKernel ChooseKernel(const kernels::KernelConfig& config, bool fusable) {
    return kernels::HWY_NAMESPACE::ChooseTileKernel<SoftMarginLossGrad>(config, fusable);
}

}  // namespace aclnn_cpu::ops::soft_margin_loss_backward::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace aclnn_cpu::ops::soft_margin_loss_backward {

HWY_EXPORT(ChooseKernel);

kernels::TileKernel ChooseTileKernel(const kernels::KernelConfig& config, bool fusable) {
    return HWY_DYNAMIC_DISPATCH(ChooseKernel)(config, fusable);
}

}  // namespace aclnn_cpu::ops::soft_margin_loss_backward
#endif  // HWY_ONCE
