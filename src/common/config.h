// The environment variables of SPEC section 6. Read on every call (getenv is cheap next to an operator),
// so a program, or a test, may change them between calls.
#pragma once

#include "common/export.h"

namespace aclnn_cpu {

// ACLNN_CPU_STRICT_MEMORY: anything but "0" (or unset) keeps the strict memory checks on.
ACLNN_CPU_INTERNAL bool StrictMemoryChecks();

// ACLNN_CPU_NUM_THREADS: a positive integer; unset or invalid means all online cores.
ACLNN_CPU_INTERNAL int ConfiguredThreadCount();

}  // namespace aclnn_cpu
