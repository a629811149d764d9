// main() for the numeric tests: runs the whole suite once per SIMD target that Highway compiled and this CPU
// supports (SSE4, AVX2, AVX-512, ...), by repeating the test iteration and restricting Highway's dynamic
// dispatch to one target per iteration. A failure on any target fails the run. ACLNN_CPU_TEST_TARGETS (Highway's
// target names, e.g. "SVE2_128 SVE") narrows the run to those targets, each of which must be compiled and supported:
// qemu's slow CPU models run each target once over the three models rather than every target on each.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "hwy/targets.h"
#include "kernels/simd_support.h"

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

// The targets ACLNN_CPU_TEST_TARGETS names, in its order; false (after saying which) where one is not available.
bool NamedTargets(const char* names, const std::vector<int64_t>& available, std::vector<int64_t>* chosen) {
    std::istringstream words(names);
    std::string name;
    while (words >> name) {
        bool found = false;
        for (const int64_t target : available) {
            if (name == hwy::TargetName(target)) {
                chosen->push_back(target);
                found = true;
            }
        }
        if (!found) {
            std::fprintf(stderr, "ACLNN_CPU_TEST_TARGETS names %s, which is not a target compiled and supported here\n",
                         name.c_str());
            return false;
        }
    }
    if (chosen->empty()) std::fprintf(stderr, "ACLNN_CPU_TEST_TARGETS names no target\n");
    return !chosen->empty();
}

}  // namespace

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    std::vector<int64_t> targets = hwy::SupportedAndGeneratedTargets();
    if (targets.empty()) {
        std::fprintf(stderr, "no SIMD target is both compiled and supported\n");
        return 1;
    }
    if (const char* names = std::getenv("ACLNN_CPU_TEST_TARGETS")) {
        std::vector<int64_t> chosen;
        if (!NamedTargets(names, targets, &chosen)) return 1;
        targets = std::move(chosen);
    }
    GTEST_FLAG_SET(repeat, static_cast<int>(targets.size()));
    ::testing::UnitTest::GetInstance()->listeners().Append(new OneTargetPerIteration(std::move(targets)));
    return RUN_ALL_TESTS();
}
