#include "ops/soft_margin_loss_backward/smlb_validate.h"

#include <string>

#include "aclnn/opdev/op_errno.h"
#include "common/error_message.h"

namespace aclnn_cpu::ops::smlb {
namespace {

constexpr const char* kTensorNames[4] = {"gradOutput", "self", "target", "out"};

bool SupportedType(int32_t type) { return type == ACL_FLOAT || type == ACL_FLOAT16 || type == ACL_BF16; }

int64_t TypeSize(int32_t type) { return type == ACL_FLOAT ? 4 : 2; }

}  // namespace

aclnnStatus Validate(const Arguments& args, ValidatedShapes* shapes) {
    // 1. output pointers
    if (args.workspace_size == nullptr || args.executor == nullptr) {
        SetErrorMessage("%s: Expected a proper pointer but got null for argument %s.", kPhase1Name,
                        args.workspace_size == nullptr ? "workspaceSize" : "executor");
        return ACLNN_ERR_PARAM_NULLPTR;
    }
    // 2. tensors
    const aclTensor* tensors[4] = {args.grad_output, args.self, args.target, args.out};
    for (int i = 0; i < 4; ++i) {
        if (tensors[i] == nullptr) {
            SetErrorMessage("%s: Expected a proper Tensor but got null for argument %s.", kPhase1Name,
                            kTensorNames[i]);
            return ACLNN_ERR_PARAM_NULLPTR;
        }
    }
    // 3. dtypes
    for (int i = 0; i < 4; ++i) {
        if (!SupportedType(tensors[i]->data_type)) {
            SetErrorMessage("%s: %s has dtype %s; the supported dtypes are FLOAT, FLOAT16 and BFLOAT16.",
                            kPhase1Name, kTensorNames[i], DataTypeName(tensors[i]->data_type).c_str());
            return ACLNN_ERR_PARAM_INVALID;
        }
    }
    // 4. ranks
    for (int i = 0; i < 4; ++i) {
        if (tensors[i]->view_dims.size() > kMaxRank) {
            SetErrorMessage("%s: %s has %zu dims %s; at most %d are supported.", kPhase1Name, kTensorNames[i],
                            tensors[i]->view_dims.size(), ShapeString(tensors[i]->view_dims).c_str(), kMaxRank);
            return ACLNN_ERR_PARAM_INVALID;
        }
    }
    // 5. layouts: non-negative sizes, no int64 overflow
    for (int i = 0; i < 4; ++i) {
        const std::string problem = CheckLayout(*tensors[i], TypeSize(tensors[i]->data_type), &shapes->extents[i]);
        if (!problem.empty()) {
            SetErrorMessage("%s: %s (shape %s) %s.", kPhase1Name, kTensorNames[i],
                            ShapeString(tensors[i]->view_dims).c_str(), problem.c_str());
            return ACLNN_ERR_PARAM_INVALID;
        }
    }
    // 6. broadcast: gradOutput with self, then target with their broadcast
    std::vector<int64_t> grad_self;
    int conflict = 0;
    if (!BroadcastShapes(args.grad_output->view_dims, args.self->view_dims, &grad_self, &conflict)) {
        SetErrorMessage("%s: gradOutput shape %s and self shape %s cannot broadcast (dim %d differs and neither is 1).",
                        kPhase1Name, ShapeString(args.grad_output->view_dims).c_str(),
                        ShapeString(args.self->view_dims).c_str(), conflict);
        return ACLNN_ERR_PARAM_INVALID;
    }
    if (!BroadcastShapes(grad_self, args.target->view_dims, &shapes->broadcast_shape, &conflict)) {
        SetErrorMessage("%s: target shape %s cannot broadcast with %s, the broadcast of gradOutput and self "
                        "(dim %d differs and neither is 1).", kPhase1Name,
                        ShapeString(args.target->view_dims).c_str(), ShapeString(grad_self).c_str(), conflict);
        return ACLNN_ERR_PARAM_INVALID;
    }
    // 7. out's shape
    if (args.out->view_dims != shapes->broadcast_shape) {
        SetErrorMessage("%s: out shape %s must equal the broadcast shape %s of gradOutput, self and target.",
                        kPhase1Name, ShapeString(args.out->view_dims).c_str(),
                        ShapeString(shapes->broadcast_shape).c_str());
        return ACLNN_ERR_PARAM_INVALID;
    }
    // 8. reduction
    if (args.reduction < 0 || args.reduction > 2) {
        SetErrorMessage("%s: reduction is %lld; expected 0 (none), 1 (mean) or 2 (sum).", kPhase1Name,
                        static_cast<long long>(args.reduction));
        return ACLNN_ERR_PARAM_INVALID;
    }
    // 9. out must not write two elements to one address
    if (HasInternalOverlap(args.out->view_dims, args.out->strides)) {
        SetErrorMessage("%s: out (shape %s, strides %s) maps two elements to the same address; out must not "
                        "overlap itself.", kPhase1Name, ShapeString(args.out->view_dims).c_str(),
                        ShapeString(args.out->strides).c_str());
        return ACLNN_ERR_PARAM_INVALID;
    }
    return ACLNN_SUCCESS;
}

}  // namespace aclnn_cpu::ops::smlb
