#include "common/config.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace aclnn_cpu {

bool StrictMemoryChecks() {
    const char* value = std::getenv("ACLNN_CPU_STRICT_MEMORY");
    return value == nullptr || std::strcmp(value, "0") != 0;
}

namespace {
// Per calling thread: two Python threads, or a framework's worker threads, may ask for different counts.
thread_local int thread_count_override = 0;
}  // namespace

void SetThreadCountOverride(int count) { thread_count_override = count > 0 ? count : 0; }

int ConfiguredThreadCount() {
    if (thread_count_override > 0) return thread_count_override;
    const char* value = std::getenv("ACLNN_CPU_NUM_THREADS");
    if (value != nullptr) {
        char* end = nullptr;
        long parsed = std::strtol(value, &end, 10);
        if (end != value && *end == '\0' && parsed > 0 && parsed <= kMaxThreadCount) return static_cast<int>(parsed);
    }
    // sysconf reads /sys on every call: ask once.
    static const int cores = [] {
        const long online = sysconf(_SC_NPROCESSORS_ONLN);
        return online > 0 ? static_cast<int>(online) : 1;
    }();
    return cores;
}

}  // namespace aclnn_cpu
