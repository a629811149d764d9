// The SIMD arithmetic of the MSE losses: CANN's arch35 kernels (ops-nn loss/mse_loss, loss/mse_loss_grad) as
// functors for the engine's tile loops, compiled once per SIMD target and chosen at run time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/mse_loss/mse_loss_kernels.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "hwy/highway.h"
#include "kernels/elementwise_tiles-inl.h"
#include "ops/mse_loss/mse_loss_kernels.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::ops::mse_loss::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// d = self - target; d * d (a Sub and a Mul of d by itself, as the DAG does).
struct MseLoss {
    static constexpr int kInputs = 2;  // self, target
    static constexpr int kScaledInput = -1;
    static constexpr bool kNonNegativeResults = true;  // a square, or NaN

    template <class D>
    HWY_INLINE hn::Vec<D> operator()(D, hn::Vec<D> x, hn::Vec<D> y) const {
        const auto d = hn::Sub(x, y);
        return hn::Mul(d, d);
    }
};

// ((self - target) * cof) * gradOutput: Sub, Muls(cof), Mul(dout), in that order; cof = 2, or 2/numel(self)
// for mean, set in phase 1.
struct MseLossGrad {
    static constexpr int kInputs = 3;  // gradOutput, self, target
    static constexpr int kScaledInput = -1;

    using Parameters = kernels::ScaleParameters;
    explicit MseLossGrad(const Parameters& parameters) : cof(parameters.scale) {}

    template <class D>
    HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> g, hn::Vec<D> x, hn::Vec<D> y) const {
        return hn::Mul(hn::Mul(hn::Sub(x, y), hn::Set(d, cof)), g);
    }

    float cof;
};

kernels::TileKernel ChooseLoss(const kernels::KernelConfig& config, bool fusable) {
    return kernels::HWY_NAMESPACE::ChooseTileKernel<MseLoss>(config, fusable);
}
kernels::TileKernel ChooseGradient(const kernels::KernelConfig& config, bool fusable) {
    return kernels::HWY_NAMESPACE::ChooseTileKernel<MseLossGrad>(config, fusable);
}
kernels::ColumnSumKernel ChooseLossColumnSums(const kernels::KernelConfig& config, bool fusable) {
    return kernels::HWY_NAMESPACE::ChooseColumnSumKernel<MseLoss>(config, fusable);
}

}  // namespace aclnn_cpu::ops::mse_loss::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace aclnn_cpu::ops::mse_loss {

HWY_EXPORT(ChooseLoss);
HWY_EXPORT(ChooseGradient);
HWY_EXPORT(ChooseLossColumnSums);

kernels::TileKernel ChooseLossKernel(const kernels::KernelConfig& config, bool fusable) {
    return HWY_DYNAMIC_DISPATCH(ChooseLoss)(config, fusable);
}
kernels::TileKernel ChooseGradientKernel(const kernels::KernelConfig& config, bool fusable) {
    return HWY_DYNAMIC_DISPATCH(ChooseGradient)(config, fusable);
}
kernels::ColumnSumKernel ChooseLossColumnSumKernel(const kernels::KernelConfig& config, bool fusable) {
    return HWY_DYNAMIC_DISPATCH(ChooseLossColumnSums)(config, fusable);
}

}  // namespace aclnn_cpu::ops::mse_loss
#endif  // HWY_ONCE
