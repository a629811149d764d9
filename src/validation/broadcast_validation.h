// Phase-1 validation shared by broadcasting operators, in CANN's order (ops-nn's loss/common checks):
//   1. workspaceSize / executor not null          161001
//   2. each tensor not null, in argument order     161001
//   3. each dtype FLOAT, FLOAT16 or BFLOAT16       161002
//   4. each rank <= 8                              161002
//   5. each layout sane (no negative dim, stride, offset; no int64 overflow)   161002
//   6. the inputs broadcast, left to right          161002
//   7. out's shape: the broadcast shape, or 0-d     161002
//   8. the operator's own checks (e.g. reduction)   the status they return
//   9. out does not map two elements to one address 161002
// Every failure sets the recent error message, naming the API, the argument and the rule; nothing is written.
// The address checks (strict memory) need the data pointers and are the plan's (engine/elementwise_plan.h).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "aclnn/acl_meta.h"
#include "validation/tensor_checks.h"

namespace aclnn_cpu::validation {

constexpr int kMaxRank = 8;

struct NamedTensor {
    const aclTensor* tensor;
    const char* name;  // the argument's name in CANN's prototype
};

enum class OutShapeRule {
    kBroadcast,  // out's view shape equals the inputs' broadcast shape (elementwise)
    kScalar,     // out is 0-d (a full reduction)
};

struct BroadcastOperation {
    const char* api;  // the phase-1 function, for messages
    uint64_t* workspace_size;   // where phase 1 writes its results (checked first)
    aclOpExecutor** executor;
    std::vector<NamedTensor> inputs;  // broadcast left to right: (in0, in1), then that with in2, ...
    NamedTensor out;
    OutShapeRule out_shape = OutShapeRule::kBroadcast;
    // Check 8: the operator's own rules; returns ACLNN_SUCCESS or a status with the message set.
    std::function<aclnnStatus()> operator_checks;
};

struct ValidatedOperation {
    std::vector<int64_t> broadcast_shape;  // S, over which the operator iterates
    std::vector<ViewExtent> extents;       // per tensor: the inputs, then out
};

aclnnStatus ValidateBroadcastOperation(const BroadcastOperation& operation, ValidatedOperation* validated);

}  // namespace aclnn_cpu::validation
