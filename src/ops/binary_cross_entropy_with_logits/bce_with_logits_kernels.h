// The kernel choosers of aclnnBinaryCrossEntropyWithLogits and its backward, one per combination of the
// optional inputs given (the functors are in the .cpp, for every SIMD target).
#pragma once

#include "kernels/tile_kernel.h"

namespace aclnn_cpu::ops::binary_cross_entropy_with_logits {

// Which of weightOptional and posWeightOptional a call gives: the kernel reads only those, after the required
// inputs, weight first.
struct OptionalInputs {
    bool weight = false;
    bool pos_weight = false;
};

// The loss of each element: self, target[, weight][, posWeight].
kernels::TileKernelChooser LossKernelChooser(OptionalInputs given);
// The gradient: gradOutput, self, target[, weight][, posWeight]; parameter 0 is the mean's coefficient.
kernels::TileKernelChooser GradientKernelChooser(OptionalInputs given);

}  // namespace aclnn_cpu::ops::binary_cross_entropy_with_logits
