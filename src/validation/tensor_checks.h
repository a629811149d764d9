// Validation helpers shared by operators: naming dtypes and shapes in messages, broadcasting, layout
// sanity (no negative sizes, no int64 overflow), the bytes a view addresses, and whether a view maps two
// elements to one address.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl_base.h"
#include "tensor/tensor.h"

namespace aclnn_cpu::validation {

// type is the number the caller passed, which need not be one of aclDataType's values.
std::string DataTypeName(int32_t type);
std::string ShapeString(const std::vector<int64_t>& dims);

// NumPy broadcast (right-aligned; 1 stretches; otherwise sizes must match). On failure returns false and
// sets *conflict_dim to the offending dim, counted from the right (-1 = last).
bool BroadcastShapes(const std::vector<int64_t>& a, const std::vector<int64_t>& b, std::vector<int64_t>* result,
                     int* conflict_dim);

// The facts about a view that the checks need, computed with overflow detection.
struct ViewExtent {
    int64_t numel = 0;        // product of the view dims
    int64_t first_byte = 0;   // offset * element size
    int64_t end_byte = 0;     // one past the last addressed byte; == first_byte when numel == 0
};

// Fails (returns a description of the rule broken) when a dim, stride or offset is negative, the number of
// strides differs from the number of dims, or the element count or byte span overflows int64.
// Returns an empty string on success.
std::string CheckLayout(const aclTensor& tensor, int64_t element_size, ViewExtent* extent);

// True when two distinct indices of the view map to the same element address.
bool HasInternalOverlap(const std::vector<int64_t>& dims, const std::vector<int64_t>& strides);

}  // namespace aclnn_cpu::validation
