// The aclTensor object. It only records what the caller passed: operators validate what they use, when they
// use it (CANN checks nothing at creation either).
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "aclnn/acl_meta.h"
#include "common/export.h"

struct aclTensor {
    std::vector<int64_t> view_dims;
    std::vector<int64_t> strides;  // in elements, one per view dim
    int64_t offset = 0;            // in elements
    // The caller's dtype and format numbers, kept as integers: a program may pass any number, and reading an
    // enum variable that holds a value outside the enum's range is undefined behaviour in C++.
    int32_t data_type = ACL_FLOAT;
    int32_t format = ACL_FORMAT_ND;
    std::vector<int64_t> storage_dims;
    void* data = nullptr;
};

namespace aclnn_cpu {

// The number held by an enum argument, read as bytes so that any value the caller passed is well defined.
template <typename Enum>
int32_t EnumCode(const Enum& value) {
    static_assert(sizeof(Enum) == sizeof(int32_t), "CANN's enums are 32-bit");
    int32_t code;
    std::memcpy(&code, &value, sizeof code);
    return code;
}

// Contiguous (row-major) strides for dims. Wraps silently on absurd dims; operators check for overflow.
std::vector<int64_t> ContiguousStrides(const std::vector<int64_t>& dims);

// True while tensor was returned by aclCreateTensor and not yet destroyed: phase 2 reads data addresses from
// the tensor objects and refuses ones that are gone instead of reading freed memory.
ACLNN_CPU_INTERNAL bool IsLiveTensor(const aclTensor* tensor);

}  // namespace aclnn_cpu
