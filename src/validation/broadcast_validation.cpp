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


const NamedTensor& TensorAt(const BroadcastOperation& op, int index) {
    return index == checks::kOut ? op.out : op.inputs[static_cast<size_t>(index)];
}

// Whether the tensor at index is given (not an absent optional input).
bool Present(const BroadcastOperation& op, int index) { return TensorAt(op, index).tensor != nullptr; }

aclnnStatus Invalid(const char* format, const char* api, const std::string& a, const std::string& b = "",
                    const std::string& c = "", const std::string& d = "") {
    // Every message: "<api>: " then CANN's text (format's first %s is the api).
    SetErrorMessage(aclnn_cpu::kAclnnParameterError, format, api, a.c_str(), b.c_str(), c.c_str(), d.c_str());
    return ACLNN_ERR_PARAM_INVALID;
}

int32_t PromotedType(const BroadcastOperation& op, const std::vector<int>& inputs) {
    int32_t type = ACL_DT_UNDEFINED;
    bool first = true;
    for (int index : inputs) {
        if (!Present(op, index)) continue;
        const int32_t next = TensorAt(op, index).tensor->data_type;
        type = first ? next : type == ACL_DT_UNDEFINED ? type : PromoteType(type, next);
        first = false;
    }
    return type;
}

std::string NamesOf(const std::vector<const NamedTensor*>& tensors, size_t count) {
    std::string text;
    for (size_t i = 0; i < count; ++i) {
        if (i > 0) text += i + 1 == count ? " and " : ", ";
        text += tensors[i]->name;
    }
    return text;
}

}  // namespace

std::string CannShapeString(const std::vector<int64_t>& dims) {
    std::string text = "[";
    for (size_t i = 0; i < dims.size(); ++i) {
        if (i > 0) text += ", ";
        text += std::to_string(dims[i]);
    }
    return text + "]";
}

