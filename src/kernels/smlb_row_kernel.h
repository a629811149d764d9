// Row kernels of aclnnSoftMarginLossBackward: compute n elements of out from gradOutput, self and target,
// each operand with its own dtype and byte stride (0 for a broadcast operand).
#pragma once

#include <array>
#include <cstdint>

#include "common/export.h"
#include "engine/iteration_shape.h"
#include "kernels/element_types.h"

namespace aclnn_cpu::kernels {

// Operand slots, shared by the plan and the kernels.
enum Operand : int { kGradOutput = 0, kSelf = 1, kTarget = 2, kOut = 3 };

struct SmlbTypes {
    std::array<ElementType, 4> operand;  // indexed by Operand
    ElementType promote;                 // the type the result is rounded to before conversion to out's
};

// The portable reference kernel: one element at a time through the scalar helpers and libm's expf. The
// operator runs the SIMD kernel (smlb_simd.h); this one is kept as the benchmark's scalar baseline.
ACLNN_CPU_INTERNAL void SmlbRowScalar(const SmlbTypes& types, float cof, const engine::OperandPointers& pointers,
                   const std::array<int64_t, 4>& byte_strides, int64_t n);

// Copies n elements of element_size bytes from src (stride src_stride) to dst (stride dst_stride).
void CopyRow(char* dst, int64_t dst_stride, const char* src, int64_t src_stride, int64_t element_size, int64_t n);

}  // namespace aclnn_cpu::kernels
