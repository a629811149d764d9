// The kernel choosers of aclnnBinaryCrossEntropy and its backward, with and without a weight (the functors are
// in the .cpp, for every SIMD target).
#pragma once

#include "kernels/tile_kernel.h"

namespace aclnn_cpu::ops::binary_cross_entropy {

// The loss of each element, times parameter 0 (the mean's 1/N, which CANN applies to every element before
// summing; 1 otherwise): self, target[, weight].
kernels::TileKernelChooser LossKernelChooser(bool weighted);
// The gradient: gradOutput, self, target[, weight]; parameter 0 is the mean's coefficient.
kernels::TileKernelChooser GradientKernelChooser(bool weighted);

}  // namespace aclnn_cpu::ops::binary_cross_entropy
