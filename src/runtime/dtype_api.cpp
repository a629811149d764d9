// aclDataTypeSize and AscendCL's saturating fp16 conversions.
#include <cmath>
#include <cstring>

#include "acl/acl_base.h"
#include "common/float_convert.h"

extern "C" {

size_t aclDataTypeSize(aclDataType dataType) {
    int32_t code;  // read as bytes: the caller may pass a number outside the enum's range
    std::memcpy(&code, &dataType, sizeof code);
    switch (code) {
        case ACL_INT8: case ACL_UINT8: case ACL_BOOL: case ACL_HIFLOAT8: case ACL_FLOAT8_E5M2:
        case ACL_FLOAT8_E4M3FN: case ACL_FLOAT8_E8M0:
            return 1;
        case ACL_FLOAT16: case ACL_BF16: case ACL_INT16: case ACL_UINT16:
            return 2;
        case ACL_FLOAT: case ACL_INT32: case ACL_UINT32: case ACL_COMPLEX32:
            return 4;
        case ACL_INT64: case ACL_UINT64: case ACL_DOUBLE: case ACL_COMPLEX64:
            return 8;
        case ACL_COMPLEX128:
            return 16;
        default:
            return 0;  // sub-byte, string and unknown types have no byte size
    }
}

float aclFloat16ToFloat(aclFloat16 value) {
    const uint16_t magnitude = value & 0x7fffu;
    const float sign = (value & 0x8000u) ? -1.0f : 1.0f;
    if (magnitude == 0x7c00u) return sign * 65536.0f;   // infinity saturates
    if (magnitude > 0x7c00u) return sign * 98304.0f;    // NaN saturates
    return aclnn_cpu::HalfToFloat(value);
}

aclFloat16 aclFloatToFloat16(float value) {
    // NaN, infinity and finite values that round past 65504 all saturate to +-65504.
    if (std::isnan(value)) return std::signbit(value) ? 0xfbffu : 0x7bffu;
    const uint16_t half = aclnn_cpu::FloatToHalf(value);
    return (half & 0x7fffu) == 0x7c00u ? static_cast<uint16_t>((half & 0x8000u) | 0x7bffu) : half;
}

}  // extern "C"
