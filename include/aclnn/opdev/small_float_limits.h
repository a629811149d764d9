/* aclnn-cpu: what std::numeric_limits says alike for every small floating-point type of the opdev headers
 * (float4_e1m2.h ... hifloat8.h), so each header states only what differs. C++ only; not a CANN header. */
#ifndef ACLNN_CPU_INC_ACLNN_OPDEV_SMALL_FLOAT_LIMITS_H
#define ACLNN_CPU_INC_ACLNN_OPDEV_SMALL_FLOAT_LIMITS_H

#ifdef __cplusplus

#include <limits>

namespace op {
namespace small_float_detail {

/* The members every one of these types shares: a bounded, inexact, non-IEEE, radix-2 type with at most one
 * kind of NaN. */
struct CommonLimits {
    static constexpr bool is_specialized = true;
    static constexpr bool is_bounded = true;
    static constexpr bool is_integer = false;
    static constexpr bool is_iec559 = false;
    static constexpr bool is_modulo = false;
    static constexpr int radix = 2;
};

/* The members of the MX-style types (sign, exponent, mantissa; everything but E8M0 and HiFloat8), which name
 * their extremes the same way. */
template <typename T>
struct SignedSmallFloatLimits : CommonLimits {
    static constexpr bool is_exact = false;
    static constexpr bool is_signed = true;
    static constexpr bool has_signaling_NaN = false;
    static constexpr float round_error() { return 0.5f; }
    static constexpr T min() { return T::MinPositiveNormal(); }
    static constexpr T lowest() { return T::Lowest(); }
    static constexpr T max() { return T::Highest(); }
    static constexpr T epsilon() { return T::Epsilon(); }
};

}  // namespace small_float_detail
}  // namespace op

#endif /* __cplusplus */

#endif /* ACLNN_CPU_INC_ACLNN_OPDEV_SMALL_FLOAT_LIMITS_H */
