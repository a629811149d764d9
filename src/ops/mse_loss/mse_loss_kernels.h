// The kernel choosers of aclnnMseLoss, aclnnMseLossOut and aclnnMseLossBackward (their functors are in the
// .cpp, for every SIMD target).
#pragma once

#include "kernels/tile_kernel.h"

namespace aclnn_cpu::ops::mse_loss {

// (self - target)^2.
kernels::TileKernel ChooseLossKernel(const kernels::KernelConfig& config, bool fusable);
// (self - target)^2 added to its column's sum (aclnnMseLossOut's mean and sum), or nullptr (kernels/tile_kernel.h).
kernels::ColumnSumKernel ChooseLossColumnSumKernel(const kernels::KernelConfig& config, bool fusable);
// ((self - target) * cof) * gradOutput, cof the ScaleParameters' scale.
kernels::TileKernel ChooseGradientKernel(const kernels::KernelConfig& config, bool fusable);

}  // namespace aclnn_cpu::ops::mse_loss
