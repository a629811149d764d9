/* aclnn-cpu: op::bfloat16, the BFLOAT16 host type of CANN's opdev headers (C++ only), header-only: conversion
 * from float rounds to nearest even (NaN becomes the quiet NaN 0x7FC0), conversion to float is exact, and the
 * arithmetic is float arithmetic rounded back. */
#ifndef ACLNN_CPU_INC_ACLNN_OPDEV_BFLOAT16_H
#define ACLNN_CPU_INC_ACLNN_OPDEV_BFLOAT16_H

#ifdef __cplusplus

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <ostream>

namespace op {

typedef std::complex<float> complex64;
typedef std::complex<double> complex128;

struct bfloat16 {
    struct from_bits_t {};
    static constexpr from_bits_t from_bits() { return from_bits_t(); }
    static constexpr uint16_t NAN_VALUE = 0x7FC0;

    uint16_t value;

    bfloat16() : value(0) {}
    constexpr bfloat16(uint16_t bits, from_bits_t) : value(bits) {}
    bfloat16(float v) : value(round_to_bfloat16(v).value) {}
    bfloat16(const complex64 &v) : bfloat16(v.real()) {}
    bfloat16(const complex128 &v) : bfloat16(static_cast<float>(v.real())) {}
    template <class T>
    bfloat16(const T &v) : bfloat16(static_cast<float>(v)) {}

    template <class T>
    bfloat16 &operator=(T other) {
        value = round_to_bfloat16(static_cast<float>(other)).value;
        return *this;
    }

    operator float() const {
        const uint32_t bits = static_cast<uint32_t>(value) << 16;
        float result;
        std::memcpy(&result, &bits, sizeof result);
        return result;
    }
    operator double() const { return static_cast<double>(static_cast<float>(*this)); }
    operator bool() const { return std::fabs(static_cast<float>(*this)) >= std::numeric_limits<float>::epsilon(); }
    operator short() const { return static_cast<short>(static_cast<float>(*this)); }
    operator int() const { return static_cast<int>(static_cast<float>(*this)); }
    operator long() const { return static_cast<long>(static_cast<float>(*this)); }
    operator long long() const { return static_cast<long long>(static_cast<float>(*this)); }
    operator char() const { return static_cast<char>(static_cast<float>(*this)); }
    operator signed char() const { return static_cast<signed char>(static_cast<float>(*this)); }
    operator unsigned char() const { return static_cast<unsigned char>(static_cast<float>(*this)); }
    operator unsigned short() const { return static_cast<unsigned short>(static_cast<float>(*this)); }
    operator unsigned int() const { return static_cast<unsigned int>(static_cast<float>(*this)); }
    operator unsigned long() const { return static_cast<unsigned long>(static_cast<float>(*this)); }
    operator unsigned long long() const { return static_cast<unsigned long long>(static_cast<float>(*this)); }
    operator complex64() const { return complex64(static_cast<float>(*this), 0.0f); }
    operator complex128() const { return complex128(static_cast<double>(*this), 0.0); }

    /* Round to nearest, ties to even. */
    static bfloat16 round_to_bfloat16(float v) {
        if (std::isnan(v)) return bfloat16(NAN_VALUE, from_bits());
        uint32_t bits;
        std::memcpy(&bits, &v, sizeof bits);
        bits += 0x7FFFu + ((bits >> 16) & 1u);
        return bfloat16(static_cast<uint16_t>(bits >> 16), from_bits());
    }

