// The small floating-point types of the opdev headers (float4_e1m2.h ... hifloat8.h) against a float64 model
// written from the formats' definitions, not from the library's bit manipulation: every pattern converts to
// float exactly as the model's value table says, and float converts as CANN's rules say at every rounding
// boundary (each representable value, each midpoint, and the floats on either side of both), at the
// saturation and underflow edges, for the special values, and over a sweep of all float bit patterns.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "aclnn/opdev/float4_e1m2.h"
#include "aclnn/opdev/float4_e2m1.h"
#include "aclnn/opdev/float6_e2m3.h"
#include "aclnn/opdev/float6_e3m2.h"
#include "aclnn/opdev/float8_e4m3fn.h"
#include "aclnn/opdev/float8_e5m2.h"
#include "aclnn/opdev/float8_e8m0.h"
#include "aclnn/opdev/hifloat4.h"
#include "aclnn/opdev/hifloat8.h"

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

bool SameValue(double a, double b) {
    return (std::isnan(a) && std::isnan(b)) || (a == b && std::signbit(a) == std::signbit(b));
}

float FloatFromBits(uint32_t bits) {
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

uint32_t BitsOf(float value) {
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
}

// A format under test: the model (decode each code, encode a float) and the library's two directions.
struct Format {
    std::string name;
    int bits;
    std::function<double(uint32_t)> model_decode;
    std::function<uint32_t(float)> model_encode;
    std::function<double(uint32_t)> decode;
    std::function<uint32_t(float)> encode;
};

// ---- the model of the sign / exponent / mantissa formats -------------------------------------------------

struct MiniFloatModel {
    int exponent_bits;
    int mantissa_bits;
    int bias;
    std::vector<uint32_t> nan_codes;  // both signs
    std::vector<uint32_t> inf_codes;  // +inf first
    uint32_t nan_becomes;             // the code a NaN input gives
    uint32_t saturated;               // the magnitude code of values too large, and of +-inf
    double saturate_from;             // magnitudes that round to this or more saturate

    int sign_shift() const { return exponent_bits + mantissa_bits; }

    double Decode(uint32_t code) const {
        if (std::find(nan_codes.begin(), nan_codes.end(), code) != nan_codes.end()) return kNaN;
        const bool negative = (code >> sign_shift()) & 1u;
        if (!inf_codes.empty() && (code & ((1u << sign_shift()) - 1)) == inf_codes[0]) return negative ? -kInf : kInf;
        const uint32_t exponent = (code >> mantissa_bits) & ((1u << exponent_bits) - 1);
        const double fraction = static_cast<double>(code & ((1u << mantissa_bits) - 1)) / std::pow(2.0, mantissa_bits);
        const double magnitude = exponent == 0 ? fraction * std::pow(2.0, 1 - bias)
                                               : (1.0 + fraction) * std::pow(2.0, static_cast<int>(exponent) - bias);
        return negative ? -magnitude : magnitude;
    }

    // CANN's rule in value terms: round to nearest even with mantissa_bits bits at the value's own binade;
    // from saturate_from up, saturate; below the smallest normal, truncate that rounded value toward zero
    // onto the subnormal grid.
    uint32_t Encode(float input, const std::map<double, uint32_t>& code_of) const {
        const double x = input;
        const uint32_t sign = std::signbit(x) ? 1u << sign_shift() : 0u;
        if (std::isnan(x)) return nan_becomes;
        if (x == 0) return sign;
        if (std::isinf(x)) return sign | saturated;
        const double magnitude = std::fabs(x);
        const int binade = std::ilogb(magnitude);
        const double step = std::pow(2.0, binade - mantissa_bits);
        const double rounded = std::nearbyint(magnitude / step) * step;
        if (rounded >= saturate_from) return sign | saturated;
        const double min_normal = std::pow(2.0, 1 - bias);
        if (rounded < min_normal) {
            const double subnormal_step = std::pow(2.0, 1 - bias - mantissa_bits);
            return sign | static_cast<uint32_t>(std::floor(rounded / subnormal_step));
        }
        return sign | code_of.at(rounded);
    }
};

template <typename T>
Format MiniFloatFormat(const std::string& name, const MiniFloatModel& model) {
    auto code_of = std::make_shared<std::map<double, uint32_t>>();
    const int width = model.sign_shift() + 1;
    for (uint32_t code = 0; code < (1u << model.sign_shift()); ++code) {
        const double value = model.Decode(code);
        if (std::isfinite(value)) code_of->emplace(value, code);
    }
    return Format{name,
                  width,
                  [model](uint32_t code) { return model.Decode(code); },
                  [model, code_of](float x) { return model.Encode(x, *code_of); },
                  [](uint32_t code) { return static_cast<double>(static_cast<float>(T(code, T::FromBits()))); },
                  [](float x) { return static_cast<uint32_t>(T(x).value); }};
}

// ---- E8M0: powers of two ---------------------------------------------------------------------------------

double E8M0Decode(uint32_t code) {
    if (code == 0xFF) return kNaN;
    if (code == 0) return 0.0;  // CANN reads 0x00 as zero
    return std::pow(2.0, static_cast<int>(code) - 127);
}

// The nearer power of two judged by the mantissa: a value of 1.5 * 2^e or more goes up.
uint32_t E8M0Encode(float input) {
    const double x = input;
    if (std::isnan(x) || x < 0) return 0xFF;
    if (x == 0) return 0x00;
    if (std::isinf(x)) return 0xFE;
    if (x < std::pow(2.0, -126)) return x >= std::pow(2.0, -127) ? 1u : 0u;  // float subnormals
    const int binade = std::ilogb(x);
    const double fraction = x / std::pow(2.0, binade) - 1.0;
    const int code = binade + 127 + (fraction >= 0.5 ? 1 : 0);
    return static_cast<uint32_t>(std::min(code, 0xFE));
}

// ---- HiFloat8: a prefix code for the exponent's width -----------------------------------------------------

double HiF8Decode(uint32_t code) {
    if (code == 0x80) return kNaN;
    const double sign = (code & 0x80u) != 0 ? -1.0 : 1.0;
    if ((code & 0x7Fu) == 0x6Fu) return sign * kInf;
    const uint32_t low7 = code & 0x7Fu;
    const uint32_t prefix4 = low7 >> 3;
    if (prefix4 == 0) return low7 == 0 ? 0.0 : sign * std::pow(2.0, static_cast<int>(low7) - 23);
    // prefix -> (its length, exponent field width)
    int prefix_length = 0, dot = 0;
    if (prefix4 == 0b0001) {
        prefix_length = 4, dot = 0;
    } else if ((prefix4 >> 1) == 0b001) {
        prefix_length = 3, dot = 1;
    } else {
        prefix_length = 2, dot = static_cast<int>(prefix4 >> 2) + 1;  // 01 -> 2, 10 -> 3, 11 -> 4
    }
    const int mantissa_width = 7 - prefix_length - dot;
    const uint32_t field = (low7 >> mantissa_width) & ((1u << dot) - 1);
    int exponent = 0;
    if (dot > 0) {
        const uint32_t sign_bit = 1u << (dot - 1);
        const int magnitude = static_cast<int>(sign_bit | (field & (sign_bit - 1)));
        exponent = (field & sign_bit) != 0 ? -magnitude : magnitude;
    }
    const double fraction = static_cast<double>(low7 & ((1u << mantissa_width) - 1)) / std::pow(2.0, mantissa_width);
    return sign * (1.0 + fraction) * std::pow(2.0, exponent);
}

// Nearest code with ties away from zero, over the positive codes' values, where 0x6F stands for the place
// 1.5 * 2^15 that it would have held and everything from 2^16 up is infinity too.
uint32_t HiF8Encode(float input) {
    static const std::vector<std::pair<double, uint32_t>> table = [] {
        std::vector<std::pair<double, uint32_t>> t;
        for (uint32_t code = 0; code < 0x80; ++code) {
            if (code != 0x6F) t.emplace_back(HiF8Decode(code), code);
        }
        t.emplace_back(1.5 * 32768.0, 0x6F);
        t.emplace_back(65536.0, 0x6F);
        std::sort(t.begin(), t.end());
        return t;
    }();
    const double x = input;
    if (std::isnan(x)) return 0x80;
    const uint32_t sign = std::signbit(x) ? 0x80u : 0u;
    const double magnitude = std::fabs(x);
    uint32_t code = 0x6F;
    if (magnitude < table.back().first) {
        auto upper = std::upper_bound(table.begin(), table.end(), std::make_pair(magnitude, 0xFFu));
        auto lower = upper - 1;
        code = magnitude >= (lower->first + upper->first) / 2 ? upper->second : lower->second;
    }
    return code == 0 ? 0u : sign | code;
}

std::vector<Format> AllFormats() {
    // {exponent bits, mantissa bits, bias, NaN codes, inf codes, NaN becomes, saturated, saturate from}
    return {
        MiniFloatFormat<op::Float4E1M2>("Float4E1M2", {1, 2, 1, {}, {}, 0x07, 0x07, 2.0}),
        MiniFloatFormat<op::Float4E2M1>("Float4E2M1", {2, 1, 1, {}, {}, 0x07, 0x07, 8.0}),
        MiniFloatFormat<op::Float6E2M3>("Float6E2M3", {2, 3, 1, {}, {}, 0x1F, 0x1F, 8.0}),
        MiniFloatFormat<op::Float6E3M2>("Float6E3M2", {3, 2, 3, {}, {}, 0x1F, 0x1F, 32.0}),
        MiniFloatFormat<op::HiFloat4>("HiFloat4", {1, 2, 1, {}, {}, 0x07, 0x07, 2.0}),
        // CANN saturates E4M3FN from exponent 15 on: 256 and everything that rounds to it (from 248).
        MiniFloatFormat<op::Float8E4M3FN>("Float8E4M3FN", {4, 3, 7, {0x7F, 0xFF}, {}, 0x7F, 0x7E, 256.0}),
        MiniFloatFormat<op::Float8E5M2>("Float8E5M2", {5, 2, 15, {0x7D, 0x7E, 0x7F, 0xFD, 0xFE, 0xFF}, {0x7C, 0xFC},
                                                       0x7F, 0x7C, 65536.0}),
        Format{"Float8E8M0", 8, E8M0Decode, E8M0Encode,
               [](uint32_t code) {
                   return static_cast<double>(static_cast<float>(op::Float8E8M0(code, op::Float8E8M0::FromBits())));
               },
               [](float x) { return static_cast<uint32_t>(op::Float8E8M0(x).value); }},
        Format{"HiFloat8", 8, HiF8Decode, HiF8Encode,
               [](uint32_t code) {
                   return static_cast<double>(static_cast<float>(op::HiFloat8(code, op::HiFloat8::FromBits())));
               },
               [](float x) { return static_cast<uint32_t>(op::HiFloat8(x).value); }},
    };
}

std::string Describe(float x) {
    std::ostringstream text;
    text.precision(9);
    text << x << " (0x" << std::hex << BitsOf(x) << ")";
    return text.str();
}

// Every value and every midpoint of the format, and the floats on either side of each; then the edges.
std::vector<float> BoundaryInputs(const Format& format) {
    std::vector<double> values;
    for (uint32_t code = 0; code < (1u << format.bits); ++code) {
        const double value = format.model_decode(code);
        if (std::isfinite(value) && value >= 0) values.push_back(value);
    }
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    const double top = values.back();
    values.push_back(top * 1.25);
    values.push_back(top * 1.5);
    values.push_back(top * 2);
    values.push_back(top * 4);
    std::vector<double> points = values;
    for (size_t i = 0; i + 1 < values.size(); ++i) points.push_back((values[i] + values[i + 1]) / 2);
    points.push_back(values[1] / 2);  // half the smallest non-zero value, and a quarter
    points.push_back(values[1] / 4);
    std::vector<float> inputs;
    for (double point : points) {
        const float centre = static_cast<float>(point);
        for (float x : {centre, std::nextafter(centre, 0.0f), std::nextafter(centre, 1e30f)}) {
            inputs.push_back(x);
            inputs.push_back(-x);
        }
    }
    for (float x : {0.0f, std::numeric_limits<float>::denorm_min(), std::numeric_limits<float>::min(),
                    std::numeric_limits<float>::max(), std::numeric_limits<float>::infinity(), 1e-30f, 1e-10f,
                    5.877472e-39f /* 2^-127 */, 5.8774724e-39f, 1.1754942e-38f}) {
        inputs.push_back(x);
        inputs.push_back(-x);
    }
    for (uint32_t nan_bits : {0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0xFFFFFFFFu}) {
        inputs.push_back(FloatFromBits(nan_bits));
    }
    return inputs;
}

class SmallFloatTypes : public testing::TestWithParam<int> {
protected:
    Format format() const { return AllFormats()[GetParam()]; }
};

TEST_P(SmallFloatTypes, EveryPatternConvertsToFloatExactly) {
    const Format f = format();
    for (uint32_t code = 0; code < 256; ++code) {
        // The 4- and 6-bit types keep only their bits; the model sees the same masked code.
        const uint32_t kept = code & ((1u << f.bits) - 1);
        EXPECT_TRUE(SameValue(f.decode(code), f.model_decode(kept)))
            << f.name << " code 0x" << std::hex << code << ": " << f.decode(code) << " vs " << f.model_decode(kept);
    }
}

TEST_P(SmallFloatTypes, FloatConvertsByCannsRulesAtEveryBoundary) {
    const Format f = format();
    const std::vector<float> inputs = BoundaryInputs(f);
    int failures = 0;
    for (float x : inputs) {
        const uint32_t expected = f.model_encode(x);
        const uint32_t actual = f.encode(x);
        if (actual != expected && ++failures <= 20) {
            ADD_FAILURE() << f.name << "(" << Describe(x) << ") = 0x" << std::hex << actual << ", expected 0x"
                          << expected;
        }
    }
    EXPECT_EQ(failures, 0) << f.name << ": " << inputs.size() << " boundary inputs";
}

TEST_P(SmallFloatTypes, FloatConvertsByCannsRulesOverASweepOfAllFloats) {
    const Format f = format();
    std::mt19937 rng(20261201);
    int failures = 0;
    // A stride through every float bit pattern (all exponents, both signs, NaNs), then random patterns.
    std::vector<uint32_t> patterns;
    for (uint64_t bits = 0; bits < (uint64_t{1} << 32); bits += 4099) patterns.push_back(static_cast<uint32_t>(bits));
    for (int i = 0; i < 200000; ++i) patterns.push_back(rng());
    for (uint32_t bits : patterns) {
        const float x = FloatFromBits(bits);
        const uint32_t expected = f.model_encode(x);
        const uint32_t actual = f.encode(x);
        if (actual != expected && ++failures <= 20) {
            ADD_FAILURE() << f.name << "(" << Describe(x) << ") = 0x" << std::hex << actual << ", expected 0x"
                          << expected;
        }
    }
    EXPECT_EQ(failures, 0) << f.name << ": " << patterns.size() << " patterns";
}

TEST_P(SmallFloatTypes, EveryValueRoundTrips) {
    const Format f = format();
    for (uint32_t code = 0; code < (1u << f.bits); ++code) {
        const double value = f.model_decode(code);
        if (std::isnan(value)) continue;
        // CANN's E4M3FN saturates 256 .. 416 to 448 (CannsDeparturesFromRoundToNearest).
        if (f.name == "Float8E4M3FN" && std::fabs(value) >= 256 && std::fabs(value) < 448) continue;
        const uint32_t back = f.encode(static_cast<float>(value));
        EXPECT_TRUE(SameValue(f.model_decode(back), value)) << f.name << " 0x" << std::hex << code << " -> 0x" << back;
    }
}

INSTANTIATE_TEST_SUITE_P(AllTypes, SmallFloatTypes, testing::Range(0, 9),
                         [](const testing::TestParamInfo<int>& info) { return AllFormats()[info.param].name; });

// The constants, the classification members and the std overloads, as CANN's headers define them.
template <typename T>
void ExpectClassification(const char* name, int bits) {
    for (uint32_t code = 0; code < (1u << bits); ++code) {
        const T value(static_cast<uint8_t>(code), T::FromBits());
        const float f = static_cast<float>(value);
        EXPECT_EQ(value.IsNaN(), std::isnan(f)) << name << " 0x" << std::hex << code;
        EXPECT_EQ(std::isnan(value), std::isnan(f)) << name << " 0x" << std::hex << code;
        EXPECT_EQ(value.IsInf(), std::isinf(f)) << name << " 0x" << std::hex << code;
        EXPECT_EQ(std::isinf(value), std::isinf(f)) << name << " 0x" << std::hex << code;
        EXPECT_EQ(std::isfinite(value), std::isfinite(f)) << name << " 0x" << std::hex << code;
        if (!std::isnan(f)) {
            EXPECT_EQ(value.IsZero(), f == 0.0f) << name << " 0x" << std::hex << code;
        }
        EXPECT_TRUE(SameValue(static_cast<double>(value), f)) << name << " 0x" << std::hex << code;
    }
}

TEST(SmallFloatTypeApi, ClassificationAgreesWithTheValue) {
    ExpectClassification<op::Float4E1M2>("Float4E1M2", 4);
    ExpectClassification<op::Float4E2M1>("Float4E2M1", 4);
    ExpectClassification<op::Float6E2M3>("Float6E2M3", 6);
    ExpectClassification<op::Float6E3M2>("Float6E3M2", 6);
    ExpectClassification<op::HiFloat4>("HiFloat4", 4);
    ExpectClassification<op::Float8E4M3FN>("Float8E4M3FN", 8);
    ExpectClassification<op::Float8E5M2>("Float8E5M2", 8);
    ExpectClassification<op::Float8E8M0>("Float8E8M0", 8);
}

TEST(SmallFloatTypeApi, NamedValuesAndLimits) {
    EXPECT_EQ(static_cast<float>(op::Float4E2M1::Highest()), 6.0f);
    EXPECT_EQ(static_cast<float>(op::Float4E2M1::Lowest()), -6.0f);
    EXPECT_EQ(static_cast<float>(op::Float4E2M1::MinPositiveNormal()), 1.0f);
    EXPECT_EQ(static_cast<float>(op::Float4E2M1::Epsilon()), 0.5f);
    EXPECT_EQ(static_cast<float>(op::Float4E1M2::Highest()), 1.75f);
    EXPECT_EQ(static_cast<float>(op::HiFloat4::Highest()), 1.75f);
    EXPECT_EQ(static_cast<float>(op::Float6E2M3::Highest()), 7.5f);
    EXPECT_EQ(static_cast<float>(op::Float6E3M2::Highest()), 28.0f);
    EXPECT_EQ(static_cast<float>(op::Float6E3M2::MinPositiveNormal()), 0.25f);
    EXPECT_EQ(static_cast<float>(op::Float8E4M3FN::Highest()), 448.0f);
    EXPECT_EQ(static_cast<float>(op::Float8E4M3FN::Lowest()), -448.0f);
    EXPECT_EQ(static_cast<float>(op::Float8E4M3FN::MinPositiveNormal()), 0.015625f);
    EXPECT_EQ(static_cast<float>(op::Float8E5M2::Highest()), 57344.0f);
    EXPECT_EQ(static_cast<float>(op::Float8E5M2::MinPositiveNormal()), 6.103515625e-05f);
    EXPECT_EQ(static_cast<float>(op::Float8E8M0::Highest()), std::ldexp(1.0f, 127));
    EXPECT_EQ(static_cast<float>(op::Float8E8M0::MinPositive()), std::ldexp(1.0f, -126));
    EXPECT_EQ(op::Float8E8M0(8.0f).GetExponent(), 3);
    EXPECT_EQ(op::Float8E8M0(0.0f).GetExponent(), 0);
    EXPECT_EQ(op::HiFloat8(1.0f).value, 0x08);
    EXPECT_EQ(static_cast<float>(std::numeric_limits<op::HiFloat8>::round_error()), 0.5f);
    EXPECT_TRUE(std::numeric_limits<op::HiFloat8>::max().IsInf()) << "CANN's max() is the infinity pattern";
    EXPECT_EQ(static_cast<float>(std::numeric_limits<op::Float8E4M3FN>::infinity()), 448.0f);
    EXPECT_TRUE(std::numeric_limits<op::Float8E5M2>::infinity().IsInf());
    EXPECT_TRUE(std::numeric_limits<op::Float8E4M3FN>::quiet_NaN().IsNaN());
    EXPECT_EQ(std::numeric_limits<op::Float4E2M1>::denorm_min(), 0.5f);
    EXPECT_EQ(std::numeric_limits<op::Float8E4M3FN>::denorm_min(),
              static_cast<float>(op::Float8E4M3FN(0x01, op::Float8E4M3FN::FromBits())));
    EXPECT_EQ(std::numeric_limits<op::Float8E5M2>::denorm_min(),
              static_cast<float>(op::Float8E5M2(0x01, op::Float8E5M2::FromBits())));
    EXPECT_FALSE(std::numeric_limits<op::Float8E8M0>::is_signed);
    EXPECT_TRUE(std::numeric_limits<op::Float6E3M2>::is_signed);
    EXPECT_TRUE(std::numeric_limits<op::Float6E3M2>::is_specialized);
    EXPECT_EQ(op::Float4E2M1(0xF7, op::Float4E2M1::FromBits()).value, 0x07) << "4-bit types keep 4 bits";
    EXPECT_EQ(op::Float6E2M3(0xFF, op::Float6E2M3::FromBits()).value, 0x3F) << "6-bit types keep 6 bits";
    EXPECT_EQ(op::HiFloat8::BitsFromFp32(BitsOf(-2.0f)), op::HiFloat8(-2.0f).value);
    std::ostringstream text;
    text << op::Float8E5M2(1.5f) << " " << op::HiFloat8(-0.75f);
    EXPECT_EQ(text.str(), "1.5 -0.75");
    static_assert(sizeof(op::Float4E2M1) == 1 && sizeof(op::Float8E4M3FN) == 1 && sizeof(op::HiFloat8) == 1, "");
}

// The places where CANN's conversions depart from the OCP/IEEE rounding of the format, pinned so a change
// is noticed (docs/compatibility.md explains each).
TEST(SmallFloatTypeApi, CannsDeparturesFromRoundToNearest) {
    // Subnormal results are truncated after rounding: 0.75 lies halfway between E2M1's 0.5 and 1.0 and would
    // round to the even 1.0; CANN gives 0.5.
    EXPECT_EQ(static_cast<float>(op::Float4E2M1(0.75f)), 0.5f);
    EXPECT_EQ(static_cast<float>(op::Float4E2M1(0.7499999f)), 0.5f);
    // E4M3FN saturates from exponent 15 on: 256 .. 448 are valid codes, but floats there become 448.
    EXPECT_EQ(static_cast<float>(op::Float8E4M3FN(256.0f)), 448.0f);
    EXPECT_EQ(static_cast<float>(op::Float8E4M3FN(248.0f)), 448.0f);
    EXPECT_EQ(static_cast<float>(op::Float8E4M3FN(247.0f)), 240.0f);
    EXPECT_EQ(static_cast<float>(op::Float8E4M3FN(1e9f)), 448.0f);
    // NaN becomes the largest value where a format has no NaN, always positive.
    EXPECT_EQ(static_cast<float>(op::Float4E2M1(-std::numeric_limits<float>::quiet_NaN())), 6.0f);
    // E8M0 rounds up from 1.5 * 2^e (not from the geometric midpoint), and negatives are NaN.
    EXPECT_EQ(static_cast<float>(op::Float8E8M0(1.5f)), 2.0f);
    EXPECT_EQ(static_cast<float>(op::Float8E8M0(1.49f)), 1.0f);
    EXPECT_TRUE(op::Float8E8M0(-1.0f).IsNaN());
    // HiFloat8 rounds half away from zero, and 1.25 * 2^15 already reaches its infinity.
    EXPECT_EQ(static_cast<float>(op::HiFloat8(1.0625f)), 1.125f);
    EXPECT_EQ(static_cast<float>(op::HiFloat8(-1.0625f)), -1.125f);
    EXPECT_TRUE(op::HiFloat8(40960.0f).IsInf());
    EXPECT_EQ(static_cast<float>(op::HiFloat8(40959.0f)), 32768.0f);
    EXPECT_EQ(op::HiFloat8(-1e-30f).value, 0x00) << "HiFloat8 has one zero";
}

}  // namespace
