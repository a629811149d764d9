/* aclnn-cpu: op::Float8E8M0, the 8-bit scale type of CANN's opdev headers (C++ only): 8 exponent bits (bias
 * 127), no sign, no mantissa (OCP MX E8M0), so it holds the powers of two 2^-126 .. 2^127. 0x00 is zero and
 * 0xFF is NaN; there is no infinity. Conversions live in libnnopbase and follow CANN's rules
 * (docs/compatibility.md, "Small floating-point types"): from float, round to the nearer power of two (a
 * mantissa of one half or more rounds up), negative values become NaN, values past 2^127 and +infinity become
 * 2^127; to float, exact. */
#ifndef ACLNN_CPU_INC_ACLNN_OPDEV_FLOAT8_E8M0_H
#define ACLNN_CPU_INC_ACLNN_OPDEV_FLOAT8_E8M0_H

#ifdef __cplusplus

#include <cstdint>
#include <limits>
#include <ostream>

#include "small_float_limits.h"

namespace op {

struct Float8E8M0 {
    struct FromBitsTag {};
    static constexpr FromBitsTag FromBits() { return FromBitsTag(); }

    uint8_t value;

    static constexpr uint8_t NAN_VALUE = 0xFF;           // NaN
    static constexpr uint8_t ONE_VALUE = 0x7F;           // 1.0
    static constexpr uint8_t HIGHEST_VALUE = 0xFE;       // 2^127
    static constexpr uint8_t MIN_POSITIVE_VALUE = 0x01;  // 2^-126

    constexpr Float8E8M0() : value(0) {}
    constexpr Float8E8M0(uint8_t bits, FromBitsTag) : value(bits) {}
    Float8E8M0(float v);

    operator float() const;
    operator double() const;

    static constexpr Float8E8M0 Epsilon() { return Float8E8M0(ONE_VALUE, FromBits()); }
    static constexpr Float8E8M0 Highest() { return Float8E8M0(HIGHEST_VALUE, FromBits()); }
    static constexpr Float8E8M0 Lowest() { return MinPositive(); }
    static constexpr Float8E8M0 MinPositive() { return Float8E8M0(MIN_POSITIVE_VALUE, FromBits()); }

    bool IsZero() const;
    bool IsNaN() const;
    bool IsInf() const;

    // The power of two this value is (value - 127); 0 for zero and NaN.
    int32_t GetExponent() const;
};

inline std::ostream& operator<<(std::ostream& os, const Float8E8M0& dt) { return os << static_cast<float>(dt); }

}  // namespace op

namespace std {

inline bool isinf(const op::Float8E8M0& a) { return a.IsInf(); }
inline bool isnan(const op::Float8E8M0& a) { return a.IsNaN(); }
inline bool isfinite(const op::Float8E8M0& a) { return !a.IsNaN(); }

template <>
class numeric_limits<op::Float8E8M0> : public op::small_float_detail::CommonLimits {
public:
    static constexpr bool has_infinity = false;
    static constexpr bool has_quiet_NaN = true;
    static constexpr bool has_signaling_NaN = false;
    static constexpr bool is_exact = true;
    static constexpr bool is_signed = false;
    static constexpr int digits = 0;
    static constexpr int digits10 = 0;
    static constexpr int max_digits10 = 0;
    static constexpr int min_exponent = -126;
    static constexpr int min_exponent10 = -38;
    static constexpr int max_exponent = 127;
    static constexpr int max_exponent10 = 38;
    static constexpr float round_error() { return 1.0f; }
    static constexpr float denorm_min() { return 0.0f; }
    static constexpr op::Float8E8M0 min() { return op::Float8E8M0::MinPositive(); }
    static constexpr op::Float8E8M0 lowest() { return op::Float8E8M0::MinPositive(); }
    static constexpr op::Float8E8M0 max() { return op::Float8E8M0::Highest(); }
    static constexpr op::Float8E8M0 epsilon() { return op::Float8E8M0::Epsilon(); }
    static constexpr op::Float8E8M0 infinity() { return op::Float8E8M0::Highest(); }
    static constexpr op::Float8E8M0 quiet_NaN() {
        return op::Float8E8M0(op::Float8E8M0::NAN_VALUE, op::Float8E8M0::FromBits());
    }
    static constexpr op::Float8E8M0 signaling_NaN() { return quiet_NaN(); }
};

}  // namespace std

#endif /* __cplusplus */

#endif /* ACLNN_CPU_INC_ACLNN_OPDEV_FLOAT8_E8M0_H */
