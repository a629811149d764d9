// The environment variables of docs/contract.md section 6. Read on every call (getenv is cheap next to an
// operator), so a program, or a test, may change them between calls.
#pragma once

#include "common/export.h"

namespace aclnn_cpu {

// ACLNN_CPU_STRICT_MEMORY: anything but "0" (or unset) keeps the strict memory checks on.
ACLNN_CPU_INTERNAL bool StrictMemoryChecks();

// The most threads an operator is given: ACLNN_CPU_NUM_THREADS and aclnnCpuSetThreadCount share the bound.
constexpr int kMaxThreadCount = 4096;

// The thread count of the operators launched from the calling thread: what SetThreadCountOverride set on
// this thread if anything, else ACLNN_CPU_NUM_THREADS (a positive integer), else all online cores; 1 in a
// process forked after this library ran a parallel region (OpenMP's pool is not fork-safe).
ACLNN_CPU_INTERNAL int ConfiguredThreadCount();

// Called before each OpenMP parallel region, so that a forked child knows its pool is gone.
ACLNN_CPU_INTERNAL void NoteParallelRegion();

// aclnnCpuSetThreadCount's storage: count > 0 overrides the environment on the calling thread; 0 clears.
ACLNN_CPU_INTERNAL void SetThreadCountOverride(int count);

}  // namespace aclnn_cpu
