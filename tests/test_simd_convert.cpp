// The SIMD kernels' own fp16/bf16 conversions, on every SIMD target available here (hardware F16C on
// AVX2/AVX-512, integer code elsewhere): every 16-bit pattern widens exactly, and narrowing agrees with the
// tests' float64 model at every rounding boundary (values, ties, and their fp32 neighbours), with NaN kept NaN.
// BFLOAT16 is checked one vector at a time and through the all-BFLOAT16 kernel's even/odd pairs, with integer
// rounding and with AVX512-BF16 narrowing (where the target and CPU have it).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <tuple>
#include <vector>

#include "kernels/simd_support.h"
#include "reference.h"

namespace {

using aclnn_cpu::kernels::ConvertRowSimd;
using aclnn_cpu::kernels::ElementType;
using test_support::DecodeElement;
using test_support::RoundToType;

ElementType Kernel(aclDataType type) {
    return type == ACL_FLOAT16 ? ElementType::kFloat16 : type == ACL_BF16 ? ElementType::kBFloat16
                                                                          : ElementType::kFloat32;
}

using aclnn_cpu::kernels::Bf16Conversion;

class SimdConvert : public ::testing::TestWithParam<std::tuple<aclDataType, Bf16Conversion>> {};

TEST_P(SimdConvert, EveryPatternWidensExactly) {
    const aclDataType type = std::get<0>(GetParam());
    const Bf16Conversion bf16 = std::get<1>(GetParam());
    std::vector<uint16_t> bits(65536);
    for (uint32_t i = 0; i < 65536; ++i) bits[i] = static_cast<uint16_t>(i);
    std::vector<float> widened(65536);
    ConvertRowSimd(Kernel(type), bits.data(), ElementType::kFloat32, widened.data(), 65536, bf16);
    for (uint32_t i = 0; i < 65536; ++i) {
        const double expected = DecodeElement(&bits[i], type);
        if (std::isnan(expected)) {
            ASSERT_TRUE(std::isnan(widened[i])) << std::hex << i;
        } else {
            ASSERT_EQ(static_cast<double>(widened[i]), expected) << std::hex << i;
            ASSERT_EQ(std::signbit(widened[i]), std::signbit(expected)) << std::hex << i;
        }
    }
}

TEST_P(SimdConvert, NarrowingRoundsToNearestEvenAtEveryBoundary) {
    const aclDataType type = std::get<0>(GetParam());
    const Bf16Conversion bf16 = std::get<1>(GetParam());
    // Every representable value, every midpoint between neighbours, and the fp32 values just around them,
    // in both signs; plus infinities, NaNs and the largest floats.
    std::vector<float> inputs;
    for (uint32_t i = 0; i < 0x7fff; ++i) {
        const uint16_t low_bits = static_cast<uint16_t>(i), high_bits = static_cast<uint16_t>(i + 1);
        const double low = DecodeElement(&low_bits, type), high = DecodeElement(&high_bits, type);
        if (!std::isfinite(low)) continue;
        for (double v : {low, (low + high) / 2}) {
            const float f = static_cast<float>(v);
            for (float g : {f, std::nextafter(f, INFINITY), std::nextafter(f, -INFINITY)}) {
                inputs.push_back(g);
                inputs.push_back(-g);
            }
        }
    }
    for (float special : {INFINITY, -INFINITY, std::nanf(""), -std::nanf(""), 3.4028235e38f, -3.4028235e38f})
        inputs.push_back(special);
    // NaNs with every kind of payload, signalling and quiet, both signs: rounding must not carry a NaN into
    // an infinity or wrap it into a zero (the fuzzer found 0xffff8000 becoming -0 once).
    for (uint32_t bits : {0x7f800001u, 0x7fbfffffu, 0x7fc00001u, 0x7fff8000u, 0x7fffffffu, 0xff800001u, 0xffbfffffu,
                          0xffff8000u, 0xffffffffu, 0x7f807fffu, 0x7f808000u}) {
        float nan;
        std::memcpy(&nan, &bits, sizeof nan);
        inputs.push_back(nan);
    }
    std::vector<uint16_t> narrowed(inputs.size());
    ConvertRowSimd(ElementType::kFloat32, inputs.data(), Kernel(type), narrowed.data(),
                   static_cast<int64_t>(inputs.size()), bf16);
    for (size_t i = 0; i < inputs.size(); ++i) {
        const double expected = RoundToType(inputs[i], type);
        const double got = DecodeElement(&narrowed[i], type);
        if (std::isnan(expected)) {
            ASSERT_TRUE(std::isnan(got)) << inputs[i];
        } else {
            ASSERT_EQ(got, expected) << std::hexfloat << inputs[i];
            ASSERT_EQ(std::signbit(got), std::signbit(expected)) << inputs[i];
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Float16, SimdConvert,
                         ::testing::Values(std::make_tuple(ACL_FLOAT16, Bf16Conversion::kOneVector)));
INSTANTIATE_TEST_SUITE_P(BFloat16, SimdConvert,
                         ::testing::Values(std::make_tuple(ACL_BF16, Bf16Conversion::kOneVector),
                                           std::make_tuple(ACL_BF16, Bf16Conversion::kPairs),
                                           std::make_tuple(ACL_BF16, Bf16Conversion::kPairsWithHardware)));

}  // namespace
