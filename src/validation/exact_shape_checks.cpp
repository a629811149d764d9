#include "validation/exact_shape_checks.h"

#include <algorithm>
#include <string>

#include "aclnn/opdev/op_errno.h"
#include "common/error_message.h"
#include "validation/tensor_checks.h"

namespace aclnn_cpu::validation::checks {
namespace {

// Every message: "<api>: " then CANN's text.
template <class... Args>
aclnnStatus Invalid(const BroadcastOperation& op, const std::string& format, const Args&... args) {
    SetErrorMessage(kAclnnParameterError, ("%s: " + format).c_str(), op.api, args...);
    return ACLNN_ERR_PARAM_INVALID;
}

const NamedTensor& At(const BroadcastOperation& op, int index) {
    return index == kOut ? op.out : op.inputs[static_cast<size_t>(index)];
}

std::string Shape(const NamedTensor& t) { return CannShapeString(t.tensor->view_dims); }

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

CheckStep DtypeMatches(int checked, int expected) {
    return [checked, expected](const BroadcastOperation& op, ValidationState&) -> aclnnStatus {
        const NamedTensor& t = At(op, checked);
        const NamedTensor& e = At(op, expected);
        if (t.tensor == nullptr || e.tensor == nullptr || t.tensor->data_type == e.tensor->data_type)
            return ACLNN_SUCCESS;
        return Invalid(op, "Tensor %s expected dtype is %s but found %s.", t.name,
                       CannDtypeName(e.tensor->data_type).c_str(), CannDtypeName(t.tensor->data_type).c_str());
    };
}

CheckStep ShapesEqual(int a, int b) {
    return [a, b](const BroadcastOperation& op, ValidationState&) -> aclnnStatus {
        const NamedTensor& x = At(op, a);
        const NamedTensor& y = At(op, b);
        if (x.tensor->view_dims == y.tensor->view_dims) return ACLNN_SUCCESS;
        return Invalid(op, "Expected tensor for %s to have same size as tensor for %s, but %s does not equal %s.",
                       x.name, y.name, Shape(x).c_str(), Shape(y).c_str());
    };
}

CheckStep BroadcastsToShapeOf(int first, int second, int shape_of, const char* mismatch_message) {
    return [=](const BroadcastOperation& op, ValidationState&) -> aclnnStatus {
        const NamedTensor& x = At(op, first);
        const NamedTensor& y = At(op, second);
        if (x.tensor == nullptr || y.tensor == nullptr) return ACLNN_SUCCESS;
        std::vector<int64_t> shape;
        int conflict = 0;
        if (!BroadcastShapes(x.tensor->view_dims, y.tensor->view_dims, &shape, &conflict))
            return Invalid(op, "The size of tensor %s %s must match the size of tensor %s %s.", x.name,
                           Shape(x).c_str(), y.name, Shape(y).c_str());
        if (shape == At(op, shape_of).tensor->view_dims) return ACLNN_SUCCESS;
        return Invalid(op, mismatch_message, Shape(x).c_str(), Shape(y).c_str(), CannShapeString(shape).c_str());
    };
}

CheckStep StorageFormatsEqual(int a, int b) {
    return [a, b](const BroadcastOperation& op, ValidationState&) -> aclnnStatus {
        const NamedTensor& x = At(op, a);
        const NamedTensor& y = At(op, b);
        if (y.tensor == nullptr || x.tensor->format == y.tensor->format) return ACLNN_SUCCESS;
        return Invalid(op, "Format of %s and %s can't be different, %s [%s], %s [%s].", x.name, y.name, x.name,
                       FormatName(x.tensor->format).c_str(), y.name, FormatName(y.tensor->format).c_str());
    };
}

CheckStep UnlessEmpty(int tensor, std::vector<CheckStep> steps) {
    return [tensor, steps](const BroadcastOperation& op, ValidationState& state) -> aclnnStatus {
        for (int64_t d : At(op, tensor).tensor->view_dims)
            if (d == 0) return ACLNN_SUCCESS;
        for (const CheckStep& step : steps) {
            const aclnnStatus status = step(op, state);
            if (status != ACLNN_SUCCESS) return status;
        }
        return ACLNN_SUCCESS;
    };
}

CheckStep SucceedIfEmpty(std::vector<int> tensors, bool when) {
    return [tensors, when](const BroadcastOperation& op, ValidationState& state) -> aclnnStatus {
        if (!when) return ACLNN_SUCCESS;
        for (int index : tensors)
            for (int64_t d : At(op, index).tensor->view_dims)
                if (d == 0) state.finished_early = true;
        return ACLNN_SUCCESS;
    };
}

CheckStep NoBf16OnOlderChips(std::vector<int> tensors, const char* message) {
    return [tensors, message](const BroadcastOperation& op, ValidationState&) -> aclnnStatus {
        if (OnNewerChip()) return ACLNN_SUCCESS;
        for (int index : tensors)
            if (At(op, index).tensor->data_type == ACL_BF16) return Invalid(op, message);
        return ACLNN_SUCCESS;
    };
}

CheckStep DimInRange(int tensor, int64_t dim) {
    return [tensor, dim](const BroadcastOperation& op, ValidationState&) -> aclnnStatus {
        const int64_t rank = std::max<int64_t>(1, static_cast<int64_t>(At(op, tensor).tensor->view_dims.size()));
        if (dim >= -rank && dim < rank) return ACLNN_SUCCESS;
        return Invalid(op, "provided dim %lld not in the range of input size %lld.", static_cast<long long>(dim),
                       static_cast<long long>(rank));
    };
}

}  // namespace aclnn_cpu::validation::checks
