// The fused sum's two widenings of fp32 results to float64 lanes (kernels/sum_accumulation-inl.h), on every
// SIMD target available here (support/every_simd_target_main.cpp):
//   ScaledBits moves an fp32 value's bits into float64 fields: x * 2^-896 exactly for every finite x >= +0,
//   and 2^-768 or more for anything else (negative values, -0, inf, NaN) -- checked on a strided sweep of
//   every 509th bit pattern, every exponent's edge mantissas and every class's edges;
//   SumLaneVectors<kScaledBits> stores the same lane bits as SumLaneVectors<kConvert> whenever every value is
//   finite and >= +0 and every lane stays below 2^127, and otherwise refuses to store (leaving the lanes as
//   they were) -- for each kind of value it cannot widen, for sums past 2^127, and for lanes it cannot scale.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "test_sum_widening.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

#include "hwy/highway.h"
#include "kernels/sum_accumulation-inl.h"

HWY_BEFORE_NAMESPACE();
namespace sum_widening_test::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
namespace kernels = aclnn_cpu::kernels;

// Whether this target has float64 lane vectors: the fused sum, and with it both widenings, exists only there.
// The others must be the ones that cannot have them (the fused sum's tiles then take the blocked path).
bool HasLaneVectors() {
    static_assert(ACLNN_CPU_SUM_LANE_VECTORS || HWY_TARGET == HWY_SCALAR || HWY_HAVE_SCALABLE,
                  "every fixed-width SIMD target with float64 has lane vectors");
    return ACLNN_CPU_SUM_LANE_VECTORS != 0;
}

// even[i] / odd[i]: ScaledBits::Even / Odd of the fp32 vectors in[...], element 2i / 2i + 1 of each.
void Widen(const float* in, double* even, double* odd, size_t count) {
#if ACLNN_CPU_SUM_LANE_VECTORS
    using kernels::HWY_NAMESPACE::ScaledBits;
    const kernels::HWY_NAMESPACE::DF df;
    const hn::Repartition<double, decltype(df)> dd;
    const size_t lanes = hn::Lanes(df);
    for (size_t i = 0; i < count; i += lanes) {
        const auto values = hn::LoadU(df, in + i);
        hn::StoreU(ScaledBits::Even(values), dd, even + i / 2);
        hn::StoreU(ScaledBits::Odd(values), dd, odd + i / 2);
    }
#else
    (void)in, (void)even, (void)odd, (void)count;
#endif
}

// Adds values[0, count) (whole groups) to sums through SumLaneVectors<widening>; returns whether it stored.
bool SumGroups(bool scaled, const float* values, size_t count, kernels::SumAccumulator* sums) {
#if ACLNN_CPU_SUM_LANE_VECTORS
    using kernels::HWY_NAMESPACE::SumLaneVectors;
    using kernels::HWY_NAMESPACE::Widening;
    const kernels::HWY_NAMESPACE::DF df;
    const size_t lanes = hn::Lanes(df);
    auto add_all = [&](auto& group_lanes) {
        using Lanes = std::remove_reference_t<decltype(group_lanes)>;
        for (size_t i = 0; i < count; i += lanes)
            group_lanes.Add(static_cast<int64_t>(i / lanes) % Lanes::kSlots, hn::LoadU(df, values + i));
        return group_lanes.StoreTo(sums);
    };
    if (scaled) {
        SumLaneVectors<Widening::kScaledBits> group_lanes(*sums);
        return group_lanes.Usable() && add_all(group_lanes);
    }
    SumLaneVectors<Widening::kConvert> group_lanes(*sums);
    return add_all(group_lanes);
#else
    (void)scaled, (void)values, (void)count, (void)sums;
    return false;
#endif
}

}  // namespace sum_widening_test::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <gtest/gtest.h>

