// The operators this project offers, as one table that everything calling them by name reads: the Python
// package (aclnn_cpu._core) and through it the aclnn-cpu command line and the PyTorch registration, the fuzz
// harness and the stress program. Adding an operator means one row here (docs/design.md, "How to add an
// operator"). Header-only and built on the public API alone, so a tool needs no internal library to use it.
#pragma once

#include <cstdint>
#include <cstring>

#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_soft_margin_loss.h"
#include "aclnnop/aclnn_soft_margin_loss_backward.h"

namespace aclnn_cpu {

constexpr int kMaxOperatorInputs = 3;

// Phase 1 with the inputs in the operator's order (inputs[0 .. input_count)), and phase 2.
using GetWorkspaceSizeFunction = aclnnStatus (*)(const aclTensor* const* inputs, int64_t reduction, aclTensor* out,
                                                 uint64_t* workspace_size, aclOpExecutor** executor);
using RunFunction = aclnnStatus (*)(void* workspace, uint64_t workspace_size, aclOpExecutor* executor,
                                    aclrtStream stream);

struct OperatorDescription {
    const char* name;      // snake_case; also PyTorch's aten operator of the same arithmetic
    const char* api_name;  // the C API's name, for messages
    int input_count;
    const char* input_names[kMaxOperatorInputs];       // CANN's parameter names, in order (out comes last)
    const char* aten_input_names[kMaxOperatorInputs];  // PyTorch's names of the same inputs in aten's schemas
    int self_input;  // the input PyTorch's result takes its dtype from (self)
    // Whether a reduction other than none makes out 0-d (the loss), or out keeps the broadcast shape (the
    // gradient, whose mean only scales).
    bool reduction_gives_scalar;
    GetWorkspaceSizeFunction get_workspace_size;
    RunFunction run;
};

inline constexpr OperatorDescription kOperators[] = {
    {"soft_margin_loss_backward", "aclnnSoftMarginLossBackward", 3, {"gradOutput", "self", "target"},
     {"grad_output", "self", "target"}, 1, false,
     [](const aclTensor* const* in, int64_t reduction, aclTensor* out, uint64_t* size, aclOpExecutor** executor) {
         return aclnnSoftMarginLossBackwardGetWorkspaceSize(in[0], in[1], in[2], reduction, out, size, executor);
     },
     aclnnSoftMarginLossBackward},
    {"soft_margin_loss", "aclnnSoftMarginLoss", 2, {"self", "target", nullptr}, {"self", "target", nullptr}, 0, true,
     [](const aclTensor* const* in, int64_t reduction, aclTensor* out, uint64_t* size, aclOpExecutor** executor) {
         return aclnnSoftMarginLossGetWorkspaceSize(in[0], in[1], reduction, out, size, executor);
     },
     aclnnSoftMarginLoss},
};

inline constexpr int kOperatorCount = static_cast<int>(sizeof(kOperators) / sizeof(kOperators[0]));

// The row named `name`, or nullptr.
inline const OperatorDescription* FindOperator(const char* name) {
    for (const OperatorDescription& description : kOperators)
        if (std::strcmp(description.name, name) == 0) return &description;
    return nullptr;
}

}  // namespace aclnn_cpu
