#include "validation/broadcast_validation.h"

#include <algorithm>
#include <string>

#include "aclnn/opdev/op_errno.h"
#include "common/error_message.h"

namespace aclnn_cpu::validation {
namespace {

// The most elements a broadcast shape may have: 2^60, so that any element offset times an element size (at
// most 8 bytes) still fits in int64.
constexpr int64_t kMaxBroadcastElements = int64_t{1} << 60;

bool SupportedType(int32_t type) { return type == ACL_FLOAT || type == ACL_FLOAT16 || type == ACL_BF16; }

int64_t TypeSize(int32_t type) { return type == ACL_FLOAT ? 4 : 2; }

// "gradOutput and self" / "a, b and c": the names of the first `count` inputs, for messages.
std::string JoinNames(const std::vector<NamedTensor>& tensors, size_t count) {
    std::string text;
    for (size_t i = 0; i < count; ++i) {
        if (i > 0) text += i + 1 == count ? " and " : ", ";
        text += tensors[i].name;
    }
    return text;
}

}  // namespace

aclnnStatus ValidateBroadcastOperation(const BroadcastOperation& op, ValidatedOperation* validated) {
    const char* api = op.api;
    // 1. output pointers
    if (op.workspace_size == nullptr || op.executor == nullptr) {
        SetErrorMessage(aclnn_cpu::kAclnnParameterError,
                        "%s: Expected a proper pointer but got null for argument %s.", api,
                        op.workspace_size == nullptr ? "workspaceSize" : "executor");
        return ACLNN_ERR_PARAM_NULLPTR;
    }
    std::vector<NamedTensor> all = op.inputs;
    all.push_back(op.out);
    // 2. tensors
    for (const NamedTensor& t : all) {
        if (t.tensor == nullptr) {
            SetErrorMessage(aclnn_cpu::kAclnnParameterError,
                            "%s: Expected a proper Tensor but got null for argument %s.", api, t.name);
            return ACLNN_ERR_PARAM_NULLPTR;
        }
    }
    // 3. dtypes
    for (const NamedTensor& t : all) {
        if (!SupportedType(t.tensor->data_type)) {
            SetErrorMessage(aclnn_cpu::kAclnnParameterError,
                            "%s: %s has dtype %s; the supported dtypes are FLOAT, FLOAT16 and BFLOAT16.", api, t.name,
                            DataTypeName(t.tensor->data_type).c_str());
            return ACLNN_ERR_PARAM_INVALID;
        }
    }
    // 4. ranks
    for (const NamedTensor& t : all) {
        if (t.tensor->view_dims.size() > kMaxRank) {
            SetErrorMessage(aclnn_cpu::kAclnnParameterError,
                            "%s: %s has %zu dims %s; at most %d are supported.", api, t.name,
                            t.tensor->view_dims.size(), ShapeString(t.tensor->view_dims).c_str(), kMaxRank);
            return ACLNN_ERR_PARAM_INVALID;
        }
    }
    // 5. layouts: non-negative sizes, no int64 overflow
    validated->extents.assign(all.size(), ViewExtent{});
    for (size_t i = 0; i < all.size(); ++i) {
        const aclTensor& tensor = *all[i].tensor;
        const std::string problem = CheckLayout(tensor, TypeSize(tensor.data_type), &validated->extents[i]);
        if (!problem.empty()) {
            SetErrorMessage(aclnn_cpu::kAclnnParameterError,
                            "%s: %s (shape %s) %s.", api, all[i].name, ShapeString(tensor.view_dims).c_str(),
                            problem.c_str());
            return ACLNN_ERR_PARAM_INVALID;
        }
    }
    // 6. broadcast, left to right
    std::vector<int64_t> shape = op.inputs[0].tensor->view_dims;
    for (size_t i = 1; i < op.inputs.size(); ++i) {
        std::vector<int64_t> next;
        int conflict = 0;
        const auto& dims = op.inputs[i].tensor->view_dims;
        if (!BroadcastShapes(shape, dims, &next, &conflict)) {
            if (i == 1) {
                SetErrorMessage(aclnn_cpu::kAclnnParameterError,
                                "%s: %s shape %s and %s shape %s cannot broadcast (dim %d differs and neither is 1).",
                                api, op.inputs[0].name, ShapeString(shape).c_str(), op.inputs[1].name,
                                ShapeString(dims).c_str(), conflict);
            } else {
                SetErrorMessage(aclnn_cpu::kAclnnParameterError,
                                "%s: %s shape %s cannot broadcast with %s, the broadcast of %s (dim %d differs and "
                                "neither is 1).", api, op.inputs[i].name, ShapeString(dims).c_str(),
                                ShapeString(shape).c_str(), JoinNames(op.inputs, i).c_str(), conflict);
            }
            return ACLNN_ERR_PARAM_INVALID;
        }
        shape = std::move(next);
    }
    // A 0-d out (a reduction) does not bound the broadcast shape: [2^40,1] with [1,2^40] broadcast to 2^80
    // elements, which no int64 index or byte offset can address. An empty shape has nothing to address.
    const bool empty = std::find(shape.begin(), shape.end(), 0) != shape.end();
    int64_t broadcast_count = 1;
    for (size_t d = 0; d < shape.size() && !empty; ++d) {
        if (__builtin_mul_overflow(broadcast_count, shape[d], &broadcast_count) ||
            broadcast_count > kMaxBroadcastElements) {
            SetErrorMessage(aclnn_cpu::kAclnnParameterError,
                            "%s: the broadcast shape %s of %s has more than 2^60 elements, more than int64 byte "
                            "offsets can address.", api, ShapeString(shape).c_str(),
                            JoinNames(op.inputs, op.inputs.size()).c_str());
            return ACLNN_ERR_PARAM_INVALID;
        }
    }
    // 7. out's shape
    const auto& out_dims = op.out.tensor->view_dims;
    if (op.out_shape == OutShapeRule::kBroadcast && out_dims != shape) {
        SetErrorMessage(aclnn_cpu::kAclnnParameterError,
                        "%s: %s shape %s must equal the broadcast shape %s of %s.", api, op.out.name,
                        ShapeString(out_dims).c_str(), ShapeString(shape).c_str(),
                        JoinNames(op.inputs, op.inputs.size()).c_str());
        return ACLNN_ERR_PARAM_INVALID;
    }
    if (op.out_shape == OutShapeRule::kScalar && !out_dims.empty()) {
        SetErrorMessage(aclnn_cpu::kAclnnParameterError,
                        "%s: Expected a 0-dimensional tensor for %s of a reduction, but got shape %s.", api,
                        op.out.name, ShapeString(out_dims).c_str());
        return ACLNN_ERR_PARAM_INVALID;
    }
    // 8. the operator's own checks
    if (op.operator_checks) {
        const aclnnStatus status = op.operator_checks();
        if (status != ACLNN_SUCCESS) return status;
    }
    // 9. out must not write two elements to one address
    if (HasInternalOverlap(out_dims, op.out.tensor->strides)) {
        SetErrorMessage(aclnn_cpu::kAclnnParameterError,
                        "%s: %s (shape %s, strides %s) maps two elements to the same address; %s must not overlap "
                        "itself.", api, op.out.name, ShapeString(out_dims).c_str(),
                        ShapeString(op.out.tensor->strides).c_str(), op.out.name);
        return ACLNN_ERR_PARAM_INVALID;
    }
    validated->broadcast_shape = std::move(shape);
    return ACLNN_SUCCESS;
}

}  // namespace aclnn_cpu::validation
