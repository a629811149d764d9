// One element of a tensor read or written by its dtype number, with CANN's casts: the gathers and scatters of
// the plans that do not run vector kernels over their operands (a softmax row that is not FLOAT and contiguous,
// the NLL losses' samples). Values pass as double, which holds every value of these dtypes exactly.
#pragma once

#include <cstdint>
#include <cstring>

#include "acl/acl_base.h"
#include "common/float_convert.h"

namespace aclnn_cpu::engine {

// The value at `at` of a floating dtype (FLOAT, FLOAT16, BFLOAT16, DOUBLE).
inline double LoadValue(int32_t type, const char* at) {
    switch (type) {
        case ACL_DOUBLE: { double v; std::memcpy(&v, at, 8); return v; }
        case ACL_FLOAT16: { uint16_t h; std::memcpy(&h, at, 2); return HalfToFloat(h); }
        case ACL_BF16: { uint16_t b; std::memcpy(&b, at, 2); return Bf16ToFloat(b); }
        default: { float f; std::memcpy(&f, at, 4); return f; }
    }
}

// v rounded to type's values (to nearest, ties to even; a DOUBLE value narrows through fp32 to the 16-bit types).
inline double RoundTo(int32_t type, double v) {
    switch (type) {
        case ACL_DOUBLE: return v;
        case ACL_FLOAT16: return HalfToFloat(FloatToHalf(static_cast<float>(v)));
        case ACL_BF16: return Bf16ToFloat(FloatToBf16(static_cast<float>(v)));
        default: return static_cast<float>(v);
    }
}

// v stored as type (rounded as RoundTo does).
inline void StoreValue(int32_t type, char* at, double v) {
    switch (type) {
        case ACL_DOUBLE: std::memcpy(at, &v, 8); return;
        case ACL_FLOAT16: { const uint16_t h = FloatToHalf(static_cast<float>(v)); std::memcpy(at, &h, 2); return; }
        case ACL_BF16: { const uint16_t b = FloatToBf16(static_cast<float>(v)); std::memcpy(at, &b, 2); return; }
        default: { const float f = static_cast<float>(v); std::memcpy(at, &f, 4); return; }
    }
}

// The integer at `at` of an index dtype (INT64, INT32, UINT8).
inline int64_t LoadIndex(int32_t type, const char* at) {
    switch (type) {
        case ACL_INT32: { int32_t v; std::memcpy(&v, at, 4); return v; }
        case ACL_UINT8: { uint8_t v; std::memcpy(&v, at, 1); return v; }
        default: { int64_t v; std::memcpy(&v, at, 8); return v; }
    }
}

}  // namespace aclnn_cpu::engine
