// Rows of FLOAT16 and BFLOAT16 values to and from fp32, by vector on the current dispatch target (defined with the
// other shared SIMD helpers in simd_support.cpp): the class rows' reads and writes of 16-bit tensors.
#pragma once

#include <cstdint>

namespace aclnn_cpu::kernels {

// A row of n contiguous FLOAT16 or (bf16) BFLOAT16 values widened to fp32 exactly, and fp32 values narrowed to them,
// to nearest, ties to even (CANN's CAST_RINT), by vector on the current dispatch target.
void WidenRow(const uint16_t* in, bool bf16, int64_t n, float* out);
void NarrowRow(const float* in, bool bf16, int64_t n, uint16_t* out);

}  // namespace aclnn_cpu::kernels
