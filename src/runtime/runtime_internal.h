// What libascendcl offers to our other libraries: putting work on a stream, and asking whether memory
// belongs to a live device allocation (the strict memory checks).
#pragma once

#include <cstddef>

#include "acl/acl_base.h"
#include "common/export.h"
#include "runtime/stream.h"

namespace aclnn_cpu::rt {

// Enqueues task on stream (nullptr: the default stream). Returns ACL_ERROR_INVALID_PARAM, with a message
// naming caller, when stream is not a live stream. With small_task, a task that finds the stream idle runs
// at once on the calling thread instead (same order, same result, no thread hand-off).
ACLNN_CPU_INTERNAL aclError EnqueueOnStream(aclrtStream stream, Task task, const char* caller,
                                            bool small_task = false);

// The one rule for every range a copy, a memset, an operator operand or a workspace addresses. Returns true
// when the range may be used: inside a block; inside its padding (then a warning names caller, what, the block
// and the overrun); or, with strict off, in memory the library does not know (a host buffer). A range that
// starts in a known block and runs past its padding is refused whatever strict says: on an NPU it faults, here
// it would read or write another allocation. On false, problem says why, naming the range and the block.
// Allocates nothing, so a copy can report even when memory has run out.
struct RangeProblem {
    char text[320] = "";
    bool in_unknown_memory = false;  // refused only because strict is on: memory the library does not know
};
ACLNN_CPU_INTERNAL bool AdmitDeviceRange(const char* caller, const char* what, const void* address, size_t bytes,
                                         bool strict, RangeProblem* problem);

}  // namespace aclnn_cpu::rt
