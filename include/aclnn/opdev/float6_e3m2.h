/* aclnn-cpu: op::Float6E3M2, a 6-bit floating-point type of CANN's opdev headers (C++ only):
 * 1 sign, 3 exponent (bias 3), 2 mantissa bits (OCP MXFP6).
 * Values: subnormals 0.0625 .. 0.1875, normals 0.25 .. 28 (both signs). No infinity, no NaN.
 * Conversions live in libnnopbase and follow CANN's rules (docs/compatibility.md, "Small floating-point
 * types"): from float, round to nearest even, values past the largest saturate, and subnormal results
 * are truncated toward zero after that rounding; to float, exact. */
#ifndef ACLNN_CPU_INC_ACLNN_OPDEV_FLOAT6_E3M2_H
#define ACLNN_CPU_INC_ACLNN_OPDEV_FLOAT6_E3M2_H

#ifdef __cplusplus

#include <cstdint>
#include <limits>
#include <ostream>

#include "small_float_limits.h"

namespace op {

struct Float6E3M2 {
    struct FromBitsTag {};
    static constexpr FromBitsTag FromBits() { return FromBitsTag(); }

    uint8_t value;

    static constexpr uint8_t BITS_MASK = 0x3F;  // the 6 bits in use
    static constexpr uint8_t HIGHEST_VALUE = 0x1F;  // 28.0
    static constexpr uint8_t LOWEST_VALUE = 0x3F;  // -28.0
    static constexpr uint8_t MIN_POS_NORMAL_VALUE = 0x04;  // 0.25
    static constexpr uint8_t EPSILON_VALUE = 0x04;  // 0.25

    constexpr Float6E3M2() : value(0) {}
    constexpr Float6E3M2(uint8_t bits, FromBitsTag)
        : value(bits & BITS_MASK) {}
    Float6E3M2(float v);

    operator float() const;
    operator double() const;

    static constexpr Float6E3M2 Epsilon() { return Float6E3M2(EPSILON_VALUE, FromBits()); }
    static constexpr Float6E3M2 Highest() { return Float6E3M2(HIGHEST_VALUE, FromBits()); }
    static constexpr Float6E3M2 Lowest() { return Float6E3M2(LOWEST_VALUE, FromBits()); }
    static constexpr Float6E3M2 MinPositiveNormal() { return Float6E3M2(MIN_POS_NORMAL_VALUE, FromBits()); }

    bool IsZero() const;
    bool IsNaN() const;
    bool IsInf() const;
};

inline std::ostream& operator<<(std::ostream& os, const Float6E3M2& dt) { return os << static_cast<float>(dt); }

}  // namespace op

namespace std {

inline bool isinf(const op::Float6E3M2&) { return false; }
inline bool isnan(const op::Float6E3M2&) { return false; }
inline bool isfinite(const op::Float6E3M2&) { return true; }

template <>
class numeric_limits<op::Float6E3M2> : public op::small_float_detail::SignedSmallFloatLimits<op::Float6E3M2> {
public:
    static constexpr bool has_infinity = false;
    static constexpr bool has_quiet_NaN = false;
    static constexpr int digits = 2;
    static constexpr int digits10 = 0;
    static constexpr int max_digits10 = 1;
    static constexpr int min_exponent = -2;
    static constexpr int min_exponent10 = 0;
    static constexpr int max_exponent = 4;
    static constexpr int max_exponent10 = 1;
    static constexpr float denorm_min() { return 0.0625f; }
    static constexpr op::Float6E3M2 infinity() { return op::Float6E3M2::Highest(); }
    static constexpr op::Float6E3M2 quiet_NaN() { return op::Float6E3M2(0x00, op::Float6E3M2::FromBits()); }
    static constexpr op::Float6E3M2 signaling_NaN() { return quiet_NaN(); }
};

}  // namespace std

#endif /* __cplusplus */

#endif /* ACLNN_CPU_INC_ACLNN_OPDEV_FLOAT6_E3M2_H */
