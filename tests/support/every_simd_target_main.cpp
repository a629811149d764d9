// main() for the numeric tests: runs the whole suite once per SIMD target that Highway compiled and this CPU
// supports (SSE4, AVX2, AVX-512, ...), by repeating the test iteration and restricting Highway's dynamic
// dispatch to one target per iteration. A failure on any target fails the run. ACLNN_CPU_TEST_TARGETS narrows the run
// (named_simd_targets.h).
#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

#include "hwy/targets.h"
#include "kernels/simd_support.h"
#include "named_simd_targets.h"

namespace {

class OneTargetPerIteration : public ::testing::EmptyTestEventListener {
public:
    explicit OneTargetPerIteration(std::vector<int64_t> targets) : targets_(std::move(targets)) {}

    void OnTestIterationStart(const ::testing::UnitTest&, int iteration) override {
        const int64_t target = targets_[static_cast<size_t>(iteration) % targets_.size()];
        hwy::SetSupportedTargetsForTest(target);
        std::printf("[ TARGET   ] SIMD target %s (kernels dispatch to %s)\n", hwy::TargetName(target),
                    aclnn_cpu::kernels::ActiveSimdTarget().c_str());
    }

    void OnTestProgramEnd(const ::testing::UnitTest&) override { hwy::SetSupportedTargetsForTest(0); }

private:
    std::vector<int64_t> targets_;
};

}  // namespace

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    std::vector<int64_t> targets = hwy::SupportedAndGeneratedTargets();
    if (targets.empty()) {
        std::fprintf(stderr, "no SIMD target is both compiled and supported\n");
        return 1;
    }
    std::vector<int64_t> chosen;
    if (!test_support::ChooseNamedTargets(targets, &chosen)) return 1;
    targets = std::move(chosen);
    GTEST_FLAG_SET(repeat, static_cast<int>(targets.size()));
    ::testing::UnitTest::GetInstance()->listeners().Append(new OneTargetPerIteration(std::move(targets)));
    return RUN_ALL_TESTS();
}
