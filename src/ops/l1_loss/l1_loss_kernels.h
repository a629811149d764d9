// The kernel choosers of aclnnL1Loss and aclnnL1LossBackward (their functors are in the .cpp, for every SIMD
// target).
#pragma once

#include "kernels/tile_kernel.h"

namespace aclnn_cpu::ops::l1_loss {

// |self - target|.
kernels::TileKernel ChooseLossKernel(const kernels::KernelConfig& config, bool fusable);
// sign(self - target) * (gradOutput * norm), norm the engine's pre-scale of gradOutput.
kernels::TileKernel ChooseGradientKernel(const kernels::KernelConfig& config, bool fusable);
// |self - target| in int64 (inputs[0] self, inputs[1] target): CANN's Sub then Abs, wrapping.
void IntegerLoss(const int64_t* const* inputs, int64_t count, int64_t* results);

}  // namespace aclnn_cpu::ops::l1_loss
