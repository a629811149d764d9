/* aclnn-cpu: op::fp16_t, the FLOAT16 host type of CANN's opdev headers (C++ only), header-only. As in CANN,
 * fp16_t(uint16_t) takes raw bits while every other type converts by value; conversion from float rounds to
 * nearest even with overflow to infinity, conversion to float is exact, and the arithmetic is float arithmetic
 * rounded back. */
#ifndef ACLNN_CPU_INC_ACLNN_OPDEV_FP16_T_H
#define ACLNN_CPU_INC_ACLNN_OPDEV_FP16_T_H

#ifdef __cplusplus

#include <cmath>
#include <cstdint>
#include <cstring>

#include "bfloat16.h"

namespace op {

typedef enum tagFp16RoundMode {
    ROUND_TO_NEAREST = 0,
    ROUND_BY_TRUNCATED,
    ROUND_MODE_RESERVED
} fp16RoundMode_t;

namespace fp16_detail {

inline float BitsToFloat(uint16_t half) {
    const uint32_t sign = static_cast<uint32_t>(half & 0x8000u) << 16;
    const uint32_t exponent = (half >> 10) & 0x1Fu;
    const uint32_t mantissa = half & 0x3FFu;
    if (exponent == 0) {  // zero or subnormal: mantissa * 2^-24, exact in float
        const float magnitude = static_cast<float>(mantissa) * 5.9604644775390625e-8f;
        return sign != 0 ? -magnitude : magnitude;
    }
    const uint32_t bits = exponent == 0x1F ? (sign | 0x7F800000u | (mantissa << 13))
                                           : (sign | ((exponent + 112u) << 23) | (mantissa << 13));
    float result;
    std::memcpy(&result, &bits, sizeof result);
    return result;
}

inline uint16_t FloatToBits(float value) {
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
    const uint32_t magnitude = bits & 0x7FFFFFFFu;
    if (magnitude > 0x7F800000u) return static_cast<uint16_t>(sign | 0x7E00u);  // NaN
    if (magnitude >= 0x477FF000u) return static_cast<uint16_t>(sign | 0x7C00u);  // rounds past 65504: inf
    if (magnitude < 0x38800000u) {  // below 2^-14: a subnormal (or zero), rounded by the float addition
        float shifted;
        const uint32_t abs_bits = magnitude;
        std::memcpy(&shifted, &abs_bits, sizeof shifted);
        shifted += 0.5f;  // puts the 2^-24 units in the low mantissa bits
        uint32_t units;
        std::memcpy(&units, &shifted, sizeof units);
        return static_cast<uint16_t>(sign | (units - 0x3F000000u));
    }
    const uint32_t rounded = magnitude + 0x0FFFu + ((magnitude >> 13) & 1u);
    return static_cast<uint16_t>(sign | ((rounded - 0x38000000u) >> 13));
}

}  // namespace fp16_detail

typedef struct tagFp16 {
    uint16_t val;

    tagFp16() : val(0) {}
    constexpr tagFp16(const uint16_t &bits) : val(bits) {}
    tagFp16(const tagFp16 &other) : val(other.val) {}
    tagFp16(const bfloat16 &v) : val(fp16_detail::FloatToBits(static_cast<float>(v))) {}
    template <typename T>
    tagFp16(const T &v) : val(fp16_detail::FloatToBits(static_cast<float>(v))) {}

    tagFp16 &operator=(const tagFp16 &other) {
        val = other.val;
        return *this;
    }
    tagFp16 &operator=(const uint16_t &v) {  // by value, as CANN's assignment from uint16_t
        val = fp16_detail::FloatToBits(static_cast<float>(v));
        return *this;
    }
    template <typename T>
    tagFp16 &operator=(const T &v) {
        val = fp16_detail::FloatToBits(static_cast<float>(v));
        return *this;
    }

    float toFloat() const { return fp16_detail::BitsToFloat(val); }
    double toDouble() const { return static_cast<double>(toFloat()); }
    int8_t toInt8() const { return static_cast<int8_t>(toFloat()); }
    uint8_t toUInt8() const { return static_cast<uint8_t>(toFloat()); }
    int16_t toInt16() const { return static_cast<int16_t>(toFloat()); }
    uint16_t toUInt16() const { return static_cast<uint16_t>(toFloat()); }
    int32_t toInt32() const { return static_cast<int32_t>(toFloat()); }
    uint32_t toUInt32() const { return static_cast<uint32_t>(toFloat()); }
    /* 1: +inf, -1: -inf, 0: anything else. */
    int IsInf() const { return (val & 0x7FFFu) != 0x7C00u ? 0 : ((val & 0x8000u) != 0 ? -1 : 1); }

    operator float() const { return toFloat(); }
    operator double() const { return toDouble(); }
    operator bfloat16() const { return bfloat16(toFloat()); }
    operator int8_t() const { return toInt8(); }
    operator uint8_t() const { return toUInt8(); }
    operator int16_t() const { return toInt16(); }
    operator uint16_t() const { return toUInt16(); }
    operator int32_t() const { return toInt32(); }
    operator uint32_t() const { return toUInt32(); }
    operator int64_t() const { return static_cast<int64_t>(toFloat()); }
    operator uint64_t() const { return static_cast<uint64_t>(toFloat()); }
    operator bool() const { return (val & 0x7FFFu) != 0; }

    tagFp16 operator+(const tagFp16 other) const { return tagFp16(toFloat() + other.toFloat()); }
    tagFp16 operator-(const tagFp16 other) const { return tagFp16(toFloat() - other.toFloat()); }
    tagFp16 operator*(const tagFp16 other) const { return tagFp16(toFloat() * other.toFloat()); }
    tagFp16 operator/(const tagFp16 other) const { return tagFp16(toFloat() / other.toFloat()); }
    tagFp16 operator+=(const tagFp16 other) { return *this = *this + other; }
    tagFp16 operator-=(const tagFp16 other) { return *this = *this - other; }
    tagFp16 operator*=(const tagFp16 other) { return *this = *this * other; }
    tagFp16 operator/=(const tagFp16 other) { return *this = *this / other; }

    bool operator==(const tagFp16 &other) const { return toFloat() == other.toFloat(); }
    bool operator!=(const tagFp16 &other) const { return !(*this == other); }
    bool operator>(const tagFp16 &other) const { return toFloat() > other.toFloat(); }
    bool operator>=(const tagFp16 &other) const { return toFloat() >= other.toFloat(); }
    bool operator<(const tagFp16 &other) const { return toFloat() < other.toFloat(); }
    bool operator<=(const tagFp16 &other) const { return toFloat() <= other.toFloat(); }
} fp16_t;

}  // namespace op

namespace std {
inline bool isnan(op::fp16_t value) { return (value.val & 0x7C00u) == 0x7C00u && (value.val & 0x03FFu) != 0; }
inline float abs(op::fp16_t value) { return std::fabs(value.toFloat()); }
}  // namespace std

#endif /* __cplusplus */

#endif /* ACLNN_CPU_INC_ACLNN_OPDEV_FP16_T_H */
