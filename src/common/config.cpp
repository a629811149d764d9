#include "common/config.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace aclnn_cpu {

bool StrictMemoryChecks() {
    const char* value = std::getenv("ACLNN_CPU_STRICT_MEMORY");
    return value == nullptr || std::strcmp(value, "0") != 0;
}

int ConfiguredThreadCount() {
    const char* value = std::getenv("ACLNN_CPU_NUM_THREADS");
    if (value != nullptr) {
        char* end = nullptr;
        long parsed = std::strtol(value, &end, 10);
        if (end != value && *end == '\0' && parsed > 0 && parsed <= 4096) return static_cast<int>(parsed);
    }
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores > 0 ? static_cast<int>(cores) : 1;
}

}  // namespace aclnn_cpu
