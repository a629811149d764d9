#include "opdev/small_float_codec.h"

#include <cmath>
#include <limits>

#include "common/float_convert.h"

namespace aclnn_cpu::opdev {
namespace {

constexpr int kFloatMantissaBits = 23;
constexpr uint32_t kFloatMantissaMask = (1u << kFloatMantissaBits) - 1;
constexpr int kFloatBias = 127;

// A finite, non-zero float as 2^exponent * 1.mantissa (23 mantissa bits), subnormals normalised.
struct Normalised {
    int exponent;
    uint32_t mantissa;
};

Normalised Normalise(uint32_t bits) {
    const uint32_t biased = (bits >> kFloatMantissaBits) & 0xFFu;
    uint32_t mantissa = bits & kFloatMantissaMask;
    if (biased != 0) return {static_cast<int>(biased) - kFloatBias, mantissa};
    int exponent = 1 - kFloatBias;
    while ((mantissa & (1u << kFloatMantissaBits)) == 0) {
        mantissa <<= 1;
        --exponent;
    }
    return {exponent, mantissa & kFloatMantissaMask};
}

}  // namespace

uint8_t EncodeSmallFloat(const SmallFloatLayout& layout, float value) {
    if (std::isnan(value)) return layout.nan;
    const uint32_t bits = FloatBits(value);
    const uint8_t sign = static_cast<uint8_t>((bits >> 31) << layout.sign_bit);
    if ((bits & 0x7FFFFFFFu) == 0) return sign;
    if (std::isinf(value)) return static_cast<uint8_t>(sign | layout.saturated);
    const int m = layout.mantissa_bits;
    const Normalised normalised = Normalise(bits);
    int exponent = normalised.exponent + layout.exponent_bias;
    // Round the 23-bit mantissa to m bits, to nearest even.
    const int dropped = kFloatMantissaBits - m;
    uint32_t mantissa = normalised.mantissa >> dropped;
    const uint32_t remainder = normalised.mantissa & ((1u << dropped) - 1);
    const uint32_t half = 1u << (dropped - 1);
    if (remainder > half || (remainder == half && (mantissa & 1u) != 0)) {
        if (++mantissa == (1u << m)) {
            mantissa = 0;
            ++exponent;
        }
    }
    if (exponent <= 0) {
        // CANN shifts the already rounded mantissa into the subnormal range, dropping bits: a second rounding,
        // toward zero.
        if (exponent < -m) return sign;
        mantissa = (mantissa | (1u << m)) >> (1 - exponent);
        exponent = 0;
    } else if (exponent >= layout.overflow_exponent) {
        return static_cast<uint8_t>(sign | layout.saturated);
    }
    return static_cast<uint8_t>(sign | (static_cast<uint32_t>(exponent) << m) | mantissa);
}

float DecodeSmallFloat(const SmallFloatLayout& layout, uint8_t bits) {
    if (layout.is_nan != nullptr && layout.is_nan(bits)) return std::numeric_limits<float>::quiet_NaN();
    const bool negative = ((bits >> layout.sign_bit) & 1u) != 0;
    if (layout.is_inf != nullptr && layout.is_inf(bits)) {
        return negative ? -std::numeric_limits<float>::infinity() : std::numeric_limits<float>::infinity();
    }
    const int m = layout.mantissa_bits;
    const int exponent_bits = layout.sign_bit - m;
    const uint32_t exponent = (bits >> m) & ((1u << exponent_bits) - 1);
    const uint32_t mantissa = bits & ((1u << m) - 1);
    // Exact in float: at most 4 significant bits, exponents far inside float's range.
    const float magnitude =
        exponent == 0 ? std::ldexp(static_cast<float>(mantissa), 1 - layout.exponent_bias - m)
                      : std::ldexp(static_cast<float>((1u << m) | mantissa),
                                   static_cast<int>(exponent) - layout.exponent_bias - m);
    return negative ? -magnitude : magnitude;
}

// E8M0: a biased power of two, 0x00 zero, 0xFF NaN, 0xFE the largest.
uint8_t EncodeE8M0(float value) {
    if (std::isnan(value)) return 0xFF;
    if (value == 0.0f) return 0x00;
    if (value < 0.0f) return 0xFF;  // unsigned: no negative value exists
    if (std::isinf(value)) return 0xFE;
    const uint32_t bits = FloatBits(value);
    uint32_t exponent = bits >> kFloatMantissaBits;
    // The nearer power of two by the mantissa alone: 1.5 * 2^e and above round up (not the geometric mean).
    if ((bits & kFloatMantissaMask) >= (1u << (kFloatMantissaBits - 1))) ++exponent;
    if (exponent > 0xFE) return 0xFE;
    return static_cast<uint8_t>(exponent);  // 0 for subnormals under 2^-127: zero
}

float DecodeE8M0(uint8_t bits) {
    if (bits == 0x00) return 0.0f;  // CANN's zero (OCP reads 0x00 as 2^-127)
    if (bits == 0xFF) return std::numeric_limits<float>::quiet_NaN();
    return BitsToFloat(static_cast<uint32_t>(bits) << kFloatMantissaBits);
}

// HiFloat8 (hifloat8.h has the layout). The mantissa width for each |exponent|: 3 bits up to 3, 2 up to 7,
// 1 up to 15, none for the denormal codes (16 .. 22).
namespace {

constexpr int kHiF8MinExponent = -22;
constexpr int kHiF8MaxExponent = 15;
constexpr uint8_t kHiF8Nan = 0x80;
constexpr uint8_t kHiF8Inf = 0x6F;

int HiF8MantissaBits(int magnitude) {
    if (magnitude <= 3) return 3;
    if (magnitude <= 7) return 2;
    if (magnitude <= 15) return 1;
    return 0;
}

// The code of +2^exponent * (1 + mantissa / 2^width), exponent in [-22, 15].
uint8_t HiF8Code(int exponent, uint32_t mantissa) {
    if (exponent <= -16) return static_cast<uint8_t>(exponent + 23);  // 0 0000 kkk: 2^(k - 23)
    const int magnitude = exponent < 0 ? -exponent : exponent;
    const uint32_t negative = exponent < 0 ? 1u : 0u;
    if (magnitude == 0) return static_cast<uint8_t>(0x08u | mantissa);  // 0 0001 mmm
    if (magnitude == 1) return static_cast<uint8_t>(0x10u | (negative << 3) | mantissa);  // 0 001 s mmm
    if (magnitude <= 3) {  // 0 01 s e mmm
        return static_cast<uint8_t>(0x20u | (negative << 4) | ((magnitude & 1u) << 3) | mantissa);
    }
    if (magnitude <= 7) {  // 0 10 s ee mm
        return static_cast<uint8_t>(0x40u | (negative << 4) | ((magnitude & 3u) << 2) | mantissa);
    }
    return static_cast<uint8_t>(0x60u | (negative << 4) | ((magnitude & 7u) << 1) | mantissa);  // 0 11 s eee m
}

}  // namespace

uint8_t EncodeHiFloat8(uint32_t float_bits) {
    const float value = BitsToFloat(float_bits);
    if (std::isnan(value)) return kHiF8Nan;
    if ((float_bits & 0x7FFFFFFFu) == 0) return 0x00;  // HiF8 has one zero
    const uint8_t sign = (float_bits >> 31) != 0 ? 0x80 : 0x00;
    if (std::isinf(value)) return static_cast<uint8_t>(sign | kHiF8Inf);
    const Normalised normalised = Normalise(float_bits);
    int exponent = normalised.exponent;
    if (exponent < kHiF8MinExponent - 1) return 0x00;
    if (exponent > kHiF8MaxExponent) return static_cast<uint8_t>(sign | kHiF8Inf);
    // Round half away from zero to the width of this exponent. Just below 2^-22 the width is "-1": half of
    // 2^-22 and more rounds up to it.
    const int magnitude = exponent < 0 ? -exponent : exponent;
    const int dropped = kFloatMantissaBits - (magnitude == -kHiF8MinExponent + 1 ? -1 : HiF8MantissaBits(magnitude));
    uint32_t mantissa = normalised.mantissa + (1u << (dropped - 1));
    if (mantissa > kFloatMantissaMask) {
        mantissa &= kFloatMantissaMask;
        if (++exponent > kHiF8MaxExponent) return static_cast<uint8_t>(sign | kHiF8Inf);
    }
    return static_cast<uint8_t>(sign | HiF8Code(exponent, dropped >= 32 ? 0 : mantissa >> dropped));
}

float DecodeHiFloat8(uint8_t bits) {
    if (bits == kHiF8Nan) return std::numeric_limits<float>::quiet_NaN();
    const bool negative = (bits & 0x80u) != 0;
    const uint32_t magnitude_bits = bits & 0x7Fu;
    if (magnitude_bits == kHiF8Inf) {
        return negative ? -std::numeric_limits<float>::infinity() : std::numeric_limits<float>::infinity();
    }
    int exponent = 0;
    int width = 3;  // mantissa bits
    if ((magnitude_bits >> 3) == 0) {  // denormal codes and zero
        if (magnitude_bits == 0) return 0.0f;
        const float power = std::ldexp(1.0f, static_cast<int>(magnitude_bits) - 23);
        return negative ? -power : power;
    }
    if ((magnitude_bits >> 3) == 1) {  // 0001: exponent 0
        exponent = 0;
    } else if ((magnitude_bits >> 4) == 1) {  // 001 s: +-1
        exponent = (magnitude_bits & 0x08u) != 0 ? -1 : 1;
    } else {
        const uint32_t prefix = magnitude_bits >> 5;  // 01, 10, 11: 2, 3 or 4 exponent bits
        const int exponent_bits = static_cast<int>(prefix) + 1;
        width = prefix == 1 ? 3 : prefix == 2 ? 2 : 1;
        const uint32_t field = (magnitude_bits >> width) & ((1u << exponent_bits) - 1);
        const uint32_t top = 1u << (exponent_bits - 1);
        const int value = static_cast<int>(top | (field & (top - 1)));  // the implied leading 1
        exponent = (field & top) != 0 ? -value : value;
    }
    const uint32_t mantissa = magnitude_bits & ((1u << width) - 1);
    const float result = std::ldexp(static_cast<float>((1u << width) | mantissa), exponent - width);
    return negative ? -result : result;
}

}  // namespace aclnn_cpu::opdev
