// What the two parts of smooth_l1_loss.cpp share, its per-target functors and its phase 1s: the functors'
// parameters, which phase 1 derives from beta as CANN's tiling does; beta's check; the kernel choosers.
#pragma once

#include "aclnn/acl_meta.h"
#include "kernels/tile_kernel.h"

namespace aclnn_cpu::ops::smooth_l1_loss {

// The loss's functor's parameters, as CANN's tiling derives them from beta.
struct LossParameters {
    float beta;
    float reciprocal;       // 1 / beta, or 0 for |beta| < 1e-6
    float minus_half_beta;  // -0.5 beta
};
// The gradient's.
struct GradientParameters {
    float beta;
    float minus_beta;
    float reciprocal;        // 1 / beta, or NaN for |beta| < 1e-6
    float mean_coefficient;  // 1 / numel(self) for mean, else 1
};

LossParameters LossParametersOf(float beta);
GradientParameters GradientParametersOf(float beta, float mean_coefficient);

// beta >= 0 (NaN fails): "beta should be greater than or equal to 0", both operators' check (161002).
aclnnStatus CheckBeta(const char* api, float beta);

kernels::TileKernel ChooseLossKernel(const kernels::KernelConfig& config, bool fusable);
kernels::TileKernel ChooseGradientKernel(const kernels::KernelConfig& config, bool fusable);
// Where gradOut has one element: CANN's kernel then compares with >= and <= rather than > and <.
kernels::TileKernel ChooseGradientWithEdgesKernel(const kernels::KernelConfig& config, bool fusable);

}  // namespace aclnn_cpu::ops::smooth_l1_loss
