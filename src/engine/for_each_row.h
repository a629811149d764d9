// Walks a slice [begin, end) of an IterationShape's elements (in iteration order) as rows along the inner
// dim, calling row(pointers, n) with each operand's address of the row's first element. Inner strides are
// the shape's; a kernel reads them once, outside its loop.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>

#include "common/config.h"
#include "engine/iteration_shape.h"

namespace aclnn_cpu::engine {

template <typename RowFn>
void ForEachRow(const IterationShape& shape, const OperandPointers& bases, int64_t begin, int64_t end, RowFn&& row) {
    if (begin >= end) return;
    const int inner = shape.ndim - 1;
    const int64_t inner_size = shape.sizes[inner];
    // Multi-index of begin, innermost last.
    std::array<int64_t, kMaxDims> index{};
    int64_t rest = begin;
    for (int d = inner; d >= 0; --d) {
        index[d] = rest % shape.sizes[d];
        rest /= shape.sizes[d];
    }
    int64_t position = begin;
    while (position < end) {
        OperandPointers pointers;
        for (int k = 0; k < kMaxOperands; ++k) {
            char* p = bases[k];
            if (p != nullptr)
                for (int d = 0; d <= inner; ++d) p += index[d] * shape.byte_strides[k][d];
            pointers[k] = p;
        }
        const int64_t n = std::min(inner_size - index[inner], end - position);
        row(pointers, n);
        position += n;
        index[inner] += n;
        for (int d = inner; d > 0 && index[d] == shape.sizes[d]; --d) {
            index[d] = 0;
            ++index[d - 1];
        }
    }
}

// Walks a slice [begin, end) of an IterationShape's elements as tiles over the two innermost dims.
template <typename TileFn>
void ForEachTile(const IterationShape& shape, const OperandPointers& bases, int64_t begin, int64_t end,
                 TileFn&& tile_fn) {
    if (begin >= end) return;
    const int inner = shape.ndim - 1;
    const int outer = inner - 1;  // -1 for a 1-D shape: the tile is one row
    Tile tile;
    tile.inner_size = shape.sizes[inner];
    const int64_t tile_size = tile.inner_size * (outer >= 0 ? shape.sizes[outer] : 1);
    for (int k = 0; k < kMaxOperands; ++k) {
        tile.inner_stride[k] = shape.byte_strides[k][inner];
        tile.outer_stride[k] = outer >= 0 ? shape.byte_strides[k][outer] : 0;
    }
    int64_t tile_index = begin / tile_size;  // which tile, over the dims outside the two innermost
    int64_t position = begin;
    while (position < end) {
        int64_t rest = tile_index;
        for (int k = 0; k < kMaxOperands; ++k) tile.origin[k] = bases[k];
        for (int d = outer - 1; d >= 0; --d) {
            const int64_t index = rest % shape.sizes[d];
            rest /= shape.sizes[d];
            for (int k = 0; k < kMaxOperands; ++k)
                if (tile.origin[k] != nullptr) tile.origin[k] += index * shape.byte_strides[k][d];
        }
        const int64_t tile_start = tile_index * tile_size;
        tile.linear_origin = tile_start;
        tile.first = position - tile_start;
        tile.last = std::min(tile_size, end - tile_start);
        tile_fn(static_cast<const Tile&>(tile));
        position = tile_start + tile.last;
        ++tile_index;
    }
}

// Splits [0, count) into at most `threads` contiguous slices of at least `grain` items, with boundaries on
// multiples of `alignment`, and runs slice(begin, end) on each, in parallel (OpenMP) when there is more than
// one. Every item belongs to exactly one slice and the kernels do not depend on the split, so results are the
// same for any thread count.
template <typename SliceFn>
void ParallelSlicesAligned(int64_t count, int threads, int64_t grain, int64_t alignment, SliceFn&& slice) {
    int64_t slices = grain > 0 ? (count + grain - 1) / grain : 1;
    if (slices > threads) slices = threads;
    if (slices > count / alignment) slices = count / alignment;
    if (slices <= 1) {
        slice(int64_t{0}, count);
        return;
    }
    auto boundary = [&](int64_t s) {
        return s == slices ? count : count / alignment * s / slices * alignment;
    };
    NoteParallelRegion();
#pragma omp parallel for num_threads(static_cast<int>(slices)) schedule(static, 1)
    for (int64_t s = 0; s < slices; ++s) slice(boundary(s), boundary(s + 1));
}

// ParallelSlicesAligned over elements, with boundaries on multiples of 1024 elements, so that each slice's
// rows start at the same alignment as the tensors (whole cache lines, whole vectors) wherever possible.
template <typename SliceFn>
void ParallelSlices(int64_t numel, int threads, int64_t grain, SliceFn&& slice) {
    constexpr int64_t kSliceAlignment = 1024;
    ParallelSlicesAligned(numel, threads, grain, kSliceAlignment, std::forward<SliceFn>(slice));
}

}  // namespace aclnn_cpu::engine
