// aclOpExecutor and the two-phase protocol around it (CANN's CommonOpExecutorRun): phase 1 creates an
// executor holding a plan; phase 2 runs it once and frees it, unless it was made repeatable.
#pragma once

#include <memory>
#include <vector>

#include "aclnn/acl_meta.h"
#include "common/export.h"
#include "executor/op_plan.h"

struct aclOpExecutor {
    std::shared_ptr<const aclnn_cpu::OpPlan> plan;  // shared with tasks still queued on a stream
    std::vector<aclTensor*> inputs;
    std::vector<aclTensor*> outputs;
    bool repeatable = false;
    const char* op_name = "";
};

namespace aclnn_cpu {

// Registers a new executor (nullptr when out of memory).
ACLNN_CPU_INTERNAL aclOpExecutor* CreateExecutor(std::shared_ptr<const OpPlan> plan, std::vector<aclTensor*> inputs,
                                                 std::vector<aclTensor*> outputs, const char* op_name);

// Phase 2 of every operator: checks the executor and the workspace, binds and enqueues the plan on stream,
// and frees a single-use executor.
ACLNN_CPU_INTERNAL aclnnStatus RunExecutor(void* workspace, uint64_t workspace_size, aclOpExecutor* executor,
                                           aclrtStream stream, const char* caller);

}  // namespace aclnn_cpu
