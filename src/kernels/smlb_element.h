// The arithmetic of aclnnSoftMarginLossBackward for one element, in CANN's kernel order (SPEC section 4):
// every step is an fp32 operation, so an overflowing exp gives inf/inf = NaN exactly as on the NPU.
// Built without -ffast-math and with -ffp-contract=off so the compiler keeps each rounding.
#pragma once

#include <cmath>

namespace aclnn_cpu::kernels {

// x = self, y = target, g = gradOutput, cof = 1/N for mean and 1 otherwise.
inline float SoftMarginLossGradElement(float x, float y, float g, float cof) {
    const float p = x * y;
    const float e = std::exp(-p);
    const float num = (-y) * e;
    const float den = e + 1.0f;
    const float q = num / den;
    const float gs = g * cof;
    return q * gs;
}

}  // namespace aclnn_cpu::kernels
