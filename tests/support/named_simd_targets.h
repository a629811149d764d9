// ACLNN_CPU_TEST_TARGETS: Highway's target names (e.g. "SVE2_128 SVE") that narrow a test program's run over the
// SIMD targets to those named, each of which must be compiled and supported. Under qemu, whose SVE models are slow,
// each target runs once over the CPU models (scripts/run_tests_aarch64.sh).
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "hwy/targets.h"

namespace test_support {

// The targets of `available` that ACLNN_CPU_TEST_TARGETS names, in its order, or all of them where it is unset; false
// (after saying which) where it names one that is not available, or none.
inline bool ChooseNamedTargets(const std::vector<int64_t>& available, std::vector<int64_t>* chosen) {
    const char* names = std::getenv("ACLNN_CPU_TEST_TARGETS");
    if (names == nullptr) {
        *chosen = available;
        return true;
    }
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

}  // namespace test_support
