// The two phases of an operator along one dim (the softmax family), as elementwise_operator.h has them for the
// elementwise ones: an operator's API file lists its checks in CANN's order and describes its row kernels;
// these validate, plan and hand out the executor, and later run it.
#pragma once

#include <functional>

#include "engine/along_dim_plan.h"
#include "validation/broadcast_validation.h"

namespace aclnn_cpu::engine {

struct AlongDimRequest {
    const char* phase2_name = "";
    validation::BroadcastOperation validation;  // the tensors (one shape), the steps in CANN's order
    int64_t dim = 0;
    // Builds the description once validation passed.
    std::function<AlongDimDescription(const validation::ValidatedOperation&)> describe;
};

// Phase 1: validates, plans, checks addresses, and hands out the executor and its workspace size. A call
// CANN's op_api ends early with success (an empty tensor) gets an executor that computes nothing.
aclnnStatus PlanAlongDimOperator(const AlongDimRequest& request);

}  // namespace aclnn_cpu::engine
