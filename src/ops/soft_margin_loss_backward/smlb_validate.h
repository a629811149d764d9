// Phase-1 validation of aclnnSoftMarginLossBackward, SPEC section 4's checks 1-9 in order (check 10, the
// addresses, needs the data pointers and is made by the plan, in phase 1 and again in phase 2).
#pragma once

#include <cstdint>
#include <vector>

#include "aclnn/acl_meta.h"
#include "ops/common/tensor_checks.h"

namespace aclnn_cpu::ops::smlb {

constexpr const char* kPhase1Name = "aclnnSoftMarginLossBackwardGetWorkspaceSize";
constexpr const char* kPhase2Name = "aclnnSoftMarginLossBackward";
constexpr int kMaxRank = 8;

struct Arguments {
    const aclTensor* grad_output;
    const aclTensor* self;
    const aclTensor* target;
    int64_t reduction;
    aclTensor* out;
    uint64_t* workspace_size;
    aclOpExecutor** executor;
};

struct ValidatedShapes {
    std::vector<int64_t> broadcast_shape;  // S
    ViewExtent extents[4];                 // gradOutput, self, target, out
};

// Returns ACLNN_SUCCESS or the status of the first failed check, with the recent error message set.
aclnnStatus Validate(const Arguments& args, ValidatedShapes* shapes);

}  // namespace aclnn_cpu::ops::smlb