namespace checks {

CheckStep NullTensors(std::vector<int> order) {
    return [order](const BroadcastOperation& op, ValidationState&) -> aclnnStatus {
        // The default order: the required inputs, then out.
        std::vector<int> checked = order;
        if (checked.empty()) {
            for (size_t i = 0; i < op.inputs.size(); ++i)
                if (!op.inputs[i].optional) checked.push_back(static_cast<int>(i));
            checked.push_back(kOut);
        }
        for (int index : checked) {
            if (Present(op, index)) continue;
            SetErrorMessage(aclnn_cpu::kAclnnParameterError, "%s: Expected a proper Tensor but got null for argument %s.",
                            op.api, TensorAt(op, index).name);
            return ACLNN_ERR_PARAM_NULLPTR;
        }
        return ACLNN_SUCCESS;
    };
}

CheckStep DtypesInList(std::vector<int> tensors, const DtypeSupport* lists) {
    return [tensors, lists](const BroadcastOperation& op, ValidationState&) -> aclnnStatus {
        const DtypeList& list = SupportedDtypes(lists != nullptr ? *lists : *op.dtypes);
        for (int index : tensors) {
            if (!Present(op, index)) continue;
            const NamedTensor& t = TensorAt(op, index);
            if (!list.Contains(t.tensor->data_type))
                return Invalid("%s: Tensor %s not implemented for %s, should be in dtype support list %s.", op.api,
                               t.name, CannDtypeName(t.tensor->data_type), CannDtypeListString(list));
        }
        return ACLNN_SUCCESS;
    };
}

CheckStep PromotedDtypeInList(std::vector<int> inputs, const char* message_format, bool inputs_in_message) {
    return [inputs, message_format, inputs_in_message](const BroadcastOperation& op, ValidationState&) -> aclnnStatus {
        const DtypeList& list = SupportedDtypes(*op.dtypes);
        const int32_t promoted = PromotedType(op, inputs);
        if (list.Contains(promoted)) return ACLNN_SUCCESS;
        if (promoted == ACL_DT_UNDEFINED)
            return Invalid("%s: %s dtype %s and %s dtype %s can not be promoted.", op.api,
                           TensorAt(op, inputs[0]).name, CannDtypeName(TensorAt(op, inputs[0]).tensor->data_type),
                           TensorAt(op, inputs[1]).name, CannDtypeName(TensorAt(op, inputs[1]).tensor->data_type));
        const std::string format = std::string("%s: ") + message_format;
        if (inputs_in_message)
            return Invalid(format.c_str(), op.api, CannDtypeName(TensorAt(op, inputs[0]).tensor->data_type),
                           CannDtypeName(TensorAt(op, inputs[1]).tensor->data_type));
        return Invalid(format.c_str(), op.api, CannDtypeName(promoted), CannDtypeListString(list));
    };
}

CheckStep SameDtype(int a, int b) {
    return [a, b](const BroadcastOperation& op, ValidationState&) -> aclnnStatus {
        const NamedTensor& first = TensorAt(op, a);
        const NamedTensor& second = TensorAt(op, b);
        if (first.tensor->data_type == second.tensor->data_type) return ACLNN_SUCCESS;
        return Invalid("%s: Expected both tensors to have same dtype, but found %s %s and %s %s.", op.api, first.name,
                       CannDtypeName(first.tensor->data_type), second.name, CannDtypeName(second.tensor->data_type));
    };
}

CheckStep PromotedCastableToOut(std::vector<int> inputs, int to) {
    return [inputs, to](const BroadcastOperation& op, ValidationState&) -> aclnnStatus {
        const int32_t promoted = PromotedType(op, inputs);
        const int32_t out = TensorAt(op, to).tensor->data_type;
        // CANN's CanCast: a floating type does not cast to an integer type or to bool, nor an integer type to
        // bool.
        const bool castable = FloatingDtype(promoted) ? FloatingDtype(out) || out == ACL_COMPLEX64 ||
                                                           out == ACL_COMPLEX128
                                                     : out != ACL_BOOL || promoted == ACL_BOOL;
        if (castable) return ACLNN_SUCCESS;
        return Invalid("%s: Result type %s can't be cast to the desired output type %s.", op.api,
                       CannDtypeName(promoted), CannDtypeName(out));
    };
}

CheckStep Ranks(std::vector<int> tensors, const char* own_message) {
    return [tensors, own_message](const BroadcastOperation& op, ValidationState&) -> aclnnStatus {
        for (int index : tensors) {
            if (!Present(op, index)) continue;
            const NamedTensor& t = TensorAt(op, index);
            const auto& dims = t.tensor->view_dims;
            if (dims.size() > kMaxRank && own_message != nullptr) return Invalid("%s: %s", op.api, own_message);
            if (dims.size() > kMaxRank)
                return Invalid("%s: The %s tensor cannot be larger than 8 dimensions (it has %s: %s).", op.api, t.name,
                               std::to_string(dims.size()), CannShapeString(dims));
        }
        return ACLNN_SUCCESS;
    };
}

CheckStep Layouts() {
    return [](const BroadcastOperation& op, ValidationState& state) -> aclnnStatus {
        for (const NamedTensor* t : state.present) {
            // CANN casts some types the lists do not hold (a DOUBLE input or result); the engine reads the
            // floating types and the integer ones, and writes the floating types or, for an operator that
            // computes integers, INT64 (docs/compatibility.md).
            const int32_t type = t->tensor->data_type;
            const bool is_out = t == state.present.back();
            const bool readable = (op.reads_double && type == ACL_DOUBLE) ||
                                  (is_out ? ComputableDtype(type) || (op.integer_results && type == ACL_INT64)
                                          : LoadableDtype(type));
            if (!readable)
                return Invalid(is_out ? "%s: %s has dtype %s; aclnn-cpu writes FLOAT, FLOAT16 and BFLOAT16 results%s."
                                      : "%s: %s has dtype %s; aclnn-cpu reads FLOAT, FLOAT16, BFLOAT16 and integer (BOOL, "
                                        "UINT8, INT8, INT16, INT32, INT64) tensors%s.",
                               op.api, t->name, CannDtypeName(type),
                               is_out && op.integer_results ? ", and INT64 ones for integer inputs"
                               : op.reads_double         ? ", and DOUBLE ones for this operator"
                                                         : "");
        }
        state.extents.assign(state.present.size(), ViewExtent{});
        for (size_t i = 0; i < state.present.size(); ++i) {
            const aclTensor& tensor = *state.present[i]->tensor;
            const std::string problem = CheckLayout(tensor, DtypeSize(tensor.data_type), &state.extents[i]);
            if (!problem.empty())
                return Invalid("%s: %s (shape %s) %s.", op.api, state.present[i]->name,
                               CannShapeString(tensor.view_dims), problem);
        }
        state.layouts_checked = true;
        return ACLNN_SUCCESS;
    };
}

CheckStep Broadcast() {
    return [](const BroadcastOperation& op, ValidationState& state) -> aclnnStatus {
        const size_t inputs = state.present.size() - 1;
        // The present inputs in the operator's broadcast order.
        std::vector<const NamedTensor*> order;
        if (op.broadcast_order.empty()) {
            order.assign(state.present.begin(), state.present.end() - 1);
        } else {
            for (int index : op.broadcast_order)
                if (Present(op, index)) order.push_back(&TensorAt(op, index));
        }
        std::vector<int64_t> shape = order[0]->tensor->view_dims;
        for (size_t i = 1; i < inputs; ++i) {
            std::vector<int64_t> next;
            int conflict = 0;
            const auto& dims = order[i]->tensor->view_dims;
            if (!BroadcastShapes(shape, dims, &next, &conflict)) {
                if (op.broadcast_message != nullptr) {
                    const std::string format = std::string("%s: ") + op.broadcast_message;
                    return Invalid(format.c_str(), op.api, CannShapeString(shape), CannShapeString(dims));
                }
                if (i == 1)
                    return Invalid("%s: The size of tensor %s %s must match the size of tensor %s %s.", op.api,
                                   order[0]->name, CannShapeString(shape), order[1]->name, CannShapeString(dims));
                return Invalid("%s: The size of tensor %s %s must match the size %s (the broadcast of %s).", op.api,
                               order[i]->name, CannShapeString(dims), CannShapeString(shape), NamesOf(order, i));
            }
            shape = std::move(next);
        }
        // A one-element out does not bound the broadcast shape: [2^40,1] with [1,2^40] broadcast to 2^80
        // elements, which no int64 index or byte offset can address. An empty shape has nothing to address.
        const bool empty = std::find(shape.begin(), shape.end(), 0) != shape.end();
        int64_t count = 1;
        for (size_t d = 0; d < shape.size() && !empty; ++d) {
            if (__builtin_mul_overflow(count, shape[d], &count) || count > kMaxBroadcastElements)
                return Invalid("%s: the broadcast shape %s of %s has more than 2^60 elements, more than int64 byte "
                               "offsets can address.", op.api, CannShapeString(shape), NamesOf(state.present, inputs));
        }
        state.broadcast_shape = std::move(shape);
        state.broadcast_done = true;
        return ACLNN_SUCCESS;
    };
}

CheckStep OutShape(bool reduced) {
    return [reduced](const BroadcastOperation& op, ValidationState& state) -> aclnnStatus {
        const auto& out_dims = op.out.tensor->view_dims;
        const std::vector<int64_t>& shape = state.broadcast_shape;
        if (!reduced || op.out_shape == OutShapeRule::kBroadcast) {
            if (out_dims == shape) return ACLNN_SUCCESS;
        } else if (op.out_shape == OutShapeRule::kScalar) {
            if (out_dims.empty()) return ACLNN_SUCCESS;
            return Invalid("%s: Expected a 0-dimensional tensor, but Shape of %s is %s.", op.api, op.out.name,
                           CannShapeString(out_dims));
        } else if (op.out_shape == OutShapeRule::kOneElement) {
            int64_t count = 1;
            for (int64_t d : out_dims) count *= d;
            if (count == 1) return ACLNN_SUCCESS;
            return Invalid("%s: %s of a reduction must have one element (0-d or [1]), but its shape is %s.", op.api,
                           op.out.name, CannShapeString(out_dims));
        } else {  // kBroadcastWithoutFirstDim
            const std::vector<int64_t> reduced_shape =
                shape.empty() ? shape : std::vector<int64_t>(shape.begin() + 1, shape.end());
            if (out_dims == reduced_shape) return ACLNN_SUCCESS;
            return Invalid("%s: Expected tensor for %s to have same size as %s, but got %s.", op.api, op.out.name,
                           CannShapeString(reduced_shape), CannShapeString(out_dims));
        }
        if (op.out_shape_message != nullptr) {
            const std::string format = std::string("%s: ") + op.out_shape_message;
            return Invalid(format.c_str(), op.api, CannShapeString(shape), CannShapeString(out_dims));
        }
        return Invalid("%s: Expected tensor for %s to have same size as %s, but got %s.", op.api, op.out.name,
                       CannShapeString(shape), CannShapeString(out_dims));
    };
}

CheckStep ShapesTiedByOperator(int shape_of) {
    return [shape_of](const BroadcastOperation& op, ValidationState& state) -> aclnnStatus {
        state.broadcast_shape = TensorAt(op, shape_of).tensor->view_dims;
        state.broadcast_done = true;
        return ACLNN_SUCCESS;
    };
}

CheckStep OutDoesNotOverlapItself() {
    return [](const BroadcastOperation& op, ValidationState&) -> aclnnStatus {
        const auto& dims = op.out.tensor->view_dims;
        const auto& strides = op.out.tensor->strides;
        if (!HasInternalOverlap(dims, strides)) return ACLNN_SUCCESS;
        return Invalid("%s: %s (shape %s, strides %s) maps two elements to the same address; %s must not overlap "
                       "itself.", op.api, op.out.name, CannShapeString(dims), CannShapeString(strides), op.out.name);
    };
}

CheckStep Custom(std::function<aclnnStatus()> check) {
    return [check](const BroadcastOperation&, ValidationState&) { return check(); };
}

CheckStep Rule(std::function<std::string(const BroadcastOperation&)> refused) {
    return [refused](const BroadcastOperation& op, ValidationState&) -> aclnnStatus {
        const std::string text = refused(op);
        if (text.empty()) return ACLNN_SUCCESS;
        SetErrorMessage(aclnn_cpu::kAclnnParameterError, "%s: %s", op.api, text.c_str());
        return ACLNN_ERR_PARAM_INVALID;
    };
}

CheckStep ReductionInRange(int64_t reduction, const char* message_format) {
    return [reduction, message_format](const BroadcastOperation& op, ValidationState&) -> aclnnStatus {
        if (reduction >= 0 && reduction <= 2) return ACLNN_SUCCESS;
        const std::string format = std::string("%s: ") + message_format;
        SetErrorMessage(aclnn_cpu::kAclnnParameterError, format.c_str(), op.api, static_cast<long long>(reduction));
        return ACLNN_ERR_PARAM_INVALID;
    };
}

}  // namespace checks

