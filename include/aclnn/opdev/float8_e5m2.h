/* aclnn-cpu: op::Float8E5M2, an 8-bit floating-point type of CANN's opdev headers (C++ only):
 * 1 sign, 5 exponent (bias 15), 2 mantissa bits (OCP FP8 E5M2).
 * Values: subnormals from 2^-16, normals 2^-14 .. 57344, +-infinity (0x7C, 0xFC), NaN (exponent 31,
 * mantissa not 0).
 * Conversions live in libnnopbase and follow CANN's rules (docs/compatibility.md, "Small floating-point
 * types"): from float, round to nearest even, values past the largest saturate to infinity, and subnormal
 * results are truncated toward zero after that rounding; to float, exact. */
#ifndef ACLNN_CPU_INC_ACLNN_OPDEV_FLOAT8_E5M2_H
#define ACLNN_CPU_INC_ACLNN_OPDEV_FLOAT8_E5M2_H

#ifdef __cplusplus

#include <cstdint>
#include <limits>
#include <ostream>

#include "small_float_limits.h"

namespace op {

struct Float8E5M2 {
    struct FromBitsTag {};
    static constexpr FromBitsTag FromBits() { return FromBitsTag(); }

    uint8_t value;

    static constexpr uint8_t INF_VALUE = 0x7C;  // +infinity
    static constexpr uint8_t NAN_VALUE = 0x7F;  // NaN
    static constexpr uint8_t HIGHEST_VALUE = 0x7B;  // 57344
    static constexpr uint8_t LOWEST_VALUE = 0xFB;  // -57344
    static constexpr uint8_t EPSILON_VALUE = 0x34;  // 0.25
    static constexpr uint8_t MIN_POS_NORMAL_VALUE = 0x04;  // 2^-14

    constexpr Float8E5M2() : value(0) {}
    constexpr Float8E5M2(uint8_t bits, FromBitsTag)
        : value(bits) {}
    Float8E5M2(float v);

    operator float() const;
    operator double() const;

    static constexpr Float8E5M2 Epsilon() { return Float8E5M2(EPSILON_VALUE, FromBits()); }
    static constexpr Float8E5M2 Highest() { return Float8E5M2(HIGHEST_VALUE, FromBits()); }
    static constexpr Float8E5M2 Lowest() { return Float8E5M2(LOWEST_VALUE, FromBits()); }
    static constexpr Float8E5M2 MinPositiveNormal() { return Float8E5M2(MIN_POS_NORMAL_VALUE, FromBits()); }

    bool IsZero() const;
    bool IsNaN() const;
    bool IsInf() const;
};

inline std::ostream& operator<<(std::ostream& os, const Float8E5M2& dt) { return os << static_cast<float>(dt); }

}  // namespace op

namespace std {

inline bool isinf(const op::Float8E5M2& a) { return a.IsInf(); }
inline bool isnan(const op::Float8E5M2& a) { return a.IsNaN(); }
inline bool isfinite(const op::Float8E5M2& a) { return !a.IsNaN() && !a.IsInf(); }

template <>
class numeric_limits<op::Float8E5M2> : public op::small_float_detail::SignedSmallFloatLimits<op::Float8E5M2> {
public:
    static constexpr bool has_infinity = true;
    static constexpr bool has_quiet_NaN = true;
    static constexpr int digits = 2;
    static constexpr int digits10 = 0;
    static constexpr int max_digits10 = 1;
    static constexpr int min_exponent = -14;
    static constexpr int min_exponent10 = -4;
    static constexpr int max_exponent = 16;
    static constexpr int max_exponent10 = 4;
    static constexpr float denorm_min() { return 0.0000152587890625f; }
    static constexpr op::Float8E5M2 infinity() {
        return op::Float8E5M2(op::Float8E5M2::INF_VALUE, op::Float8E5M2::FromBits());
    }
    static constexpr op::Float8E5M2 quiet_NaN() {
        return op::Float8E5M2(op::Float8E5M2::NAN_VALUE, op::Float8E5M2::FromBits());
    }
    static constexpr op::Float8E5M2 signaling_NaN() { return quiet_NaN(); }
};

}  // namespace std

#endif /* __cplusplus */

#endif /* ACLNN_CPU_INC_ACLNN_OPDEV_FLOAT8_E5M2_H */
