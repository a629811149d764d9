// Scalar conversions between fp32 and the two 16-bit formats, written out bit by bit because the library
// must not depend on the compiler's or Highway's rounding (Highway 1.0.3 truncates f32->bf16, and its
// software f16 path does not round). Narrowing rounds to nearest, ties to even; NaN stays NaN (quieted),
// overflow gives infinity, subnormals are exact. Requires IEEE arithmetic without flush-to-zero.
#pragma once

#include <cstdint>
#include <cstring>

namespace aclnn_cpu {

inline uint32_t FloatBits(float value) {
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
}

inline float BitsToFloat(uint32_t bits) {
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

inline float HalfToFloat(uint16_t half) {
    const uint32_t sign = static_cast<uint32_t>(half & 0x8000u) << 16;
    const uint32_t exponent = (half >> 10) & 0x1fu;
    const uint32_t mantissa = half & 0x3ffu;
    if (exponent == 0x1fu) return BitsToFloat(sign | 0x7f800000u | (mantissa << 13));  // inf, NaN
    if (exponent != 0) return BitsToFloat(sign | ((exponent + 112u) << 23) | (mantissa << 13));
    // zero or subnormal: mantissa * 2^-24 is exact in fp32
    const float magnitude = static_cast<float>(mantissa) * 5.9604644775390625e-8f;
    return BitsToFloat(sign | FloatBits(magnitude));
}

inline uint16_t FloatToHalf(float value) {
    const uint32_t bits = FloatBits(value);
    const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
    uint32_t magnitude = bits & 0x7fffffffu;
    if (magnitude > 0x7f800000u) return static_cast<uint16_t>(sign | 0x7e00u | ((magnitude >> 13) & 0x1ffu));
    if (magnitude >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // >= 65520 rounds to inf
    if (magnitude >= 0x38800000u) {                                                // a normal half (>= 2^-14)
        magnitude += 0x0fffu + ((magnitude >> 13) & 1u);                            // round to nearest even
        return static_cast<uint16_t>(sign | ((magnitude - 0x38000000u) >> 13));
    }
    // Subnormal half: adding 0.5 puts the value's 2^-24 units in the low mantissa bits of an fp32 in [0.5, 1),
    // and the fp32 addition itself rounds to nearest even. 0x400 (rounding up to 2^-14) is the right encoding.
    const float shifted = BitsToFloat(magnitude) + 0.5f;
    return static_cast<uint16_t>(sign | (FloatBits(shifted) - 0x3f000000u));
}

inline float Bf16ToFloat(uint16_t bf16) { return BitsToFloat(static_cast<uint32_t>(bf16) << 16); }

inline uint16_t FloatToBf16(float value) {
    uint32_t bits = FloatBits(value);
    if ((bits & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((bits >> 16) | 0x0040u);  // quiet NaN
    bits += 0x7fffu + ((bits >> 16) & 1u);  // round to nearest even; the largest finite values carry into inf
    return static_cast<uint16_t>(bits >> 16);
}

}  // namespace aclnn_cpu
