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

// True when [address, address + bytes) lies inside one live aclrtMalloc block.
ACLNN_CPU_INTERNAL bool InsideDeviceAllocation(const void* address, size_t bytes);

}  // namespace aclnn_cpu::rt
