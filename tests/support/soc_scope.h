// The SoC aclrtGetSocName() names for a scope (ACLNN_CPU_SOC_NAME), then none again (the default, Ascend 950): the
// tests of per-SoC checks and arithmetic.
#pragma once

#include <cstdlib>

namespace test_support {

class SocScope {
public:
    // name: a SoC name ("Ascend910B1"), or nullptr for the default.
    explicit SocScope(const char* name) {
        if (name != nullptr) setenv("ACLNN_CPU_SOC_NAME", name, 1);
    }
    ~SocScope() { unsetenv("ACLNN_CPU_SOC_NAME"); }
    SocScope(const SocScope&) = delete;
    SocScope& operator=(const SocScope&) = delete;
};

}  // namespace test_support
