// The iteration engine's plan for an elementwise operation over up to four operands (inputs first, the
// output last), in the manner of PyTorch's TensorIterator: broadcast dims get stride 0, dims of size 1 are
// dropped, dims are ordered by the output's strides (largest outermost) and adjacent dims that are
// contiguous for every operand are merged. Built once in phase 1; phase 2 only walks it.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "kernels/tile.h"

namespace aclnn_cpu::engine {

// The tile geometry is the kernels' (kernels/tile.h); the engine builds tiles of it.
using kernels::kMaxOperands;
using kernels::OperandPointers;
using kernels::Tile;
constexpr int kMaxDims = 8;

struct IterationShape {
    int ndim = 1;                                        // >= 1; the last dim is the inner loop
    std::array<int64_t, kMaxDims> sizes{};               // sizes[ndim - 1] is the inner length
    std::array<std::array<int64_t, kMaxDims>, kMaxOperands> byte_strides{};  // per operand, per dim
    int64_t numel = 0;

    int64_t inner_stride(int operand) const { return byte_strides[operand][ndim - 1]; }
};

// shape: the broadcast shape. element_strides[k]: operand k's strides in elements, one per dim of shape
// (0 on broadcast dims). element_sizes[k]: bytes per element of operand k. order_by: the operand whose strides
// choose the loop order (the output). All strides must be non-negative.
IterationShape BuildIterationShape(const std::vector<int64_t>& shape,
                                   const std::array<std::vector<int64_t>, kMaxOperands>& element_strides,
                                   const std::array<int64_t, kMaxOperands>& element_sizes, int order_by);

// Strides, in bytes, of a dense buffer laid out in iteration order (inner dim fastest).
std::array<int64_t, kMaxDims> DenseByteStrides(const IterationShape& shape, int64_t element_size);

}  // namespace aclnn_cpu::engine
