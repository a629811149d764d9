// The kernel chooser of aclnnSoftMarginLossBackward (its functor is in the .cpp, for every SIMD target).
#pragma once

#include "kernels/tile_kernel.h"

namespace aclnn_cpu::ops::soft_margin_loss_backward {

kernels::TileKernel ChooseTileKernel(const kernels::KernelConfig& config, bool fusable);

}  // namespace aclnn_cpu::ops::soft_margin_loss_backward
