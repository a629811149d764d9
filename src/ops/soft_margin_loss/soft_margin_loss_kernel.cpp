// The SIMD kernel of aclnnSoftMarginLoss: its functor (soft_margin_loss_functor-inl.h) in the engine's tile
// loops (elementwise for reduction none, summed for mean and sum), compiled once per SIMD target and chosen at
// run time.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/soft_margin_loss/soft_margin_loss_kernel.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "hwy/highway.h"
#include "kernels/elementwise_tiles-inl.h"
#include "ops/soft_margin_loss/soft_margin_loss_functor-inl.h"
#include "ops/soft_margin_loss/soft_margin_loss_kernel.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::ops::soft_margin_loss::HWY_NAMESPACE {

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
