/* aclnn-cpu: op::HiFloat8 (HiF8), Huawei's 8-bit tapered floating-point type of CANN's opdev headers (C++
 * only). After the sign bit, a prefix code says how many bits the exponent takes (sign-magnitude, leading 1
 * implied), and the mantissa gets what is left: 3 bits for |exponent| <= 3, 2 up to 7, 1 up to 15; exponents
 * -22 .. -16 are "denormal" codes with no mantissa (0 0000 kkk = 2^(k-23)). 0x00 is zero, 0x80 is NaN, and
 * 0x6F / 0xEF are +-infinity (so the largest finite value is 2^15 = 32768).
 * Conversions live in libnnopbase and follow CANN's rules (docs/compatibility.md, "Small floating-point
 * types"): from float, round half away from zero at the precision of the value's exponent; magnitudes from
 * 1.25 * 2^15 = 40960 up become infinity, below 2^-23 zero (which has no sign); to float, exact. */
#ifndef ACLNN_CPU_INC_ACLNN_OPDEV_HIFLOAT8_H
#define ACLNN_CPU_INC_ACLNN_OPDEV_HIFLOAT8_H

#ifdef __cplusplus

#include <cstdint>
#include <iostream>
#include <limits>

#include "small_float_limits.h"

namespace op {

struct HiFloat8 {
    struct FromBitsTag {};
    static constexpr FromBitsTag FromBits() { return FromBitsTag(); }

    uint8_t value;

    static constexpr uint8_t HIF8_ZERO_VALUE = 0;          // 0.0
    static constexpr uint8_t HIF8_NAN_VALUE = 0x80;  // NaN (the pattern a negative zero would have)
    static constexpr uint8_t HIF8_INF_VALUE = 0x6F;  // +infinity

    constexpr HiFloat8() : value(HIF8_ZERO_VALUE) {}
    constexpr HiFloat8(uint8_t bits, FromBitsTag) : value(bits) {}
    HiFloat8(float f32);

    operator float() const;

    bool IsNaN() const;
    bool IsInf() const;
    // As in CANN, true for 0x00 and also for the NaN pattern 0x80 (both have no bit set but the sign).
    bool IsZero() const;

    // The HiF8 bits of the float whose IEEE bits are f32.
    static uint8_t BitsFromFp32(uint32_t f32);
};

inline std::ostream& operator<<(std::ostream& os, const HiFloat8& dt) { return os << static_cast<float>(dt); }

static_assert(sizeof(HiFloat8) == sizeof(uint8_t), "HiFloat8 is one byte");

}  // namespace op

namespace std {

inline bool isinf(const op::HiFloat8& a) { return a.IsInf(); }
inline bool isnan(const op::HiFloat8& a) { return a.IsNaN(); }
inline bool isfinite(const op::HiFloat8& a) { return !a.IsInf() && !a.IsNaN(); }

/* CANN's values, kept as they are: max() is the infinity pattern, and round_error() and denorm_min() are
 * HiFloat8 values. */
template <>
class numeric_limits<op::HiFloat8> : public op::small_float_detail::CommonLimits {
public:
    static constexpr bool has_infinity = true;
    static constexpr bool has_quiet_NaN = true;
    static constexpr bool has_signaling_NaN = true;
    static constexpr bool is_exact = false;
    static constexpr bool is_signed = true;
    static constexpr int digits = 3;
    static constexpr int digits10 = 0;
    static constexpr int max_digits10 = 2;
    static constexpr int min_exponent = -22;
    static constexpr int min_exponent10 = -6;
    static constexpr int max_exponent = 15;
    static constexpr int max_exponent10 = 4;
    static constexpr op::HiFloat8 min() { return op::HiFloat8(0x08, op::HiFloat8::FromBits()); }
    static constexpr op::HiFloat8 lowest() { return op::HiFloat8(0xFF, op::HiFloat8::FromBits()); }
    static constexpr op::HiFloat8 max() { return op::HiFloat8(0x6F, op::HiFloat8::FromBits()); }
    static constexpr op::HiFloat8 epsilon() { return op::HiFloat8(0x01, op::HiFloat8::FromBits()); }
    static constexpr op::HiFloat8 round_error() { return op::HiFloat8(0x18, op::HiFloat8::FromBits()); }
    static constexpr op::HiFloat8 infinity() {
        return op::HiFloat8(op::HiFloat8::HIF8_INF_VALUE, op::HiFloat8::FromBits());
    }
    static constexpr op::HiFloat8 quiet_NaN() {
        return op::HiFloat8(op::HiFloat8::HIF8_NAN_VALUE, op::HiFloat8::FromBits());
    }
    static constexpr op::HiFloat8 signaling_NaN() { return quiet_NaN(); }
    static constexpr op::HiFloat8 denorm_min() { return op::HiFloat8(0x01, op::HiFloat8::FromBits()); }
};

}  // namespace std

#endif /* __cplusplus */

#endif /* ACLNN_CPU_INC_ACLNN_OPDEV_HIFLOAT8_H */