namespace sum_widening_test {
HWY_EXPORT(HasLaneVectors);
HWY_EXPORT(Widen);
HWY_EXPORT(SumGroups);

namespace {

using aclnn_cpu::kernels::kSumLanes;
using aclnn_cpu::kernels::SumAccumulator;

float FromBits(uint32_t bits) {
    float value;
    std::memcpy(&value, &bits, sizeof(value));
    return value;
}

uint64_t BitsOf(double value) {
    uint64_t bits;
    std::memcpy(&bits, &value, sizeof(bits));
    return bits;
}

// Checks every pattern of `patterns` in both positions of a pair; returns the number of failures reported.
int CheckWidening(const std::vector<uint32_t>& patterns) {
    std::vector<float> in(patterns.size() * 2 + 64, 0.0f);
    for (size_t i = 0; i < patterns.size(); ++i) {
        in[2 * i] = FromBits(patterns[i]);
        in[2 * i + 1] = FromBits(patterns[patterns.size() - 1 - i]);
    }
    const size_t count = (patterns.size() * 2 + 63) / 64 * 64;
    std::vector<double> even(count / 2), odd(count / 2);
    HWY_DYNAMIC_DISPATCH(Widen)(in.data(), even.data(), odd.data(), count);
    int failures = 0;
    for (size_t i = 0; i < patterns.size() && failures < 10; ++i) {
        for (int parity = 0; parity < 2; ++parity) {
            const float x = in[2 * i + parity];
            const double got = parity == 0 ? even[i] : odd[i];
            uint32_t bits;
            std::memcpy(&bits, &x, sizeof(bits));
            if (std::isfinite(x) && !std::signbit(x)) {
                if (BitsOf(got) != BitsOf(std::ldexp(static_cast<double>(x), -896))) {
                    ADD_FAILURE() << "pattern 0x" << std::hex << bits << ": " << got << " is not x * 2^-896";
                    ++failures;
                }
            } else if (!(got >= 0x1p-768)) {
                ADD_FAILURE() << "pattern 0x" << std::hex << bits << " (negative, inf or NaN): " << got
                              << " is below 2^-768";
                ++failures;
            }
        }
    }
    return failures;
}

// Each test runs on the targets with lane vectors; the scalar target (and scalable SVE) has none to test.
class SumWidening : public ::testing::Test {
protected:
    void SetUp() override {
        lane_vectors_ = HWY_DYNAMIC_DISPATCH(HasLaneVectors)();
        if (!lane_vectors_) std::printf("[   NOTE   ] no float64 lane vectors on this target: nothing to widen\n");
    }
    bool lane_vectors_ = false;
};

TEST_F(SumWidening, EveryStridedPatternAndEveryClassEdge) {
    if (!lane_vectors_) return;
    std::vector<uint32_t> patterns;
    for (uint64_t bits = 0; bits <= 0xFFFFFFFFull; bits += 509) patterns.push_back(static_cast<uint32_t>(bits));
    // The edges of each class, both signs: zero, subnormals, normals, inf, NaN.
    for (uint32_t sign : {0u, 0x80000000u}) {
        for (uint32_t magnitude : {0x00000000u, 0x00000001u, 0x00000002u, 0x007FFFFEu, 0x007FFFFFu, 0x00800000u,
                                   0x00800001u, 0x3F800000u, 0x7F7FFFFEu, 0x7F7FFFFFu, 0x7F800000u, 0x7F800001u,
                                   0x7FC00000u, 0x7FFFFFFFu}) {
            patterns.push_back(sign | magnitude);
        }
    }
    // Every exponent with the lowest and highest mantissas.
    for (uint32_t exponent = 0; exponent < 256; ++exponent) {
        for (uint32_t mantissa : {0u, 1u, 0x400000u, 0x7FFFFFu}) patterns.push_back(exponent << 23 | mantissa);
    }
    EXPECT_EQ(CheckWidening(patterns), 0);
}

// Values of every finite non-negative kind: normal over a wide range, subnormal, zero.
float RandomTerm(std::mt19937_64& rng) {
    switch (rng() % 8) {
        case 0: return 0.0f;
        case 1: return FromBits(static_cast<uint32_t>(rng() % 0x00800000u));  // subnormal (or 0)
        case 2: return std::ldexp(static_cast<float>(rng() % 0x1000000u), -24 - static_cast<int>(rng() % 100));
        case 3: return std::ldexp(static_cast<float>(rng() % 0x1000000u), static_cast<int>(rng() % 80));
        default: return std::uniform_real_distribution<float>(0.0f, 16.0f)(rng);
    }
}

SumAccumulator RandomLanes(std::mt19937_64& rng) {
    SumAccumulator sums;
    for (double& lane : sums.lanes) {
        // A sum of fp32 values, as every lane is.
        for (int k = 0; k < 3; ++k) lane += RandomTerm(rng);
    }
    return sums;
}

bool SameLanes(const SumAccumulator& a, const SumAccumulator& b) {
    return std::memcmp(a.lanes, b.lanes, sizeof(a.lanes)) == 0;
}

TEST_F(SumWidening, ScaledBitsStoresTheConvertingBits) {
    if (!lane_vectors_) return;
    std::mt19937_64 rng(20);
    for (int trial = 0; trial < 300; ++trial) {
        const size_t groups = 1 + rng() % 40;
        std::vector<float> values(groups * kSumLanes);
        for (float& v : values) v = RandomTerm(rng);
        const SumAccumulator start = RandomLanes(rng);
        SumAccumulator converted = start, scaled = start;
        ASSERT_TRUE(HWY_DYNAMIC_DISPATCH(SumGroups)(false, values.data(), values.size(), &converted));
        ASSERT_TRUE(HWY_DYNAMIC_DISPATCH(SumGroups)(true, values.data(), values.size(), &scaled))
            << "trial " << trial;
        ASSERT_TRUE(SameLanes(converted, scaled)) << "trial " << trial;
    }
}

TEST_F(SumWidening, ScaledBitsRefusesWhatItCannotWiden) {
    if (!lane_vectors_) return;
    std::mt19937_64 rng(21);
    const float bad[] = {INFINITY, -INFINITY, NAN, -NAN, -0.0f, -1.0f, -FromBits(1), -3e38f};
    for (float value : bad) {
        for (int trial = 0; trial < 20; ++trial) {
            std::vector<float> values(8 * kSumLanes);
            for (float& v : values) v = RandomTerm(rng);
            values[rng() % values.size()] = value;
            const SumAccumulator start = RandomLanes(rng);
            SumAccumulator scaled = start;
            EXPECT_FALSE(HWY_DYNAMIC_DISPATCH(SumGroups)(true, values.data(), values.size(), &scaled))
                << "value " << value;
            EXPECT_TRUE(SameLanes(scaled, start)) << "the lanes were written for value " << value;
        }
    }
}

TEST_F(SumWidening, ScaledBitsRefusesSumsFrom2To127) {
    if (!lane_vectors_) return;
    std::vector<float> values(2 * kSumLanes, 0.0f);
    SumAccumulator start;
    // Lane 3: 2^126 + (2^126 - 2^102) just below 2^127 is stored; one more 2^102 reaches 2^127 and is not.
    values[3] = 0x1p126f;
    values[kSumLanes + 3] = 0x1p126f - 0x1p102f;
    SumAccumulator converted = start, scaled = start;
    ASSERT_TRUE(HWY_DYNAMIC_DISPATCH(SumGroups)(false, values.data(), values.size(), &converted));
    ASSERT_TRUE(HWY_DYNAMIC_DISPATCH(SumGroups)(true, values.data(), values.size(), &scaled));
    EXPECT_TRUE(SameLanes(converted, scaled));
    values[kSumLanes + 3] = 0x1p126f;
    scaled = start;
    EXPECT_FALSE(HWY_DYNAMIC_DISPATCH(SumGroups)(true, values.data(), values.size(), &scaled));
    EXPECT_TRUE(SameLanes(scaled, start));
}

TEST_F(SumWidening, ScaledBitsStartsOnlyFromLanesBelow2To126) {
    if (!lane_vectors_) return;
    std::vector<float> values(kSumLanes, 1.0f);
    for (double lane : {0x1p126, -0x1p126, static_cast<double>(INFINITY), static_cast<double>(NAN)}) {
        SumAccumulator start;
        start.lanes[7] = lane;
        SumAccumulator scaled = start;
        EXPECT_FALSE(HWY_DYNAMIC_DISPATCH(SumGroups)(true, values.data(), values.size(), &scaled)) << lane;
        EXPECT_TRUE(SameLanes(scaled, start)) << lane;
    }
    // Just inside, negative lanes included: the converting bits.
    SumAccumulator start;
    start.lanes[7] = -0x1p125;
    start.lanes[8] = 0x1p126 - 0x1p73;
    SumAccumulator converted = start, scaled = start;
    ASSERT_TRUE(HWY_DYNAMIC_DISPATCH(SumGroups)(false, values.data(), values.size(), &converted));
    ASSERT_TRUE(HWY_DYNAMIC_DISPATCH(SumGroups)(true, values.data(), values.size(), &scaled));
    EXPECT_TRUE(SameLanes(converted, scaled));
}

}  // namespace
}  // namespace sum_widening_test
#endif  // HWY_ONCE
