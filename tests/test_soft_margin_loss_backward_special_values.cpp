// Special values through aclnnSoftMarginLossBackward: signed zeros, infinities, NaN, subnormals, -x*y on both
// sides of exp's overflow threshold, intermediate overflow, and results that overflow a FLOAT16 out.
// Each row states what IEEE arithmetic in CANN's fp32 order gives; every row is also checked against the
// float64 reference.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "acl/acl.h"
#include "random_cases.h"
#include "reference.h"
#include "operator_harness.h"

namespace {

using namespace test_support;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kMinSubnormal = std::ldexp(1.0, -149);

enum class Expect { kReference, kNaN, kPositiveInf, kNegativeInf, kPositiveZero, kNegativeZero, kFinite };

struct Row {
    double x, y, g;
    Expect expect;
    const char* why;
};

// Runs all rows as one 1-D tensor per operand, all of dtype `type`, out of dtype `out_type`.
void RunRows(const std::vector<Row>& rows, aclDataType type, aclDataType out_type, int64_t reduction = 0) {
    std::mt19937_64 rng(1);
    const int64_t n = static_cast<int64_t>(rows.size());
    auto zero = [](std::mt19937_64&) { return 0.0; };
    DeviceTensor grad(Dense({n}, type), rng, zero);
    DeviceTensor self(Dense({n}, type), rng, zero);
    DeviceTensor target(Dense({n}, type), rng, zero);
    DeviceTensor out(Dense({n}, out_type), rng, zero);
    for (int64_t i = 0; i < n; ++i) {
        grad.SetStorage(i, rows[i].g);
        self.SetStorage(i, rows[i].x);
        target.SetStorage(i, rows[i].y);
    }
    grad.Upload();
    self.Upload();
    target.Upload();
    ASSERT_EQ(RunSoftMarginLossBackward(grad.tensor(), self.tensor(), target.tensor(), reduction, out.tensor()), 0)
        << aclGetRecentErrMsg();
    const std::vector<uint8_t> result = out.Download();
    const double cof = reduction == 1 ? 1.0 / static_cast<double>(n) : 1.0;
    for (int64_t i = 0; i < n; ++i) {
        const Row& row = rows[i];
        const double x = self.HostValue(i), y = target.HostValue(i), g = grad.HostValue(i);
        const double got = DecodeElement(result.data() + i * ElementSize(out_type), out_type);
        double expected = 0;
        const char* problem = CheckElement(SoftMarginLossGradReference(x, y, g, cof), type, out_type, got, &expected);
        EXPECT_STREQ(problem, "") << "row " << i << " (" << row.why << "): x=" << x << " y=" << y << " g=" << g
                                  << " got " << got << " expected " << expected;
        switch (row.expect) {
            case Expect::kReference: break;
            case Expect::kNaN: EXPECT_TRUE(std::isnan(got)) << row.why << ": got " << got; break;
            case Expect::kPositiveInf: EXPECT_EQ(got, kInf) << row.why; break;
            case Expect::kNegativeInf: EXPECT_EQ(got, -kInf) << row.why; break;
            case Expect::kPositiveZero: EXPECT_TRUE(got == 0 && !std::signbit(got)) << row.why << ": got " << got; break;
            case Expect::kNegativeZero: EXPECT_TRUE(got == 0 && std::signbit(got)) << row.why << ": got " << got; break;
            case Expect::kFinite: EXPECT_TRUE(std::isfinite(got)) << row.why << ": got " << got; break;
        }
    }
}

const std::vector<Row>& CommonRows() {
    static const std::vector<Row> rows = {
        {0.0, 1.0, 0.0, Expect::kNegativeZero, "q = -0.5, g = +0 gives -0"},
        {0.0, 1.0, -0.0, Expect::kPositiveZero, "q = -0.5, g = -0 gives +0"},
        {1.0, 0.0, 1.0, Expect::kNegativeZero, "y = +0: num = -0"},
        {1.0, 0.0, -1.0, Expect::kPositiveZero, "y = +0, g < 0"},
        {1.0, -0.0, 1.0, Expect::kPositiveZero, "y = -0: num = +0"},
        {-0.0, -0.0, 1.0, Expect::kPositiveZero, "all zero"},
        {kNaN, 1.0, 1.0, Expect::kNaN, "NaN self"},
        {1.0, kNaN, 1.0, Expect::kNaN, "NaN target"},
        {1.0, 1.0, kNaN, Expect::kNaN, "NaN gradOutput"},
        {kInf, 1.0, 1.0, Expect::kNegativeZero, "x = inf: e = 0, q = -0"},
        {-kInf, 1.0, 1.0, Expect::kNaN, "x = -inf: e = inf, inf/inf"},
        {kInf, 0.0, 1.0, Expect::kNaN, "inf * 0 = NaN"},
        {1.0, kInf, 1.0, Expect::kNaN, "y = inf: p = inf, e = 0, num = -inf * 0"},
        {-1.0, 1.0, kInf, Expect::kNegativeInf, "g = inf, q < 0"},
        {0.0, 1.0, kInf, Expect::kNegativeInf, "g = inf, q = -0.5"},
        {1.0, 0.0, kInf, Expect::kNaN, "q = -0, g = inf: 0 * inf"},
        {-1.0, -1.0, -kInf, Expect::kNegativeInf, "q = 0.27, g = -inf"},
        {kMinSubnormal, 1.0, 1.0, Expect::kReference, "subnormal self"},
        {1.0, kMinSubnormal * 5, 1.0, Expect::kReference, "subnormal target"},
        {0.5, 1.0, kMinSubnormal * 1000, Expect::kReference, "subnormal gradOutput"},
        {std::ldexp(1.0, -130), std::ldexp(1.0, -10), 3.0, Expect::kReference, "subnormal product"},
        {0.25, -0.5, std::ldexp(1.0, -140), Expect::kReference, "subnormal result"},
        // Found by the fuzzer: e = exp(-91.9) is subnormal and g scales the result back to the normal range.
        {-36.9379, -2.48828, -56248.6, Expect::kReference, "subnormal exp scaled to a normal result"},
        // Found by the fuzzer: q = -y/2 is subnormal (fp32 keeps 16 bits of it) and g scales it back up.
        {1.55993e13, 1.15006e-40, 4.508e13, Expect::kReference, "subnormal quotient scaled to a normal result"},
    };
    return rows;
}

// Found by the fuzzer: a NaN target whose payload fills the mantissa (FLOAT16 0xfffc) came out of a BFLOAT16
// out as -0, because the NaN check used Highway's float !=, which is false for NaN on x86. Every NaN
// payload, in every input and dtype path, must give NaN.
TEST(SpecialValues, NaNsWithAnyPayloadStayNaN) {
    struct Case {
        aclDataType input, out;
        uint32_t nan_bits;
    };
    const Case cases[] = {{ACL_FLOAT16, ACL_BF16, 0xfffc}, {ACL_FLOAT16, ACL_BF16, 0x7ffc},
                          {ACL_FLOAT16, ACL_FLOAT16, 0x7c01}, {ACL_BF16, ACL_BF16, 0xffff},
                          {ACL_FLOAT, ACL_BF16, 0x7fff8000u}, {ACL_FLOAT, ACL_FLOAT16, 0xffffffffu}};
    for (const Case& c : cases) {
        std::mt19937_64 rng(3);
        const Uniform values{4.0};
        for (int which = 0; which < 3; ++which) {
            DeviceTensor grad(Dense({64}, c.input), rng, values);
            DeviceTensor self(Dense({64}, c.input), rng, values);
            DeviceTensor target(Dense({64}, c.input), rng, values);
            DeviceTensor out(Dense({64}, c.out), rng, values);
            DeviceTensor* inputs[3] = {&grad, &self, &target};
            for (int i = 3; i < 64; i += 7) inputs[which]->SetRawBits(i, c.nan_bits);
            inputs[which]->Upload();
            ASSERT_EQ(RunSoftMarginLossBackward(grad.tensor(), self.tensor(), target.tensor(), 0, out.tensor()), 0);
            const std::vector<uint8_t> result = out.Download();
            for (int i = 3; i < 64; i += 7) {
                const double got = DecodeElement(result.data() + i * ElementSize(c.out), c.out);
                EXPECT_TRUE(std::isnan(got)) << "input " << which << " NaN bits " << std::hex << c.nan_bits
                                             << " dtype " << std::dec << c.input << " -> " << c.out << ": got "
                                             << got;
            }
        }
    }
}

TEST(SpecialValues, Float32) { RunRows(CommonRows(), ACL_FLOAT, ACL_FLOAT); }
TEST(SpecialValues, Float16) { RunRows(CommonRows(), ACL_FLOAT16, ACL_FLOAT16); }
TEST(SpecialValues, BFloat16) { RunRows(CommonRows(), ACL_BF16, ACL_BF16); }
TEST(SpecialValues, Float32IntoFloat16) { RunRows(CommonRows(), ACL_FLOAT, ACL_FLOAT16); }
TEST(SpecialValues, BFloat16IntoFloat32) { RunRows(CommonRows(), ACL_BF16, ACL_FLOAT); }

// exp(-x*y) overflows fp32 for -x*y above ~88.72: the kernel then gives NaN, on purpose (CANN and PyTorch do).
TEST(SpecialValues, ExpOverflowThresholdFloat32) {
    RunRows({{-88.5, 1.0, 1.0, Expect::kFinite, "-xy = 88.5, below the threshold: q = -1"},
             {-88.6, 1.0, 1.0, Expect::kFinite, "-xy = 88.6"},
             {-88.83, 1.0, 1.0, Expect::kNaN, "-xy = 88.83, above"},
             {-89.0, 1.0, 1.0, Expect::kNaN, "-xy = 89"},
             {-9.5, 9.5, 1.0, Expect::kNaN, "-xy = 90.25"},
             {9.5, -9.5, 0.5, Expect::kNaN, "-xy = 90.25, mirrored"},
             {-88.0, 1.0, 0.0, Expect::kFinite, "g = 0 below the threshold"},
             {-100.0, 1.0, 0.0, Expect::kNaN, "NaN even with g = 0"},
             {-1.0, 88.5, 1.0, Expect::kNegativeInf, "e = 2.7e38 finite, -y*e overflows: q = -inf"},
             {1.0, 200.0, 1.0, Expect::kReference, "xy = 200: e underflows to 0"},
             // Found by the fuzzer: e underflows to 0, so q = -0 and -0 * -inf = NaN.
             {5.5, 36.25, -INFINITY, Expect::kNaN, "e = exp(-199.4) = 0 in fp32, q * gs = 0 * inf"},
             {-0.008, 10000.0, 1.0, Expect::kNegativeInf, "e = 5.5e34 finite, -y*e overflows: q = -inf"},
             {-0.008, 10000.0, -2.0, Expect::kPositiveInf, "the same with g < 0"}},
            ACL_FLOAT, ACL_FLOAT);
}

TEST(SpecialValues, ExpOverflowThresholdHalfTypes) {
    const std::vector<Row> rows = {{-88.0, 1.0, 1.0, Expect::kFinite, "-xy = 88, below"},
                                   {-90.0, 1.0, 1.0, Expect::kNaN, "-xy = 90, above"},
                                   {-8.0, 11.25, 1.0, Expect::kNaN, "-xy = 90 as a product"},
                                   {-10.0, 10.0, 1.0, Expect::kNaN, "-xy = 100"}};
    RunRows(rows, ACL_FLOAT16, ACL_FLOAT16);
    RunRows(rows, ACL_BF16, ACL_BF16);
}

// A result beyond 65504 overflows a FLOAT16 out to infinity (round to nearest even, as CANN's Cast does).
TEST(SpecialValues, GradOutputOverflowsHalfOut) {
    RunRows({{0.0, 1.0, 3e38, Expect::kNegativeInf, "r = -1.5e38 in fp32, -inf in fp16"},
             {0.0, -1.0, 140000.0, Expect::kPositiveInf, "r = 70000 > 65504"},
             {0.0, 1.0, 131000.0, Expect::kFinite, "r = -65500, still finite"}},
            ACL_FLOAT, ACL_FLOAT16);
    // All-FLOAT16 inputs: the kernel rounds to FLOAT16 before widening to a FLOAT out, so it overflows too.
    RunRows({{1.0, -2.0, 60000.0, Expect::kPositiveInf, "q = 1.76, r = 105670 overflows the fp16 promote"}},
            ACL_FLOAT16, ACL_FLOAT);
}

// Found by the fuzzer: r = 5.6875 * 11520 = 65520 exactly in float64, the tie that rounds FLOAT16 to inf;
// the fp32 quotient is an ulp under -y, so the kernel's r rounds to 65504. Both are right within an ulp.
TEST(SpecialValues, ResultOnTheFloat16OverflowBoundary) {
    RunRows({{6.88672, -5.6875, 11520.0, Expect::kReference, "r at 65520, the FLOAT16 overflow tie"}}, ACL_FLOAT16,
            ACL_FLOAT16);
}

TEST(SpecialValues, MeanScalesByOneOverN) {
    RunRows({{0.0, 1.0, 1.0, Expect::kReference, "mean of 4"},
             {1.0, 1.0, 1.0, Expect::kReference, "mean of 4"},
             {2.0, -1.0, 1e38, Expect::kFinite, "g huge: scaled before the product, so no overflow"},
             {3.0, 1.0, -1.0, Expect::kReference, "mean of 4"}},
            ACL_FLOAT, ACL_FLOAT, 1);
}

// The sample of CANN's aclnnSoftMarginLossBackward documentation, value by value, sign of zero included.
TEST(DocumentedSample, GivesTheDocumentedValues) {
    std::mt19937_64 rng(0);
    DeviceTensor grad(Dense({2, 2}, ACL_FLOAT), rng, Uniform{8.0});
    DeviceTensor self(Dense({2, 2}, ACL_FLOAT), rng, Uniform{8.0});
    DeviceTensor target(Dense({2, 2}, ACL_FLOAT), rng, Uniform{8.0});
    DeviceTensor out(Dense({2, 2}, ACL_FLOAT), rng, Uniform{8.0});
    for (int i = 0; i < 4; ++i) {
        grad.SetStorage(i, i);
        self.SetStorage(i, i);
        target.SetStorage(i, 1);
    }
    grad.Upload();
    self.Upload();
    target.Upload();
    ASSERT_EQ(RunSoftMarginLossBackward(grad.tensor(), self.tensor(), target.tensor(), 1, out.tensor()), 0);
    float result[4];
    ASSERT_EQ(aclrtMemcpy(result, sizeof result, out.device(), sizeof result, ACL_MEMCPY_DEVICE_TO_HOST), 0);
    EXPECT_EQ(result[0], 0.0f);
    EXPECT_TRUE(std::signbit(result[0])) << "-0.5 * 0 is -0";
    EXPECT_NEAR(result[1], -0.0672353581, 1e-8);
    EXPECT_NEAR(result[2], -0.0596014597, 1e-8);
    EXPECT_NEAR(result[3], -0.035569407, 1e-8);
}

}  // namespace
