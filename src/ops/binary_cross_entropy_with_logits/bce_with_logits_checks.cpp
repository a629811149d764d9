#include "ops/binary_cross_entropy_with_logits/bce_with_logits_checks.h"

#include <string>

#include "aclnn/opdev/op_errno.h"
#include "common/error_message.h"
#include "validation/tensor_checks.h"

namespace aclnn_cpu::ops::binary_cross_entropy_with_logits {
namespace {

using validation::BroadcastOperation;
using validation::CannShapeString;
using validation::NamedTensor;
using validation::ValidationState;

// Every message: "<api>: " then CANN's text.
template <class... Args>
aclnnStatus Invalid(const BroadcastOperation& op, const std::string& format, const Args&... args) {
    SetErrorMessage(kAclnnParameterError, ("%s: " + format).c_str(), op.api, args...);
    return ACLNN_ERR_PARAM_INVALID;
}

const NamedTensor& At(const BroadcastOperation& op, int index) {
    return index == validation::checks::kOut ? op.out : op.inputs[static_cast<size_t>(index)];
}

int64_t ElementCount(const aclTensor& t) {
    int64_t count = 1;
    for (int64_t d : t.view_dims) count *= d;
    return count;
}

// OP_CHECK_SHAPE_NOT_EQUAL(a, b).
aclnnStatus ShapesEqual(const BroadcastOperation& op, int a, int b) {
    const NamedTensor& x = At(op, a);
    const NamedTensor& y = At(op, b);
    if (x.tensor->view_dims == y.tensor->view_dims) return ACLNN_SUCCESS;
    return Invalid(op, "Expected tensor for %s to have same size as tensor for %s, but %s does not equal %s.", x.name,
                   y.name, CannShapeString(x.tensor->view_dims).c_str(), CannShapeString(y.tensor->view_dims).c_str());
}

// OP_CHECK_BROADCAST_AND_INFER_SHAPE(a, b): a's shape broadcast with b's, into *shape.
aclnnStatus Broadcasts(const BroadcastOperation& op, int a, int b, std::vector<int64_t>* shape) {
    const NamedTensor& x = At(op, a);
    const NamedTensor& y = At(op, b);
    int conflict = 0;
    if (validation::BroadcastShapes(x.tensor->view_dims, y.tensor->view_dims, shape, &conflict)) return ACLNN_SUCCESS;
    return Invalid(op, "The size of tensor %s %s must match the size of tensor %s %s.", x.name,
                   CannShapeString(x.tensor->view_dims).c_str(), y.name, CannShapeString(y.tensor->view_dims).c_str());
}

// CANN's op::ToString(Format) for the formats a program names.
std::string FormatName(int32_t format) {
    switch (format) {
        case ACL_FORMAT_NCHW: return "NCHW";
        case ACL_FORMAT_NHWC: return "NHWC";
        case ACL_FORMAT_ND: return "ND";
        case ACL_FORMAT_NC1HWC0: return "NC1HWC0";
        case ACL_FORMAT_FRACTAL_Z: return "FRACTAL_Z";
        case ACL_FORMAT_HWCN: return "HWCN";
        case ACL_FORMAT_NDHWC: return "NDHWC";
        case ACL_FORMAT_FRACTAL_NZ: return "FRACTAL_NZ";
        case ACL_FORMAT_NCDHW: return "NCDHW";
        case ACL_FORMAT_NC: return "NC";
        case ACL_FORMAT_NCL: return "NCL";
        default: return "format " + std::to_string(format);
    }
}

}  // namespace

validation::CheckStep DtypeMatches(int checked, int expected) {
    return [checked, expected](const BroadcastOperation& op, ValidationState&) -> aclnnStatus {
        const NamedTensor& t = At(op, checked);
        const int32_t want = At(op, expected).tensor->data_type;
        if (t.tensor->data_type == want) return ACLNN_SUCCESS;
        return Invalid(op, "Tensor %s expected dtype is %s but found %s.", t.name,
                       validation::CannDtypeName(want).c_str(), validation::CannDtypeName(t.tensor->data_type).c_str());
    };
}

validation::CheckStep ForwardShapes() {
    constexpr int kSelf = 0, kTarget = 1;
    return [](const BroadcastOperation& op, ValidationState&) -> aclnnStatus {
        aclnnStatus status = ShapesEqual(op, kSelf, kTarget);
        if (status != ACLNN_SUCCESS || ElementCount(*op.inputs[kTarget].tensor) == 0) return status;
        const std::vector<int64_t>& target_dims = op.inputs[kTarget].tensor->view_dims;
        for (int optional : {2, 3}) {
            if (op.inputs[static_cast<size_t>(optional)].tensor == nullptr) continue;
            std::vector<int64_t> shape;
            status = Broadcasts(op, optional, kTarget, &shape);
            if (status != ACLNN_SUCCESS) return status;
            if (shape != target_dims)
                return Invalid(op, "%s %s broadcast with target %s gives %s; aclnn-cpu needs it to broadcast to "
                               "target's shape.", At(op, optional).name, CannShapeString(At(op, optional).tensor->view_dims).c_str(),
                               CannShapeString(target_dims).c_str(), CannShapeString(shape).c_str());
        }
        return ACLNN_SUCCESS;
    };
}

validation::CheckStep BackwardFormats() {
    constexpr int kSelf = 1, kTarget = 2;
    return [](const BroadcastOperation& op, ValidationState&) -> aclnnStatus {
        const int32_t self_format = op.inputs[kSelf].tensor->format;
        for (int other : {kTarget, validation::checks::kOut}) {
            const NamedTensor& t = At(op, other);
            if (t.tensor->format != self_format)
                return Invalid(op, "Format of self and %s can't be different, self [%s], %s [%s].", t.name,
                               FormatName(self_format).c_str(), t.name, FormatName(t.tensor->format).c_str());
        }
        return ACLNN_SUCCESS;
    };
}

validation::CheckStep BackwardShapes() {
    constexpr int kGradOutput = 0, kSelf = 1, kTarget = 2;
    return [](const BroadcastOperation& op, ValidationState&) -> aclnnStatus {
        if (ElementCount(*op.inputs[kSelf].tensor) == 0) return ACLNN_SUCCESS;
        aclnnStatus status = ShapesEqual(op, kSelf, kTarget);
        if (status == ACLNN_SUCCESS) status = ShapesEqual(op, kSelf, validation::checks::kOut);
        if (status != ACLNN_SUCCESS) return status;
        for (int input : {kGradOutput, 3, 4}) {
            if (op.inputs[static_cast<size_t>(input)].tensor == nullptr) continue;
            std::vector<int64_t> shape;
            status = Broadcasts(op, input, kSelf, &shape);
            if (status != ACLNN_SUCCESS) return status;
            if (shape != op.inputs[kSelf].tensor->view_dims) return Invalid(op, "check selfShape == broadcastShape failed.");
        }
        return ACLNN_SUCCESS;
    };
}

}  // namespace aclnn_cpu::ops::binary_cross_entropy_with_logits
