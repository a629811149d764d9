#include "validation/tensor_checks.h"

#include <algorithm>

namespace aclnn_cpu::validation {

std::string DataTypeName(int32_t type) {
    switch (type) {
        case ACL_FLOAT: return "FLOAT";
        case ACL_FLOAT16: return "FLOAT16";
        case ACL_BF16: return "BFLOAT16";
        case ACL_DOUBLE: return "DOUBLE";
        case ACL_INT8: return "INT8";
        case ACL_INT16: return "INT16";
        case ACL_INT32: return "INT32";
        case ACL_INT64: return "INT64";
        case ACL_UINT8: return "UINT8";
        case ACL_UINT16: return "UINT16";
        case ACL_UINT32: return "UINT32";
        case ACL_UINT64: return "UINT64";
        case ACL_BOOL: return "BOOL";
        case ACL_COMPLEX64: return "COMPLEX64";
        case ACL_COMPLEX128: return "COMPLEX128";
        default: return std::to_string(type) + " (not a known aclDataType)";
    }
}

std::string ShapeString(const std::vector<int64_t>& dims) {
    std::string text = "[";
    for (size_t i = 0; i < dims.size(); ++i) {
        if (i > 0) text += ",";
        text += std::to_string(dims[i]);
    }
    return text + "]";
}

bool BroadcastShapes(const std::vector<int64_t>& a, const std::vector<int64_t>& b, std::vector<int64_t>* result,
                     int* conflict_dim) {
    const size_t rank = std::max(a.size(), b.size());
    std::vector<int64_t> shape(rank);
    for (size_t i = 0; i < rank; ++i) {  // i counts from the right
        const int64_t da = i < a.size() ? a[a.size() - 1 - i] : 1;
        const int64_t db = i < b.size() ? b[b.size() - 1 - i] : 1;
        if (da != db && da != 1 && db != 1) {
            *conflict_dim = -1 - static_cast<int>(i);
            return false;
        }
        shape[rank - 1 - i] = da == 1 ? db : da;
    }
    *result = std::move(shape);
    return true;
}

std::string CheckLayout(const aclTensor& tensor, int64_t element_size, ViewExtent* extent) {
    const auto& dims = tensor.view_dims;
    const auto& strides = tensor.strides;
    if (strides.size() != dims.size())
        return "has " + std::to_string(strides.size()) + " strides for " + std::to_string(dims.size()) + " dims";
    for (size_t d = 0; d < dims.size(); ++d) {
        if (dims[d] < 0) return "has a negative dim " + std::to_string(dims[d]) + " at dim " + std::to_string(d);
        if (strides[d] < 0)
            return "has a negative stride " + std::to_string(strides[d]) + " at dim " + std::to_string(d);
    }
    if (tensor.offset < 0) return "has a negative offset " + std::to_string(tensor.offset);
    int64_t numel = 1;
    for (int64_t dim : dims)
        if (__builtin_mul_overflow(numel, dim, &numel)) return "has an element count that overflows int64";
    // The last addressed element is offset + sum((dim - 1) * stride); its end in bytes must fit in int64.
    int64_t last = tensor.offset;
    if (numel > 0) {
        for (size_t d = 0; d < dims.size(); ++d) {
            int64_t step;
            if (__builtin_mul_overflow(dims[d] - 1, strides[d], &step) || __builtin_add_overflow(last, step, &last))
                return "has a byte span that overflows int64";
        }
    }
    int64_t first_byte, end_element, end_byte;
    if (__builtin_mul_overflow(tensor.offset, element_size, &first_byte) ||
        __builtin_add_overflow(last, numel > 0 ? 1 : 0, &end_element) ||
        __builtin_mul_overflow(end_element, element_size, &end_byte))
        return "has a byte span that overflows int64";
    extent->numel = numel;
    extent->first_byte = first_byte;
    extent->end_byte = numel > 0 ? end_byte : first_byte;
    return {};
}

bool HasInternalOverlap(const std::vector<int64_t>& dims, const std::vector<int64_t>& strides) {
    // Dims of size 0 leave nothing to overlap; dims of size 1 never step.
    std::vector<size_t> moving;
    for (size_t d = 0; d < dims.size(); ++d) {
        if (dims[d] == 0) return false;
        if (dims[d] > 1) moving.push_back(d);
    }
    for (size_t d : moving)
        if (strides[d] == 0) return true;
    // Sufficient condition for distinct addresses: sorted by stride, each stride exceeds the largest offset
    // reachable with the smaller ones. Covers every dense, sliced or transposed view.
    std::sort(moving.begin(), moving.end(), [&](size_t a, size_t b) { return strides[a] < strides[b]; });
    int64_t reach = 0;
    bool proven = true;
    for (size_t d : moving) {
        if (strides[d] <= reach) {
            proven = false;
            break;
        }
        reach += (dims[d] - 1) * strides[d];
    }
    if (proven) return false;
    // Unusual interleaved strides: decide exactly by listing the addresses, for views small enough to list.
    int64_t count = 1;
    for (size_t d : moving) count *= dims[d];
    constexpr int64_t kMaxListed = int64_t{1} << 22;
    if (count > kMaxListed) return true;  // cannot prove the elements distinct; refuse rather than race
    std::vector<int64_t> addresses{0};
    for (size_t d : moving) {
        std::vector<int64_t> next;
        next.reserve(addresses.size() * dims[d]);
        for (int64_t i = 0; i < dims[d]; ++i)
            for (int64_t base : addresses) next.push_back(base + i * strides[d]);
        addresses.swap(next);
    }
    std::sort(addresses.begin(), addresses.end());
    return std::adjacent_find(addresses.begin(), addresses.end()) != addresses.end();
}

}  // namespace aclnn_cpu::validation
