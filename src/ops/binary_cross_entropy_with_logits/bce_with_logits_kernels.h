// The kernel choosers of aclnnBinaryCrossEntropyWithLogits and its backward (the functors are in
// bce_with_logits_functors-inl.h, compiled for every SIMD target by the .cpp). Both read every input: an absent weight or posWeight as ones (the engine binds them); the
// plain instances are for a call with neither, and ignore them (the Weighted ones take any).
#pragma once

#include "kernels/tile_kernel.h"

namespace aclnn_cpu::ops::binary_cross_entropy_with_logits {

// The loss of each element: self, target, weight, posWeight.
kernels::TileKernel ChooseLossKernel(const kernels::KernelConfig& config, bool fusable);
kernels::TileKernel ChooseWeightedLossKernel(const kernels::KernelConfig& config, bool fusable);
// The gradient: gradOutput, self, target, weight, posWeight; the ScaleParameters' scale is the mean's
// coefficient.
kernels::TileKernel ChooseGradientKernel(const kernels::KernelConfig& config, bool fusable);
kernels::TileKernel ChooseWeightedGradientKernel(const kernels::KernelConfig& config, bool fusable);

}  // namespace aclnn_cpu::ops::binary_cross_entropy_with_logits
