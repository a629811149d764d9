#include "common/config.h"

#include <pthread.h>
#include <unistd.h>

#include <atomic>
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

// OpenMP's thread pool (libgomp's) does not survive fork(): in a child of a process that has run a parallel
// region, the next region waits forever for the parent's workers, which the child does not have. Such a child
// (a DataLoader worker, a forked server) runs its operators on the calling thread instead.
std::atomic<bool> parallel_regions_run{false};
std::atomic<bool> thread_pool_lost{false};

void AfterForkInChild() {
    if (parallel_regions_run.load(std::memory_order_relaxed)) thread_pool_lost.store(true, std::memory_order_relaxed);
}

[[maybe_unused]] const int fork_handler_registered = pthread_atfork(nullptr, nullptr, &AfterForkInChild);
}  // namespace

void NoteParallelRegion() {
    if (!parallel_regions_run.load(std::memory_order_relaxed))
        parallel_regions_run.store(true, std::memory_order_relaxed);
}

void SetThreadCountOverride(int count) { thread_count_override = count > 0 ? count : 0; }

int ConfiguredThreadCount() {
    if (thread_pool_lost.load(std::memory_order_relaxed)) return 1;
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
