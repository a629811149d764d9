// The iteration engine's plan for an elementwise operation over up to four operands (inputs first, the
// output last), in the manner of PyTorch's TensorIterator: broadcast dims get stride 0, dims of size 1 are
// dropped, dims are ordered by the output's strides (largest outermost) and adjacent dims that are
// contiguous for every operand are merged. Built once in phase 1; phase 2 only walks it.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace aclnn_cpu::engine {

constexpr int kMaxOperands = 4;
constexpr int kMaxDims = 8;

struct IterationShape {
    int ndim = 1;                                        // >= 1; the last dim is the inner loop
    std::array<int64_t, kMaxDims> sizes{};               // sizes[ndim - 1] is the inner length
    std::array<std::array<int64_t, kMaxDims>, kMaxOperands> byte_strides{};  // per operand, per dim
    int64_t numel = 0;

    int64_t inner_stride(int operand) const { return byte_strides[operand][ndim - 1]; }
};

// Each operand's address of the current element (or row start); nullptr for an unused operand slot.
using OperandPointers = std::array<char*, kMaxOperands>;

// A 2-D piece of the iteration: the two innermost dims, from which a kernel handles a linear range of
// elements. Kernels get whole tiles rather than single rows so that short inner rows (a [N, 64] shape with a
// broadcast [N, 1] operand) do not pay a call per row.
struct Tile {
    OperandPointers origin;                           // each operand's address of tile element (0, 0)
    std::array<int64_t, kMaxOperands> inner_stride;  // bytes between neighbours in a row
    std::array<int64_t, kMaxOperands> outer_stride;  // bytes between rows
    int64_t inner_size;                               // elements per row
    int64_t first;                                    // first element (row-major index within the tile)
    int64_t last;                                     // one past the last element
    int64_t linear_origin;                            // iteration-order index of element (0, 0)
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
