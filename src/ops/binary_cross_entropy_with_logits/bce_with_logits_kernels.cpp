// The kernel choosers of the binary cross-entropy losses on logits: their functors
// (bce_with_logits_functors-inl.h) in the engine's tile loops, an instance with and one without weights per
// operator, compiled once per SIMD target.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/binary_cross_entropy_with_logits/bce_with_logits_kernels.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "hwy/highway.h"
#include "kernels/elementwise_tiles-inl.h"
#include "ops/binary_cross_entropy_with_logits/bce_with_logits_functors-inl.h"
#include "ops/binary_cross_entropy_with_logits/bce_with_logits_kernels.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::ops::binary_cross_entropy_with_logits::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

kernels::TileKernel ChooseLoss(const kernels::KernelConfig& config, bool fusable, bool weighted) {
    return weighted ? kernels::HWY_NAMESPACE::ChooseTileKernel<BinaryCrossEntropyWithLogits<true>>(config, fusable)
                    : kernels::HWY_NAMESPACE::ChooseTileKernel<BinaryCrossEntropyWithLogits<false>>(config, fusable);
}
kernels::TileKernel ChooseGradient(const kernels::KernelConfig& config, bool fusable, bool weighted) {
    return weighted
               ? kernels::HWY_NAMESPACE::ChooseTileKernel<BinaryCrossEntropyWithLogitsGrad<true>>(config, fusable)
               : kernels::HWY_NAMESPACE::ChooseTileKernel<BinaryCrossEntropyWithLogitsGrad<false>>(config, fusable);
}

}  // namespace aclnn_cpu::ops::binary_cross_entropy_with_logits::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace aclnn_cpu::ops::binary_cross_entropy_with_logits {

HWY_EXPORT(ChooseLoss);
HWY_EXPORT(ChooseGradient);

kernels::TileKernel ChooseLossKernel(const kernels::KernelConfig& config, bool fusable) {
    return HWY_DYNAMIC_DISPATCH(ChooseLoss)(config, fusable, false);
}
kernels::TileKernel ChooseWeightedLossKernel(const kernels::KernelConfig& config, bool fusable) {
    return HWY_DYNAMIC_DISPATCH(ChooseLoss)(config, fusable, true);
}
kernels::TileKernel ChooseGradientKernel(const kernels::KernelConfig& config, bool fusable) {
    return HWY_DYNAMIC_DISPATCH(ChooseGradient)(config, fusable, false);
}
kernels::TileKernel ChooseWeightedGradientKernel(const kernels::KernelConfig& config, bool fusable) {
    return HWY_DYNAMIC_DISPATCH(ChooseGradient)(config, fusable, true);
}

}  // namespace aclnn_cpu::ops::binary_cross_entropy_with_logits
#endif  // HWY_ONCE
