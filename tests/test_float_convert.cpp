// The library's fp16/bf16 conversions (src/common/float_convert.h) against the tests' own float64 model:
// every 16-bit pattern widens exactly, and narrowing rounds to nearest-even at ties, at the overflow boundary
// and across the subnormal range, with NaN kept NaN.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "acl/acl.h"
#include "common/float_convert.h"
#include "reference.h"

namespace {

using aclnn_cpu::Bf16ToFloat;
using aclnn_cpu::FloatToBf16;
using aclnn_cpu::FloatToHalf;
using aclnn_cpu::HalfToFloat;
using test_support::DecodeElement;
using test_support::RoundToType;

float NextUp(float f) { return std::nextafter(f, INFINITY); }
float NextDown(float f) { return std::nextafter(f, -INFINITY); }

double DecodeBits(uint16_t bits, aclDataType type) { return DecodeElement(&bits, type); }

void ExpectEveryPatternWidensExactly(aclDataType type, float (*widen)(uint16_t)) {
    for (uint32_t bits = 0; bits <= 0xffff; ++bits) {
        const double expected = DecodeBits(static_cast<uint16_t>(bits), type);
        const float got = widen(static_cast<uint16_t>(bits));
        if (std::isnan(expected)) {
            ASSERT_TRUE(std::isnan(got)) << std::hex << bits;
        } else {
            ASSERT_EQ(static_cast<double>(got), expected) << std::hex << bits;
            ASSERT_EQ(std::signbit(got), std::signbit(expected)) << std::hex << bits;
        }
    }
}

TEST(FloatConvert, EveryHalfPatternWidensExactly) { ExpectEveryPatternWidensExactly(ACL_FLOAT16, HalfToFloat); }

TEST(FloatConvert, EveryBf16PatternWidensExactly) { ExpectEveryPatternWidensExactly(ACL_BF16, Bf16ToFloat); }

// Narrowing f to type must give RoundToType(f) exactly, including infinities and signed zeros.
void ExpectNarrowing(float f, aclDataType type) {
    const uint16_t bits = type == ACL_FLOAT16 ? FloatToHalf(f) : FloatToBf16(f);
    const double got = DecodeBits(bits, type);
    const double expected = RoundToType(static_cast<double>(f), type);
    if (std::isnan(expected)) {
        ASSERT_TRUE(std::isnan(got)) << "input " << f;
        return;
    }
    ASSERT_EQ(got, expected) << "input " << std::hexfloat << f << " type " << type;
    ASSERT_EQ(std::signbit(got), std::signbit(expected)) << "input " << f;
}

// For every pair of adjacent representable values: the values themselves, the exact midpoint (a tie) and
// the fp32 neighbours of the midpoint. This visits every rounding decision's boundary, in both signs.
void SweepAllBoundaries(aclDataType type) {
    for (uint32_t bits = 0; bits < 0x7fff; ++bits) {
        const double low = DecodeBits(static_cast<uint16_t>(bits), type);
        const double high = DecodeBits(static_cast<uint16_t>(bits + 1), type);
        if (!std::isfinite(low)) continue;
        const float values[] = {static_cast<float>(low), static_cast<float>((low + high) / 2)};
        for (float v : values) {
            for (float f : {v, NextUp(v), NextDown(v)}) {
                ExpectNarrowing(f, type);
                ExpectNarrowing(-f, type);
            }
        }
    }
}

TEST(FloatConvert, HalfRoundsToNearestEvenAtEveryBoundary) { SweepAllBoundaries(ACL_FLOAT16); }

TEST(FloatConvert, Bf16RoundsToNearestEvenAtEveryBoundary) { SweepAllBoundaries(ACL_BF16); }

TEST(FloatConvert, HalfTiesGoToEven) {
    // 1 + 2^-11 lies halfway between 1 and 1 + 2^-10: ties to 1 (even). 1 + 3*2^-11 ties up to 1 + 2^-9.
    EXPECT_EQ(FloatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3c00);
    EXPECT_EQ(FloatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);
    // In the subnormal range, half of the smallest subnormal (2^-25) ties to zero; 3 * 2^-25 ties to 2 * 2^-24.
    EXPECT_EQ(FloatToHalf(std::ldexp(1.0f, -25)), 0x0000);
    EXPECT_EQ(FloatToHalf(3 * std::ldexp(1.0f, -25)), 0x0002);
    EXPECT_EQ(FloatToHalf(-std::ldexp(1.0f, -25)), 0x8000);
}

TEST(FloatConvert, HalfOverflowBoundary) {
    EXPECT_EQ(FloatToHalf(65504.0f), 0x7bff);
    EXPECT_EQ(FloatToHalf(NextDown(65520.0f)), 0x7bff);  // just below the tie: the largest finite
    EXPECT_EQ(FloatToHalf(65520.0f), 0x7c00);            // the tie rounds to even, which is infinity
    EXPECT_EQ(FloatToHalf(-65520.0f), 0xfc00);
    EXPECT_EQ(FloatToHalf(INFINITY), 0x7c00);
    EXPECT_EQ(FloatToHalf(1e30f), 0x7c00);
}

TEST(FloatConvert, Bf16OverflowBoundary) {
    const float max_bf16 = Bf16ToFloat(0x7f7f);
    EXPECT_EQ(FloatToBf16(max_bf16), 0x7f7f);
    EXPECT_EQ(FloatToBf16(std::numeric_limits<float>::max()), 0x7f80);  // rounds past the largest finite
    EXPECT_EQ(FloatToBf16(-std::numeric_limits<float>::max()), 0xff80);
    EXPECT_EQ(FloatToBf16(INFINITY), 0x7f80);
}

TEST(FloatConvert, NanStaysNan) {
    const uint32_t payloads[] = {0x7fc00000u, 0x7f800001u, 0xffc00000u, 0x7fa00000u, 0xff800001u, 0x7fffffffu,
                                 0x7fff8000u, 0xffff8000u, 0xffffffffu, 0x7f807fffu};
    for (uint32_t bits : payloads) {
        float f;
        std::memcpy(&f, &bits, sizeof f);
        ASSERT_TRUE(std::isnan(HalfToFloat(FloatToHalf(f)))) << std::hex << bits;
        ASSERT_TRUE(std::isnan(Bf16ToFloat(FloatToBf16(f)))) << std::hex << bits;
        EXPECT_EQ(FloatToHalf(f) & 0x8000, (bits >> 16) & 0x8000) << "sign kept";
    }
}

TEST(FloatConvert, AclConversionsSaturateAsCannDocuments) {
    EXPECT_EQ(aclFloatToFloat16(1.0f), 0x3c00);
    EXPECT_EQ(aclFloatToFloat16(INFINITY), 0x7bff);
    EXPECT_EQ(aclFloatToFloat16(-INFINITY), 0xfbff);
    EXPECT_EQ(aclFloatToFloat16(std::nanf("")), 0x7bff);
    EXPECT_EQ(aclFloatToFloat16(1e9f), 0x7bff);
    EXPECT_EQ(aclFloat16ToFloat(0x3c00), 1.0f);
    EXPECT_EQ(aclFloat16ToFloat(0x7c00), 65536.0f);
    EXPECT_EQ(aclFloat16ToFloat(0xfc00), -65536.0f);
    EXPECT_EQ(aclFloat16ToFloat(0x7e00), 98304.0f);
    EXPECT_EQ(aclDataTypeSize(ACL_FLOAT), 4u);
    EXPECT_EQ(aclDataTypeSize(ACL_BF16), 2u);
    EXPECT_EQ(aclDataTypeSize(ACL_DOUBLE), 8u);
    EXPECT_EQ(aclDataTypeSize(ACL_DT_UNDEFINED), 0u);
}

}  // namespace
