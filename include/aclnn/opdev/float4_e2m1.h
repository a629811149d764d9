/* aclnn-cpu: op::Float4E2M1, a 4-bit floating-point type of CANN's opdev headers (C++ only):
 * 1 sign, 2 exponent (bias 1), 1 mantissa bit (OCP MXFP4).
 * Values: subnormal 0.5, normals 1.0, 1.5, 2, 3, 4, 6 (both signs). No infinity, no NaN.
 * Conversions live in libnnopbase and follow CANN's rules (docs/compatibility.md, "Small floating-point
 * types"): from float, round to nearest even, values past the largest saturate, and subnormal results
 * are truncated toward zero after that rounding; to float, exact. */
#ifndef ACLNN_CPU_INC_ACLNN_OPDEV_FLOAT4_E2M1_H
#define ACLNN_CPU_INC_ACLNN_OPDEV_FLOAT4_E2M1_H

#ifdef __cplusplus

#include <cstdint>
#include <limits>
#include <ostream>

#include "small_float_limits.h"

namespace op {

struct Float4E2M1 {
    struct FromBitsTag {};
    static constexpr FromBitsTag FromBits() { return FromBitsTag(); }

    uint8_t value;

    static constexpr uint8_t HIGHEST_VALUE = 0x07;  // 6.0
    static constexpr uint8_t LOWEST_VALUE = 0x0F;  // -6.0
    static constexpr uint8_t MIN_POS_NORMAL_VALUE = 0x02;  // 1.0
    static constexpr uint8_t BITS_MASK = 0x0F;  // the 4 bits in use
    static constexpr uint8_t EPSILON_VALUE = 0x01;  // 0.5

    constexpr Float4E2M1() : value(0) {}
    constexpr Float4E2M1(uint8_t bits, FromBitsTag)
        : value(bits & BITS_MASK) {}
    Float4E2M1(float v);

    operator float() const;
    operator double() const;

    static constexpr Float4E2M1 Epsilon() { return Float4E2M1(EPSILON_VALUE, FromBits()); }
    static constexpr Float4E2M1 Highest() { return Float4E2M1(HIGHEST_VALUE, FromBits()); }
    static constexpr Float4E2M1 Lowest() { return Float4E2M1(LOWEST_VALUE, FromBits()); }
    static constexpr Float4E2M1 MinPositiveNormal() { return Float4E2M1(MIN_POS_NORMAL_VALUE, FromBits()); }

    bool IsZero() const;
    bool IsNaN() const;
    bool IsInf() const;
};

inline std::ostream& operator<<(std::ostream& os, const Float4E2M1& dt) { return os << static_cast<float>(dt); }

}  // namespace op

namespace std {

inline bool isinf(const op::Float4E2M1&) { return false; }
inline bool isnan(const op::Float4E2M1&) { return false; }
inline bool isfinite(const op::Float4E2M1&) { return true; }

template <>
class numeric_limits<op::Float4E2M1> : public op::small_float_detail::SignedSmallFloatLimits<op::Float4E2M1> {
public:
    static constexpr bool has_infinity = false;
    static constexpr bool has_quiet_NaN = false;
    static constexpr int digits = 1;
    static constexpr int digits10 = 0;
    static constexpr int max_digits10 = 1;
    static constexpr int min_exponent = -2;
    static constexpr int min_exponent10 = 0;
    static constexpr int max_exponent = 2;
    static constexpr int max_exponent10 = 0;
    static constexpr float denorm_min() { return 0.5f; }
    static constexpr op::Float4E2M1 infinity() { return op::Float4E2M1::Highest(); }
    static constexpr op::Float4E2M1 quiet_NaN() { return op::Float4E2M1(0x00, op::Float4E2M1::FromBits()); }
    static constexpr op::Float4E2M1 signaling_NaN() { return quiet_NaN(); }
};

}  // namespace std

#endif /* __cplusplus */

#endif /* ACLNN_CPU_INC_ACLNN_OPDEV_FLOAT4_E2M1_H */
