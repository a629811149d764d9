// What a tile kernel is handed: a 2-D piece of the iteration (the two innermost dims) over up to six
// operands. It belongs to the kernels, which only read it; the engine (engine/iteration_shape.h) cuts the
// iteration into tiles.
#pragma once

#include <array>
#include <cstdint>

namespace aclnn_cpu::kernels {

constexpr int kMaxOperands = 6;  // up to five inputs first, the output last

// Each operand's address of the current element (or row start); nullptr for an unused operand slot.
using OperandPointers = std::array<char*, kMaxOperands>;

// Kernels get whole tiles rather than single rows so that short inner rows (a [N, 64] shape with a
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

}  // namespace aclnn_cpu::kernels
