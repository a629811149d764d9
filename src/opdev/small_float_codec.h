// The conversions behind the small floating-point types of the opdev headers (float4_e1m2.h ... hifloat8.h),
// as CANN's libnnopbase makes them. The formats with a sign, an exponent and a mantissa share one codec
// described by a SmallFloatLayout; E8M0 and HiFloat8 have codecs of their own.
#pragma once

#include <cstdint>

namespace aclnn_cpu::opdev {

struct SmallFloatLayout {
    int mantissa_bits;
    int exponent_bias;
    int sign_bit;             // the bit index of the sign
    int overflow_exponent;    // a biased exponent this large (after rounding) saturates
    uint8_t saturated;        // the magnitude bits of an overflow or an infinity: the largest value, or infinity
    uint8_t nan;              // the bits a NaN becomes: a NaN pattern, or +largest where the format has no NaN
    bool (*is_nan)(uint8_t);  // which patterns decode to NaN, and to +-infinity (nullptr: none)
    bool (*is_inf)(uint8_t);
};

// CANN's rounding: the mantissa to nearest even at the value's own exponent; a biased exponent of 0 or less
// then shifts that rounded mantissa right into the subnormal range, truncating; an exponent at or past
// overflow_exponent saturates. Signed zeros keep their sign.
uint8_t EncodeSmallFloat(const SmallFloatLayout& layout, float value);
// Exact: every pattern is a float (or NaN, +-infinity where the layout says so).
float DecodeSmallFloat(const SmallFloatLayout& layout, uint8_t bits);

uint8_t EncodeE8M0(float value);
float DecodeE8M0(uint8_t bits);

uint8_t EncodeHiFloat8(uint32_t float_bits);
float DecodeHiFloat8(uint8_t bits);

}  // namespace aclnn_cpu::opdev
