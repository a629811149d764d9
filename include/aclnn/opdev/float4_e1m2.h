/* aclnn-cpu: op::Float4E1M2, a 4-bit floating-point type of CANN's opdev headers (C++ only):
 * 1 sign, 1 exponent (bias 1), 2 mantissa bits.
 * Values: subnormals 0.25, 0.5, 0.75 and normals 1.0 .. 1.75 (both signs). No infinity, no NaN.
 * Conversions live in libnnopbase and follow CANN's rules (docs/compatibility.md, "Small floating-point
 * types"): from float, round to nearest even, values past the largest saturate, and subnormal results
 * are truncated toward zero after that rounding; to float, exact. */
#ifndef ACLNN_CPU_INC_ACLNN_OPDEV_FLOAT4_E1M2_H
#define ACLNN_CPU_INC_ACLNN_OPDEV_FLOAT4_E1M2_H

#ifdef __cplusplus

#include <cstdint>
#include <limits>
#include <ostream>

#include "small_float_limits.h"

namespace op {

struct Float4E1M2 {
    struct FromBitsTag {};
    static constexpr FromBitsTag FromBits() { return FromBitsTag(); }

    uint8_t value;

    static constexpr uint8_t BITS_MASK = 0x0F;  // the 4 bits in use
    static constexpr uint8_t HIGHEST_VALUE = 0x07;  // 1.75
    static constexpr uint8_t LOWEST_VALUE = 0x0F;  // -1.75
    static constexpr uint8_t MIN_POS_NORMAL_VALUE = 0x04;  // 1.0
    static constexpr uint8_t EPSILON_VALUE = 0x01;  // 0.25

    constexpr Float4E1M2() : value(0) {}
    constexpr Float4E1M2(uint8_t bits, FromBitsTag)
        : value(bits & BITS_MASK) {}
    Float4E1M2(float v);

    operator float() const;
    operator double() const;

    static constexpr Float4E1M2 Epsilon() { return Float4E1M2(EPSILON_VALUE, FromBits()); }
    static constexpr Float4E1M2 Highest() { return Float4E1M2(HIGHEST_VALUE, FromBits()); }
    static constexpr Float4E1M2 Lowest() { return Float4E1M2(LOWEST_VALUE, FromBits()); }
    static constexpr Float4E1M2 MinPositiveNormal() { return Float4E1M2(MIN_POS_NORMAL_VALUE, FromBits()); }

    bool IsZero() const;
    bool IsNaN() const;
    bool IsInf() const;
};

inline std::ostream& operator<<(std::ostream& os, const Float4E1M2& dt) { return os << static_cast<float>(dt); }

}  // namespace op

namespace std {

inline bool isinf(const op::Float4E1M2&) { return false; }
inline bool isnan(const op::Float4E1M2& a) { return a.IsNaN(); }
inline bool isfinite(const op::Float4E1M2& a) { return !a.IsNaN(); }

template <>
class numeric_limits<op::Float4E1M2> : public op::small_float_detail::SignedSmallFloatLimits<op::Float4E1M2> {
public:
    static constexpr bool has_infinity = false;
    static constexpr bool has_quiet_NaN = false;
    static constexpr int digits = 2;
    static constexpr int digits10 = 0;
    static constexpr int max_digits10 = 1;
    static constexpr int min_exponent = 0;
    static constexpr int min_exponent10 = 0;
    static constexpr int max_exponent = 0;
    static constexpr int max_exponent10 = 0;
    static constexpr float denorm_min() { return 0.25f; }
    static constexpr op::Float4E1M2 infinity() { return op::Float4E1M2::Highest(); }
    static constexpr op::Float4E1M2 quiet_NaN() { return op::Float4E1M2(0x00, op::Float4E1M2::FromBits()); }
    static constexpr op::Float4E1M2 signaling_NaN() { return quiet_NaN(); }
};

}  // namespace std

#endif /* __cplusplus */

#endif /* ACLNN_CPU_INC_ACLNN_OPDEV_FLOAT4_E1M2_H */
