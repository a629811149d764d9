// op::fp16_t and op::bfloat16 (aclnn/opdev/fp16_t.h, bfloat16.h) against the tests' float64 model: every
// 16-bit pattern converts to float exactly, float converts by round-to-nearest-even at every rounding boundary,
// and the arithmetic, comparisons and std helpers behave as CANN's types do.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "aclnn/opdev/bfloat16.h"
#include "aclnn/opdev/fp16_t.h"
#include "reference.h"

namespace {

using test_support::DecodeElement;
using test_support::RoundToType;

bool SameValue(double a, double b) {
    return (std::isnan(a) && std::isnan(b)) || (a == b && std::signbit(a) == std::signbit(b));
}

TEST(OpdevTypes, EveryPatternWidensExactly) {
    for (uint32_t bits = 0; bits < 65536; ++bits) {
        const uint16_t pattern = static_cast<uint16_t>(bits);
        const op::fp16_t half(pattern);
        EXPECT_TRUE(SameValue(half.toFloat(), DecodeElement(&pattern, ACL_FLOAT16))) << std::hex << bits;
        const op::bfloat16 brain(pattern, op::bfloat16::from_bits());
        EXPECT_TRUE(SameValue(static_cast<float>(brain), DecodeElement(&pattern, ACL_BF16))) << std::hex << bits;
    }
}

// Values at and around every rounding boundary of both formats, plus random floats of every magnitude.
TEST(OpdevTypes, NarrowingRoundsToNearestEven) {
    std::mt19937_64 rng(8);
    std::vector<float> values;
    for (uint32_t bits = 0; bits < 65536; bits += 1) {
        for (aclDataType type : {ACL_FLOAT16, ACL_BF16}) {
            const uint16_t pattern = static_cast<uint16_t>(bits);
            const double low = DecodeElement(&pattern, type);
            const uint16_t next_pattern = static_cast<uint16_t>(bits + 1);
            const double high = DecodeElement(&next_pattern, type);
            if (!std::isfinite(low) || !std::isfinite(high)) continue;
            const float middle = static_cast<float>((low + high) / 2);
            values.push_back(middle);
            values.push_back(std::nextafter(middle, 0.0f));
            values.push_back(std::nextafter(middle, INFINITY));
        }
    }
    for (int i = 0; i < 100000; ++i) {
        uint32_t bits = static_cast<uint32_t>(rng());
        float v;
        std::memcpy(&v, &bits, sizeof v);
        values.push_back(v);
    }
    for (float v : values) {
        const op::fp16_t half(v);
        const uint16_t half_bits = half.val;
        const double expected_half = RoundToType(v, ACL_FLOAT16);
        if (std::isnan(v)) {
            EXPECT_TRUE(std::isnan(half));
        } else {
            EXPECT_TRUE(SameValue(DecodeElement(&half_bits, ACL_FLOAT16), expected_half)) << v;
        }
        const op::bfloat16 brain(v);
        const uint16_t brain_bits = brain.value;
        if (std::isnan(v)) {
            EXPECT_EQ(brain.value, op::bfloat16::NAN_VALUE);
        } else {
            EXPECT_TRUE(SameValue(DecodeElement(&brain_bits, ACL_BF16), RoundToType(v, ACL_BF16))) << v;
        }
    }
}

TEST(OpdevTypes, ArithmeticComparisonsAndHelpers) {
    const op::fp16_t a(1.5f), b(2.25);
    EXPECT_EQ(static_cast<float>(a + b), 3.75f);
    EXPECT_EQ((b - a).toFloat(), 0.75f);
    EXPECT_EQ((a * b).toDouble(), 3.375);
    EXPECT_EQ(static_cast<float>(b / a), 1.5f);
    EXPECT_TRUE(a < b && b > a && a <= a && a >= a && a != b && a == op::fp16_t(1.5f));
    EXPECT_EQ(op::fp16_t(uint16_t{0x3C00}).toFloat(), 1.0f) << "uint16_t is raw bits";
    op::fp16_t c;
    c = 3;
    EXPECT_EQ(c.toInt32(), 3) << "assignment converts by value";
    EXPECT_EQ(op::fp16_t(70000.0f).IsInf(), 1);
    EXPECT_EQ(op::fp16_t(-70000.0f).IsInf(), -1);
    EXPECT_TRUE(std::isnan(op::fp16_t(std::nanf(""))));
    EXPECT_EQ(std::abs(op::fp16_t(-2.0f)), 2.0f);

    const op::bfloat16 x(1.5f), y(2);
    EXPECT_EQ(static_cast<float>(x + y), 3.5f);
    EXPECT_EQ(static_cast<float>(-x), -1.5f);
    EXPECT_TRUE(x < y && y >= x && x != y);
    op::bfloat16 z = x;
    z *= y;
    EXPECT_EQ(static_cast<int>(z), 3);
    EXPECT_TRUE(std::isinf(std::numeric_limits<op::bfloat16>::infinity()));
    EXPECT_TRUE(std::isnan(std::numeric_limits<op::bfloat16>::quiet_NaN()));
    EXPECT_EQ(static_cast<float>(std::numeric_limits<op::bfloat16>::max()), 3.38953139e38f);
    EXPECT_EQ(static_cast<float>(std::abs(op::bfloat16(-4.0f))), 4.0f);
    EXPECT_EQ(static_cast<float>(op::fp16_t(op::bfloat16(0.5f))), 0.5f);
}

}  // namespace
