// The address checks every plan makes of an operand, in phase 1 against the data addresses it sees and again
// in phase 2 against the current ones: the tensor still alive, a non-null address where it has elements, and
// the bytes it addresses inside one block of device memory (or, strict checks off, any host memory).
#pragma once

#include <cstdint>

#include "aclnn/acl_meta.h"
#include "validation/tensor_checks.h"

namespace aclnn_cpu::engine {

// Checks the tensor (named `name` in messages) whose view spans extent; `addressed`: whether the call reads or
// writes its bytes (an operand of an empty result does not). On success *base is the view's first byte (the
// tensor's data address where nothing is addressed); on failure the recent error message is set and
// ACLNN_ERR_PARAM_INVALID returned.
aclnnStatus AdmitOperandAddress(const char* caller, const char* name, const aclTensor* tensor,
                                const validation::ViewExtent& extent, bool addressed, bool strict, char** base);

// Whether [a_begin, a_end) and [b_begin, b_end) share a byte.
inline bool BytesIntersect(const char* a_begin, const char* a_end, const char* b_begin, const char* b_end) {
    return a_begin < b_end && b_begin < a_end;
}

}  // namespace aclnn_cpu::engine
