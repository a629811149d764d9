// The kernel choosers of aclnnBinaryCrossEntropy and its backward (the functors are in the .cpp, for every SIMD
// target). Both read every input: an absent weight as ones (the engine binds them).
#pragma once

#include "kernels/tile_kernel.h"

namespace aclnn_cpu::ops::binary_cross_entropy {

// The loss of each element, times the ScaleParameters' scale (the mean's 1/N, which CANN applies to every
// element before summing; 1 otherwise): self, target, weight.
kernels::TileKernel ChooseLossKernel(const kernels::KernelConfig& config, bool fusable);
// The gradient: gradOutput, self, target, weight; the ScaleParameters' scale is the mean's coefficient.
kernels::TileKernel ChooseGradientKernel(const kernels::KernelConfig& config, bool fusable);

}  // namespace aclnn_cpu::ops::binary_cross_entropy
