/* aclnn-cpu: op::Float6E2M3, a 6-bit floating-point type of CANN's opdev headers (C++ only):
 * 1 sign, 2 exponent (bias 1), 3 mantissa bits (OCP MXFP6).
 * Values: subnormals 0.125 .. 0.875, normals 1.0 .. 7.5 (both signs). No infinity, no NaN.
 * Conversions live in libnnopbase and follow CANN's rules (docs/compatibility.md, "Small floating-point
 * types"): from float, round to nearest even, values past the largest saturate, and subnormal results
 * are truncated toward zero after that rounding; to float, exact. */
#ifndef ACLNN_CPU_INC_ACLNN_OPDEV_FLOAT6_E2M3_H
#define ACLNN_CPU_INC_ACLNN_OPDEV_FLOAT6_E2M3_H

#ifdef __cplusplus

#include <cstdint>
#include <limits>
#include <ostream>

#include "small_float_limits.h"

namespace op {

struct Float6E2M3 {
    struct FromBitsTag {};
    static constexpr FromBitsTag FromBits() { return FromBitsTag(); }

    uint8_t value;

    static constexpr uint8_t HIGHEST_VALUE = 0x1F;  // 7.5
    static constexpr uint8_t LOWEST_VALUE = 0x3F;  // -7.5
    static constexpr uint8_t MIN_POS_NORMAL_VALUE = 0x08;  // 1.0
    static constexpr uint8_t BITS_MASK = 0x3F;  // the 6 bits in use
    static constexpr uint8_t EPSILON_VALUE = 0x01;  // 0.125

    constexpr Float6E2M3() : value(0) {}
    constexpr Float6E2M3(uint8_t bits, FromBitsTag)
        : value(bits & BITS_MASK) {}
    Float6E2M3(float v);

    operator float() const;
    operator double() const;

    static constexpr Float6E2M3 Epsilon() { return Float6E2M3(EPSILON_VALUE, FromBits()); }
    static constexpr Float6E2M3 Highest() { return Float6E2M3(HIGHEST_VALUE, FromBits()); }
    static constexpr Float6E2M3 Lowest() { return Float6E2M3(LOWEST_VALUE, FromBits()); }
    static constexpr Float6E2M3 MinPositiveNormal() { return Float6E2M3(MIN_POS_NORMAL_VALUE, FromBits()); }

    bool IsZero() const;
    bool IsNaN() const;
    bool IsInf() const;
};

inline std::ostream& operator<<(std::ostream& os, const Float6E2M3& dt) { return os << static_cast<float>(dt); }

}  // namespace op

namespace std {

inline bool isinf(const op::Float6E2M3&) { return false; }
inline bool isnan(const op::Float6E2M3&) { return false; }
inline bool isfinite(const op::Float6E2M3&) { return true; }

template <>
class numeric_limits<op::Float6E2M3> : public op::small_float_detail::SignedSmallFloatLimits<op::Float6E2M3> {
public:
    static constexpr bool has_infinity = false;
    static constexpr bool has_quiet_NaN = false;
    static constexpr int digits = 3;
    static constexpr int digits10 = 0;
    static constexpr int max_digits10 = 1;
    static constexpr int min_exponent = -1;
    static constexpr int min_exponent10 = 0;
    static constexpr int max_exponent = 2;
    static constexpr int max_exponent10 = 0;
    static constexpr float denorm_min() { return 0.125f; }
    static constexpr op::Float6E2M3 infinity() { return op::Float6E2M3::Highest(); }
    static constexpr op::Float6E2M3 quiet_NaN() { return op::Float6E2M3(0x00, op::Float6E2M3::FromBits()); }
    static constexpr op::Float6E2M3 signaling_NaN() { return quiet_NaN(); }
};

}  // namespace std

#endif /* __cplusplus */

#endif /* ACLNN_CPU_INC_ACLNN_OPDEV_FLOAT6_E2M3_H */
