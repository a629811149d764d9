/* aclnn-cpu: op::Float8E4M3FN, an 8-bit floating-point type of CANN's opdev headers (C++ only):
 * 1 sign, 4 exponent (bias 7), 3 mantissa bits (OCP FP8 E4M3, "finite").
 * Values: subnormals from 2^-9, normals 2^-6 .. 448 (both signs). NaN is 0x7F and 0xFF; no infinity.
 * Conversions live in libnnopbase and follow CANN's rules (docs/compatibility.md, "Small floating-point
 * types"): from float, round to nearest even, subnormal results truncated toward zero after that rounding,
 * and, as CANN's libnnopbase does, every value that rounds to exponent 15 (from 248 up) saturates to 448;
 * to float, exact. */
#ifndef ACLNN_CPU_INC_ACLNN_OPDEV_FLOAT8_E4M3FN_H
#define ACLNN_CPU_INC_ACLNN_OPDEV_FLOAT8_E4M3FN_H

#ifdef __cplusplus

#include <cstdint>
#include <limits>
#include <ostream>

#include "small_float_limits.h"

namespace op {

struct Float8E4M3FN {
    struct FromBitsTag {};
    static constexpr FromBitsTag FromBits() { return FromBitsTag(); }

    uint8_t value;

    static constexpr uint8_t NAN_VALUE = 0x7F;  // NaN
    static constexpr uint8_t HIGHEST_VALUE = 0x7E;  // 448
    static constexpr uint8_t LOWEST_VALUE = 0xFE;  // -448
    static constexpr uint8_t EPSILON_VALUE = 0x20;  // 0.125
    static constexpr uint8_t MIN_POS_NORMAL_VALUE = 0x08;  // 2^-6

    constexpr Float8E4M3FN() : value(0) {}
    constexpr Float8E4M3FN(uint8_t bits, FromBitsTag)
        : value(bits) {}
    Float8E4M3FN(float v);

    operator float() const;
    operator double() const;

    static constexpr Float8E4M3FN Epsilon() { return Float8E4M3FN(EPSILON_VALUE, FromBits()); }
    static constexpr Float8E4M3FN Highest() { return Float8E4M3FN(HIGHEST_VALUE, FromBits()); }
    static constexpr Float8E4M3FN Lowest() { return Float8E4M3FN(LOWEST_VALUE, FromBits()); }
    static constexpr Float8E4M3FN MinPositiveNormal() { return Float8E4M3FN(MIN_POS_NORMAL_VALUE, FromBits()); }

    bool IsZero() const;
    bool IsNaN() const;
    bool IsInf() const;
};

inline std::ostream& operator<<(std::ostream& os, const Float8E4M3FN& dt) { return os << static_cast<float>(dt); }

}  // namespace op

namespace std {

inline bool isinf(const op::Float8E4M3FN&) { return false; }
inline bool isnan(const op::Float8E4M3FN& a) { return a.IsNaN(); }
inline bool isfinite(const op::Float8E4M3FN& a) { return !a.IsNaN(); }

template <>
class numeric_limits<op::Float8E4M3FN> : public op::small_float_detail::SignedSmallFloatLimits<op::Float8E4M3FN> {
public:
    static constexpr bool has_infinity = false;
    static constexpr bool has_quiet_NaN = true;
    static constexpr int digits = 3;
    static constexpr int digits10 = 0;
    static constexpr int max_digits10 = 2;
    static constexpr int min_exponent = -6;
    static constexpr int min_exponent10 = -1;
    static constexpr int max_exponent = 9;
    static constexpr int max_exponent10 = 2;
    static constexpr float denorm_min() { return 0.001953125f; }
    static constexpr op::Float8E4M3FN infinity() { return op::Float8E4M3FN::Highest(); }
    static constexpr op::Float8E4M3FN quiet_NaN() {
        return op::Float8E4M3FN(op::Float8E4M3FN::NAN_VALUE, op::Float8E4M3FN::FromBits());
    }
    static constexpr op::Float8E4M3FN signaling_NaN() { return quiet_NaN(); }
};

}  // namespace std

#endif /* __cplusplus */

#endif /* ACLNN_CPU_INC_ACLNN_OPDEV_FLOAT8_E4M3FN_H */