    static constexpr bfloat16 epsilon() { return bfloat16(0x3C00, from_bits()); }
    static constexpr bfloat16 highest() { return bfloat16(0x7F7F, from_bits()); }
    static constexpr bfloat16 lowest() { return bfloat16(0xFF7F, from_bits()); }
    static constexpr bfloat16 min_positive_normal() { return bfloat16(0x0080, from_bits()); }
    bool IsZero() const { return (value & 0x7FFFu) == 0; }
};

inline std::ostream &operator<<(std::ostream &os, const bfloat16 &v) { return os << static_cast<float>(v); }
inline bfloat16 operator+(bfloat16 a, bfloat16 b) { return bfloat16(static_cast<float>(a) + static_cast<float>(b)); }
inline bfloat16 operator-(bfloat16 a, bfloat16 b) { return bfloat16(static_cast<float>(a) - static_cast<float>(b)); }
inline bfloat16 operator*(bfloat16 a, bfloat16 b) { return bfloat16(static_cast<float>(a) * static_cast<float>(b)); }
inline bfloat16 operator/(bfloat16 a, bfloat16 b) { return bfloat16(static_cast<float>(a) / static_cast<float>(b)); }
inline bfloat16 operator-(bfloat16 a) {
    a.value = static_cast<uint16_t>(a.value ^ 0x8000u);
    return a;
}
inline bool operator<(bfloat16 a, bfloat16 b) { return static_cast<float>(a) < static_cast<float>(b); }
inline bool operator<=(bfloat16 a, bfloat16 b) { return static_cast<float>(a) <= static_cast<float>(b); }
inline bool operator>(bfloat16 a, bfloat16 b) { return static_cast<float>(a) > static_cast<float>(b); }
inline bool operator>=(bfloat16 a, bfloat16 b) { return static_cast<float>(a) >= static_cast<float>(b); }
inline bool operator==(bfloat16 a, bfloat16 b) { return a.value == b.value; }
inline bool operator!=(bfloat16 a, bfloat16 b) { return a.value != b.value; }
inline bfloat16 &operator+=(bfloat16 &a, bfloat16 b) { return a = a + b; }
inline bfloat16 &operator-=(bfloat16 &a, bfloat16 b) { return a = a - b; }
inline bfloat16 &operator*=(bfloat16 &a, bfloat16 b) { return a = a * b; }
inline bfloat16 &operator/=(bfloat16 &a, bfloat16 b) { return a = a / b; }

}  // namespace op

namespace std {

template <>
struct hash<op::bfloat16> {
    size_t operator()(const op::bfloat16 &v) const { return hash<float>()(static_cast<float>(v)); }
};

inline bool isinf(const op::bfloat16 &a) { return std::isinf(static_cast<float>(a)); }
inline bool isnan(const op::bfloat16 &a) { return std::isnan(static_cast<float>(a)); }
inline bool isfinite(const op::bfloat16 &a) { return std::isfinite(static_cast<float>(a)); }
inline op::bfloat16 abs(const op::bfloat16 &a) { return op::bfloat16(std::fabs(static_cast<float>(a))); }

template <>
class numeric_limits<op::bfloat16> {
public:
    static constexpr bool is_specialized = true;
    static constexpr bool is_signed = true;
    static constexpr bool is_integer = false;
    static constexpr bool is_exact = false;
    static constexpr bool has_infinity = true;
    static constexpr bool has_quiet_NaN = true;
    static constexpr bool has_signaling_NaN = true;
    static constexpr bool is_bounded = true;
    static constexpr int digits = 8;
    static constexpr int digits10 = 2;
    static constexpr int max_digits10 = 4;
    static constexpr int radix = 2;
    static constexpr int min_exponent = -125;
    static constexpr int max_exponent = 128;
    static constexpr op::bfloat16 min() { return op::bfloat16::min_positive_normal(); }
    static constexpr op::bfloat16 lowest() { return op::bfloat16::lowest(); }
    static constexpr op::bfloat16 max() { return op::bfloat16::highest(); }
    static constexpr op::bfloat16 epsilon() { return op::bfloat16::epsilon(); }
    static constexpr op::bfloat16 infinity() { return op::bfloat16(0x7F80, op::bfloat16::from_bits()); }
    static constexpr op::bfloat16 quiet_NaN() {
        return op::bfloat16(op::bfloat16::NAN_VALUE, op::bfloat16::from_bits());
    }
    static constexpr op::bfloat16 denorm_min() { return op::bfloat16(0x0001, op::bfloat16::from_bits()); }
};

}  // namespace std

#endif /* __cplusplus */

#endif /* ACLNN_CPU_INC_ACLNN_OPDEV_BFLOAT16_H */
