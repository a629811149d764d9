// The SIMD arithmetic of the L1 losses: CANN's arch35 kernels (ops-nn loss/lp_loss with p = 1,
// loss/l1_loss_grad) as functors for the engine's tile loops, compiled once per SIMD target.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/l1_loss/l1_loss_kernels.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "hwy/highway.h"
#include "kernels/elementwise_tiles-inl.h"
#include "ops/l1_loss/l1_loss_kernels.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::ops::l1_loss::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// |self - target|: Sub, then Abs.
struct L1Loss {
    static constexpr int kInputs = 2;  // self, target
    static constexpr int kScaledInput = -1;
    static constexpr bool kNonNegativeResults = true;

    template <class D>
    HWY_INLINE hn::Vec<D> operator()(D, hn::Vec<D> x, hn::Vec<D> y) const {
        return hn::Abs(hn::Sub(x, y));
    }
};

// CANN's DAG: sign = self < target ? -1 : (self > target ? 1 : 0) from two compares -- so 0 where they are
// equal and where either is NaN -- then sign * (gradOutput * norm). The multiply keeps IEEE's signs and NaNs:
// 0 * negative is -0, 0 * inf is NaN. gradOutput * norm is the engine's pre-scale (skipped for norm 1, where it
// is exact).
struct L1LossGrad {
    static constexpr int kInputs = 3;       // gradOutput, self, target
    static constexpr int kScaledInput = 0;  // gradOutput, times norm for mean

    template <class D>
    HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> g, hn::Vec<D> x, hn::Vec<D> y) const {
        const auto positive = hn::IfThenElseZero(hn::Gt(x, y), hn::Set(d, 1.0f));
        const auto sign = hn::IfThenElse(hn::Lt(x, y), hn::Set(d, -1.0f), positive);
        return hn::Mul(sign, g);
    }
};

kernels::TileKernel ChooseLoss(const kernels::KernelConfig& config, bool fusable) {
    return kernels::HWY_NAMESPACE::ChooseTileKernel<L1Loss>(config, fusable);
}
kernels::TileKernel ChooseGradient(const kernels::KernelConfig& config, bool fusable) {
    return kernels::HWY_NAMESPACE::ChooseTileKernel<L1LossGrad>(config, fusable);
}

}  // namespace aclnn_cpu::ops::l1_loss::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace aclnn_cpu::ops::l1_loss {

HWY_EXPORT(ChooseLoss);
HWY_EXPORT(ChooseGradient);

kernels::TileKernel ChooseLossKernel(const kernels::KernelConfig& config, bool fusable) {
    return HWY_DYNAMIC_DISPATCH(ChooseLoss)(config, fusable);
}
kernels::TileKernel ChooseGradientKernel(const kernels::KernelConfig& config, bool fusable) {
    return HWY_DYNAMIC_DISPATCH(ChooseGradient)(config, fusable);
}

void IntegerLoss(const int64_t* const* inputs, int64_t count, int64_t* results) {
    const int64_t* HWY_RESTRICT self = inputs[0];
    const int64_t* HWY_RESTRICT target = inputs[1];
    int64_t* HWY_RESTRICT out = results;
    for (int64_t i = 0; i < count; ++i) {
        // In uint64, where overflow wraps by definition: INT64_MIN - 1 is INT64_MAX, |INT64_MIN| is INT64_MIN.
        // Branch-free (the sign picks by mask), so that the compiler vectorises it and random signs cost nothing.
        const uint64_t difference = static_cast<uint64_t>(self[i]) - static_cast<uint64_t>(target[i]);
        const uint64_t negative = uint64_t{0} - (difference >> 63);
        out[i] = static_cast<int64_t>((difference ^ negative) - negative);
    }
}

}  // namespace aclnn_cpu::ops::l1_loss
#endif  // HWY_ONCE
