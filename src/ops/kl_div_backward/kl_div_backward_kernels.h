// The kernel choosers of aclnnKlDivBackward (its functors are in the .cpp, for every SIMD target).
#pragma once

#include "kernels/tile_kernel.h"

namespace aclnn_cpu::ops::kl_div_backward {

// -(target * gradOutput) * cof, or with log_target -(exp(target) * gradOutput) * cof; inputs gradOutput and
// target (self, which the gradient does not depend on, is not read); cof is the ScaleParameters' scale.
kernels::TileKernelChooser GradientKernelChooser(bool log_target);
// The same added into column sums where target enlarges self's shape (engine sum_back), or nullptr.
kernels::ColumnSumKernelChooser GradientColumnSumKernelChooser(bool log_target);

}  // namespace aclnn_cpu::ops::kl_div_backward