std::vector<CheckStep> DefaultSteps(bool reduced, std::function<aclnnStatus()> operator_checks) {
    // Filled in against the operation's own inputs when it runs (the tensor lists depend on the input count).
    std::vector<CheckStep> steps;
    steps.push_back(checks::NullTensors());
    steps.push_back([](const BroadcastOperation& op, ValidationState& state) {
        std::vector<int> all;
        for (size_t i = 0; i < op.inputs.size(); ++i) all.push_back(static_cast<int>(i));
        all.push_back(checks::kOut);
        aclnnStatus status = checks::DtypesInList(all)(op, state);
        if (status == ACLNN_SUCCESS) status = checks::Ranks(all)(op, state);
        return status;
    });
    steps.push_back(checks::Layouts());
    steps.push_back(checks::Broadcast());
    steps.push_back(checks::OutShape(reduced));
    if (operator_checks) steps.push_back(checks::Custom(std::move(operator_checks)));
    steps.push_back(checks::OutDoesNotOverlapItself());
    return steps;
}

aclnnStatus ValidateBroadcastOperation(const BroadcastOperation& op, ValidatedOperation* validated) {
    if (op.workspace_size == nullptr || op.executor == nullptr) {
        SetErrorMessage(aclnn_cpu::kAclnnParameterError,
                        "%s: Expected a proper pointer but got null for argument %s.", op.api,
                        op.workspace_size == nullptr ? "workspaceSize" : "executor");
        return ACLNN_ERR_PARAM_NULLPTR;
    }
    ValidationState state;
    bool nulls_checked = false;
    for (const CheckStep& step : op.steps) {
        if (!nulls_checked) {
            // The first step is NullTensors in every operator; present tensors are known after it.
            const aclnnStatus status = step(op, state);
            if (status != ACLNN_SUCCESS) return status;
            for (const NamedTensor& t : op.inputs)
                if (t.tensor != nullptr) state.present.push_back(&t);
            state.present.push_back(&op.out);
            nulls_checked = true;
            continue;
        }
        const aclnnStatus status = step(op, state);
        if (status != ACLNN_SUCCESS) return status;
        if (state.finished_early) {
            validated->present = std::move(state.present);
            validated->finished_early = true;
            return ACLNN_SUCCESS;
        }
    }
    if (!state.layouts_checked || !state.broadcast_done) {
        SetErrorMessage(aclnn_cpu::kAclnnInnerError, "%s: the operator's checks leave out layouts or broadcast.",
                        op.api);
        return ACLNN_ERR_INNER;
    }
    validated->broadcast_shape = std::move(state.broadcast_shape);
    validated->present = std::move(state.present);
    validated->extents = std::move(state.extents);
    return ACLNN_SUCCESS;
}

}  // namespace aclnn_cpu::validation
