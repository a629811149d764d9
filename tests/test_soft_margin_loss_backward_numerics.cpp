// aclnnSoftMarginLossBackward against the float64 reference on random cases: every one of the 81 dtype
// combinations of (gradOutput, self, target, out), ranks 0 to 8, three-way broadcasting, transposed, padded,
// stepped, offset and expanded views, all three reductions. Tolerances: docs/contract.md section 4.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>

#include "acl/acl.h"
#include "random_cases.h"
#include "operator_harness.h"

namespace {

using namespace test_support;

constexpr aclDataType kTypes[3] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
// |x|, |y| <= 8 keeps -x*y far below exp's overflow threshold (88.7); special_values covers the rest.
const Uniform kValues{8.0};

struct CaseResult {
    int64_t checked = 0;
};

// Builds a random case over a broadcast shape of `rank`, runs it, and checks every element.
void RunRandomCase(std::mt19937_64& rng, const aclDataType types[4], int rank, int64_t reduction,
                   CaseResult* result) {
    const std::vector<int64_t> shape = RandomShape(rank, 600, rng);
    // One input (chosen at random) keeps the full shape so that the broadcast is exactly `shape`.
    const int full = static_cast<int>(rng() % 3);
    std::vector<int64_t> input_dims[3];
    for (int k = 0; k < 3; ++k) input_dims[k] = k == full ? shape : RandomBroadcastableTo(shape, rng);
    if (rng() % 5 == 0 && full != 0) input_dims[0] = {};  // a 0-d gradOutput, the usual case after mean/sum

    LayoutOptions input_options;
    input_options.allow_expand = true;
    DeviceTensor grad(RandomLayout(input_dims[0], types[0], rng, input_options), rng, kValues);
    DeviceTensor self(RandomLayout(input_dims[1], types[1], rng, input_options), rng, kValues);
    DeviceTensor target(RandomLayout(input_dims[2], types[2], rng, input_options), rng, kValues);
    DeviceTensor out(RandomLayout(shape, types[3], rng, LayoutOptions{}), rng, kValues, 3);
    const std::vector<uint8_t> out_before = out.host();

    const aclnnStatus status =
        RunSoftMarginLossBackward(grad.tensor(), self.tensor(), target.tensor(), reduction, out.tensor());
    ASSERT_EQ(status, 0) << aclGetRecentErrMsg() << "\nout " << Describe(out.spec());
    const std::string failure = VerifyAgainstReference({&grad, &self, &target}, reduction, out.spec(),
                                                       out.Download(), out_before, &result->checked);
    ASSERT_TRUE(failure.empty()) << failure << "grad " << Describe(grad.spec()) << "\nself "
                                 << Describe(self.spec()) << "\ntarget " << Describe(target.spec()) << "\nout "
                                 << Describe(out.spec()) << "\nreduction " << reduction;
}

class EveryDtypeCombination : public ::testing::TestWithParam<int> {};

TEST_P(EveryDtypeCombination, MatchesFloat64Reference) {
    const int combo = GetParam();
    const aclDataType types[4] = {kTypes[combo % 3], kTypes[combo / 3 % 3], kTypes[combo / 9 % 3],
                                  kTypes[combo / 27 % 3]};
    std::mt19937_64 rng(1000 + combo);
    CaseResult result;
    for (int64_t reduction = 0; reduction < 3; ++reduction) {
        for (int repeat = 0; repeat < 4; ++repeat) {
            RunRandomCase(rng, types, static_cast<int>(rng() % 5), reduction, &result);
            if (HasFatalFailure()) return;
        }
    }
    EXPECT_GT(result.checked, 0);
}

INSTANTIATE_TEST_SUITE_P(AllCombinations, EveryDtypeCombination, ::testing::Range(0, 81));

class EveryRank : public ::testing::TestWithParam<int> {};

TEST_P(EveryRank, MatchesFloat64Reference) {
    const int rank = GetParam();
    std::mt19937_64 rng(77 + rank);
    CaseResult result;
    for (int repeat = 0; repeat < 12; ++repeat) {
        const aclDataType types[4] = {kTypes[rng() % 3], kTypes[rng() % 3], kTypes[rng() % 3], kTypes[rng() % 3]};
        RunRandomCase(rng, types, rank, static_cast<int64_t>(rng() % 3), &result);
        if (HasFatalFailure()) return;
    }
    EXPECT_GT(result.checked, 0);
}

INSTANTIATE_TEST_SUITE_P(RanksZeroToEight, EveryRank, ::testing::Range(0, 9));

// A tensor large enough to be split across threads (several grains), against the reference.
TEST(LargeTensor, ThreadedRunMatchesReference) {
    std::mt19937_64 rng(5);
    const std::vector<int64_t> shape = {257, 1031};
    DeviceTensor grad(Dense({}, ACL_FLOAT), rng, kValues);
    DeviceTensor self(Dense(shape, ACL_BF16), rng, kValues);
    DeviceTensor target(Dense({257, 1}, ACL_FLOAT), rng, kValues);
    DeviceTensor out(Dense(shape, ACL_FLOAT16), rng, kValues);
    ASSERT_EQ(RunSoftMarginLossBackward(grad.tensor(), self.tensor(), target.tensor(), 1, out.tensor()), 0);
    int64_t checked = 0;
    const std::string failure =
        VerifyAgainstReference({&grad, &self, &target}, 1, out.spec(), out.Download(), out.host(), &checked);
    EXPECT_TRUE(failure.empty()) << failure;
    EXPECT_EQ(checked, 257 * 1031);
}

// The sample of CANN's aclnnSoftMarginLossBackward documentation, value by value, sign of zero included.
TEST(DocumentedSample, GivesTheDocumentedValues) {
    std::mt19937_64 rng(0);
    DeviceTensor grad(Dense({2, 2}, ACL_FLOAT), rng, kValues);
    DeviceTensor self(Dense({2, 2}, ACL_FLOAT), rng, kValues);
    DeviceTensor target(Dense({2, 2}, ACL_FLOAT), rng, kValues);
    DeviceTensor out(Dense({2, 2}, ACL_FLOAT), rng, kValues);
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
