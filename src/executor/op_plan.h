// What phase 1 of an operator hands to its executor: everything decided in advance (validation, shapes,
// strides, kernel choice), so that phase 2 only binds the current data addresses and runs.
#pragma once

#include <cstdint>

#include "aclnn/acl_meta.h"
#include "runtime/stream.h"

namespace aclnn_cpu {

class OpPlan {
public:
    virtual ~OpPlan() = default;

    // Bytes of workspace phase 2 needs; fixed by phase 1.
    virtual uint64_t WorkspaceSize() const = 0;

    // Phase 2, on the caller's thread: reads the tensors' current data addresses, checks them, and produces
    // the task that the stream will run. On failure sets the recent error message and returns an aclnn status.
    virtual aclnnStatus Bind(void* workspace, uint64_t workspace_size, rt::Task* task) const = 0;

    // True when the work is so small that handing it to the stream's worker thread would cost more than
    // running it (the stream then runs it on the caller's thread if it is idle).
    virtual bool IsSmall() const = 0;
};

}  // namespace aclnn_cpu
