#include "engine/iteration_shape.h"

#include <algorithm>

namespace aclnn_cpu::engine {

IterationShape BuildIterationShape(const std::vector<int64_t>& shape,
                                   const std::array<std::vector<int64_t>, kMaxOperands>& element_strides,
                                   const std::array<int64_t, kMaxOperands>& element_sizes, int order_by) {
    IterationShape result;
    result.numel = 1;
    for (int64_t size : shape) result.numel *= size;
    if (result.numel == 0) {
        // Nothing to visit; the strides of an empty view are never used (and need not even fit a byte count).
        result.ndim = 1;
        result.sizes[0] = 0;
        return result;
    }

    // Keep the dims that iterate (size > 1), then order them outermost-first by the chosen operand's stride;
    // ties fall back to the other operands' strides so that inputs also walk memory forwards.
    std::vector<int> dims;
    for (int d = 0; d < static_cast<int>(shape.size()); ++d)
        if (shape[d] != 1) dims.push_back(d);
    std::stable_sort(dims.begin(), dims.end(), [&](int a, int b) {
        if (element_strides[order_by][a] != element_strides[order_by][b])
            return element_strides[order_by][a] > element_strides[order_by][b];
        for (int k = 0; k < kMaxOperands; ++k) {
            if (k == order_by || element_strides[k].empty()) continue;
            if (element_strides[k][a] != element_strides[k][b]) return element_strides[k][a] > element_strides[k][b];
        }
        return false;
    });

    // Walk the dims innermost first and merge each into the dim inside it when every operand steps over
    // that inner dim exactly (stride_outer == stride_inner * size_inner).
    std::vector<int64_t> sizes;  // innermost first while building
    std::array<std::vector<int64_t>, kMaxOperands> strides;
    for (auto it = dims.rbegin(); it != dims.rend(); ++it) {
        const int d = *it;
        bool merge = !sizes.empty();
        for (int k = 0; k < kMaxOperands && merge; ++k) {
            if (element_strides[k].empty()) continue;
            int64_t span;  // bytes covered by the inner dim; no merge when that does not even fit in int64
            merge = !__builtin_mul_overflow(strides[k].back(), sizes.back(), &span) && element_strides[k][d] == span;
        }
        if (merge) {
            sizes.back() *= shape[d];  // d is outside the current dim and continues it seamlessly
            continue;
        }
        sizes.push_back(shape[d]);
        for (int k = 0; k < kMaxOperands; ++k)
            strides[k].push_back(element_strides[k].empty() ? 0 : element_strides[k][d]);
    }
    // sizes/strides are innermost first now; the plan stores outermost first.
    if (sizes.empty()) {
        sizes.push_back(1);  // a single element (every dim was 1)
        for (auto& s : strides) s.push_back(0);
    }
    result.ndim = static_cast<int>(sizes.size());
    for (int i = 0; i < result.ndim; ++i) {
        const int from = result.ndim - 1 - i;
        result.sizes[i] = sizes[from];
        for (int k = 0; k < kMaxOperands; ++k) result.byte_strides[k][i] = strides[k][from] * element_sizes[k];
    }
    return result;
}

std::array<int64_t, kMaxDims> DenseByteStrides(const IterationShape& shape, int64_t element_size) {
    std::array<int64_t, kMaxDims> strides{};
    int64_t running = element_size;
    for (int d = shape.ndim - 1; d >= 0; --d) {
        strides[d] = running;
        running *= shape.sizes[d];
    }
    return strides;
}

}  // namespace aclnn_cpu::engine
