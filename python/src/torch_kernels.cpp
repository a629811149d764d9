// aclnn_cpu._torch_kernels: the operator table's aten operators, on CPU tensors, as CANN's operators.
//
// Each aten overload the table serves is registered once per process with PyTorch's dispatcher and never
// deregistered: a boxed kernel for the BackendSelect key, which every call passes after autograd and before
// PyTorch's CPU kernel, and -- for an aten operator PyTorch decomposes into others (aten::l1_loss) or whose
// derivative it computes from others (aten::binary_cross_entropy_with_logits) -- one for AutogradCPU that
// records the table's gradient row as its derivative. Every call reads one process-wide flag:
// when aclnn_cpu.torch is disabled, or when a call's arguments are ones the C API cannot take (float64, a
// parameter outside CANN's range, more dims than merge into 8), the call continues to PyTorch's own kernel;
// otherwise it runs through the C API exactly as aclnn_cpu._core does (operator_call.h), on the tensors' own
// memory, into a result from PyTorch's allocator. Registering once and switching a flag, rather than
// registering and dropping a torch.library.Library on every toggle, is what makes toggling safe while other
// threads dispatch: PyTorch 1.13 frees a dropped kernel under a running call.
#include <ATen/ExpandUtils.h>
#include <ATen/Parallel.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/LegacyTypeDispatch.h>
#include <ATen/core/grad_mode.h>
#include <ATen/core/stack.h>
#include <ATen/native/Resize.h>
#include <ATen/native/TypeProperties.h>
#include <ATen/ops/empty.h>
#include <c10/util/irange.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <torch/csrc/Exceptions.h>
#include <torch/csrc/autograd/autograd.h>
#include <torch/csrc/autograd/function.h>
#include <torch/csrc/autograd/functions/utils.h>
#include <torch/csrc/autograd/saved_variable.h>
#include <torch/library.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "acl/acl_base.h"
#include "aclnn/opdev/op_errno.h"
#include "operator_call.h"
#include "ops/operator_table.h"

namespace py = pybind11;

namespace {

using aclnn_cpu::python::Failure;
using aclnn_cpu::python::TensorSpec;

constexpr int kMaxRank = 8;  // the C API's rank limit

std::atomic<bool> g_enabled{false};
// Nonzero while this thread evaluates PyTorch's own formula of a loss (for a derivative of a recorded gradient):
// the override's kernels then pass every call on to PyTorch's.
thread_local int t_pytorch_only = 0;

struct PyTorchOnlyScope {
    PyTorchOnlyScope() { ++t_pytorch_only; }
    ~PyTorchOnlyScope() { --t_pytorch_only; }
    PyTorchOnlyScope(const PyTorchOnlyScope&) = delete;
    PyTorchOnlyScope& operator=(const PyTorchOnlyScope&) = delete;
};

bool Serving() { return t_pytorch_only == 0 && g_enabled.load(std::memory_order_acquire); }
PyObject* g_error_type = nullptr;  // aclnn_cpu.AclnnError, kept for the life of the process

// What an aten argument is to the table's operator: an input, a parameter, out=, an argument that must hold the
// row's value (`_softmax`'s half_to_float), or the result's dtype (`_softmax_backward_data`'s input_dtype).
enum class Role { kInput, kParameter, kOut, kFixed, kResultDtype };

struct ArgumentRole {
    Role role;
    int index = -1;  // kInput: the operator's input index; kParameter: its parameter index; kOut: which output
};

// Converts a failed call into aclnn_cpu.AclnnError(status, message), raised in the calling Python code: the
// error is set and persisted into a python_error, which PyTorch's bindings (and its autograd engine, across
// threads) restore. Kernels run without the GIL, so it is taken here.
[[noreturn]] void RaiseAclnnError(const Failure& failure) {
    python_error error;
    {
        py::gil_scoped_acquire gil;
        PyObject* value = PyObject_CallFunction(g_error_type, "Ls", static_cast<long long>(failure.status),
                                                failure.message.c_str());
        if (value != nullptr) {
            PyErr_SetObject(g_error_type, value);
            Py_DECREF(value);
        }
        error.persist();
    }
    throw error;
}

int AclType(c10::ScalarType type) {
    switch (type) {
        case c10::ScalarType::Float: return ACL_FLOAT;
        case c10::ScalarType::Half: return ACL_FLOAT16;
        case c10::ScalarType::BFloat16: return ACL_BF16;
        default: return -1;
    }
}

bool CannType(c10::ScalarType type) { return AclType(type) >= 0; }

// A tensor's aclDataType: the floating ones CANN computes, and the class-index ones it reads.
int OperandAclType(c10::ScalarType type) {
    switch (type) {
        case c10::ScalarType::Long: return ACL_INT64;
        case c10::ScalarType::Int: return ACL_INT32;
        case c10::ScalarType::Byte: return ACL_UINT8;
        default: return AclType(type);
    }
}

TensorSpec SpecOf(const at::Tensor& tensor, c10::IntArrayRef shape, c10::IntArrayRef strides) {
    TensorSpec spec;
    spec.address = reinterpret_cast<uintptr_t>(tensor.data_ptr());
    spec.dtype = OperandAclType(tensor.scalar_type());
    spec.shape.assign(shape.begin(), shape.end());
    spec.strides.assign(strides.begin(), strides.end());
    spec.element_bytes = static_cast<int64_t>(tensor.element_size());
    return spec;
}

// The operands' views with the dims of the broadcast shape merged where every operand allows it, so that a
// call of more than 8 dims -- elementwise, so its dims carry no meaning of their own -- reaches the C API with
// at most 8. Each operand keeps its own elements: a dim it broadcasts stays size 1 (not an expanded stride 0),
// so its element count, which some operators divide by, is unchanged. Returns false when more than 8 dims
// remain.
bool MergeDims(const std::vector<at::Tensor>& operands, c10::IntArrayRef broadcast_shape,
               std::vector<std::vector<int64_t>>* shapes, std::vector<std::vector<int64_t>>* strides) {
    const int64_t rank = static_cast<int64_t>(broadcast_shape.size());
    const size_t count = operands.size();
    // Per operand, aligned to the broadcast shape: size (1 where broadcast) and stride.
    std::vector<std::vector<int64_t>> sizes(count, std::vector<int64_t>(rank, 1)), steps(count, std::vector<int64_t>(rank, 0));
    for (size_t k = 0; k < count; ++k) {
        const int64_t lead = rank - operands[k].dim();
        for (int64_t d = 0; d < operands[k].dim(); ++d) {
            sizes[k][lead + d] = operands[k].size(d);
            steps[k][lead + d] = operands[k].stride(d);
        }
    }
    shapes->assign(count, {});
    strides->assign(count, {});
    for (int64_t d = 0; d < rank; ++d) {
        if (broadcast_shape[d] == 1) continue;  // every operand has size 1 there
        bool merge = !(*shapes)[0].empty();
        for (size_t k = 0; k < count && merge; ++k) {
            const bool broadcast_here = sizes[k][d] == 1;
            const bool broadcast_before = (*shapes)[k].back() == 1;
            merge = broadcast_here == broadcast_before &&
                    (broadcast_here || (*strides)[k].back() == steps[k][d] * sizes[k][d]);
        }
        for (size_t k = 0; k < count; ++k) {
            if (merge) {
                (*shapes)[k].back() *= sizes[k][d];
                (*strides)[k].back() = sizes[k][d] == 1 ? 0 : steps[k][d];
            } else {
                (*shapes)[k].push_back(sizes[k][d]);
                (*strides)[k].push_back(sizes[k][d] == 1 ? 0 : steps[k][d]);
            }
        }
    }
    return static_cast<int64_t>((*shapes)[0].size()) <= kMaxRank;
}

// The operators' thread count for a call: PyTorch's intra-op thread count, unless ACLNN_CPU_NUM_THREADS is set
// (0: the library reads it itself).
int ThreadCount() {
    const char* configured = std::getenv("ACLNN_CPU_NUM_THREADS");
    return configured != nullptr && *configured != '\0' ? 0 : at::get_num_threads();
}

// A call's arguments as the table's row takes them.
struct RowArguments {
    std::vector<at::Tensor> given;  // per row input; undefined for an absent optional one
    std::vector<double> parameters;  // the row's, in order
    at::Tensor out;                  // out='s tensor, or undefined
    at::Tensor second_out;           // a second out= tensor (nll_loss_forward.output's total_weight), or undefined
    c10::optional<c10::ScalarType> result_dtype;  // where an aten argument names it
};

// Reads the last roles.size() values of the stack (without popping them). False for a call the C API cannot
// take as it is: a parameter outside CANN's range (PyTorch's kernel then decides, with its own error), a
// required input missing.
bool ReadArguments(const aclnn_cpu::OperatorDescription& row, const std::vector<ArgumentRole>& roles,
                   const torch::jit::Stack& stack, RowArguments* call) {
    auto arguments = torch::jit::last(stack, roles.size());
    call->given.assign(static_cast<size_t>(row.input_count), at::Tensor());
    call->parameters.resize(static_cast<size_t>(row.parameter_count));
    for (int p = 0; p < row.parameter_count; ++p) call->parameters[p] = row.parameters[p].default_value;
    for (size_t i = 0; i < roles.size(); ++i) {
        const int index = roles[i].index;
        const c10::IValue& value = arguments[i];
        switch (roles[i].role) {
            case Role::kInput:
                if (!value.isNone()) call->given[static_cast<size_t>(index)] = value.toTensor();
                break;
            case Role::kParameter: {
                if (value.isNone()) break;  // an optional aten argument left out (logit's eps): the row's default
                double& parameter = call->parameters[static_cast<size_t>(index)];
                parameter = value.isInt() ? static_cast<double>(value.toInt())
                            : value.isBool() ? (value.toBool() ? 1.0 : 0.0)
                                             : value.toDouble();
                if (!(parameter >= row.parameters[index].minimum && parameter <= row.parameters[index].maximum))
                    return false;
                break;
            }
            case Role::kOut: (roles[i].index == 0 ? call->out : call->second_out) = value.toTensor(); break;
            case Role::kFixed: {
                const double given = value.isBool() ? (value.toBool() ? 1.0 : 0.0)
                                     : value.isInt() ? static_cast<double>(value.toInt())
                                                     : value.toDouble();
                if (given != row.aten_fixed_value) return false;
                break;
            }
            case Role::kResultDtype: call->result_dtype = value.toScalarType(); break;
        }
    }
    // A class weight aten leaves out is CANN's required weight of ones (RunClassIndexRow), as torch_npu passes.
    for (int k = 0; k < row.input_count; ++k)
        if (!call->given[static_cast<size_t>(k)].defined() && !row.inputs[k].optional &&
            row.inputs[k].shape != aclnn_cpu::InputShape::kPerClass)
            return false;
    return true;
}

// The NLL losses (Iteration::kClassIndex). PyTorch's kernel takes every floating tensor in self's dtype and a
// LongTensor target whose values are classes or ignore_index; any other call (or a target outside the classes,
// whose IndexError is PyTorch's) goes to PyTorch. A weight aten leaves out is ones, as torch_npu passes CANN's
// required weight. The results have PyTorch's shapes and self's dtype: the forward's output target's shape under
// none and 0-d otherwise, its total weight 0-d (0 under none, which CANN leaves unwritten, where PyTorch writes
// weight[t] for a 1-D self; no gradient reads it then); the gradient self's.
// FLOAT16 runs too, as on the NPU (PyTorch's CPU kernel has none).
c10::optional<std::vector<at::Tensor>> RunClassIndexRow(const aclnn_cpu::OperatorDescription& row,
                                                        RowArguments call) {
    const at::Tensor& self = call.given[static_cast<size_t>(row.self_input)];
    if (!CannType(self.scalar_type()) || self.device().type() != c10::DeviceType::CPU || self.dim() == 0)
        return c10::nullopt;
    const int64_t classes = self.size(self.dim() == 1 ? 0 : 1);
    int64_t ignore_index = -100;
    for (int p = 0; p < row.parameter_count; ++p)
        if (row.parameters[p].type == aclnn_cpu::ParameterType::kIgnoreIndex)
            ignore_index = aclnn_cpu::c_api_binding::Int(call.parameters[static_cast<size_t>(p)]);
    at::Tensor target;
    for (int k = 0; k < row.input_count; ++k) {
        at::Tensor& input = call.given[static_cast<size_t>(k)];
        if (!input.defined()) input = at::ones({classes}, self.options());
        if (input.device().type() != c10::DeviceType::CPU) return c10::nullopt;
        const bool class_index = row.inputs[k].domain == aclnn_cpu::ValueDomain::kClassIndex;
        if (class_index) target = input;
        if (input.scalar_type() != (class_index ? c10::ScalarType::Long : self.scalar_type())) return c10::nullopt;
    }
    const at::Tensor targets = target.contiguous();
    const int64_t* value = targets.data_ptr<int64_t>();
    for (int64_t i = 0; i < targets.numel(); ++i)
        if (value[i] != ignore_index && (value[i] < 0 || value[i] >= classes)) return c10::nullopt;
    const int64_t reduction = aclnn_cpu::ReductionValue(row, call.parameters.data());
    std::vector<at::Tensor> results;
    std::vector<c10::IntArrayRef> shapes;
    if (row.output_count == 2) {
        shapes = {reduction == 0 ? target.sizes() : c10::IntArrayRef(), c10::IntArrayRef()};
    } else {
        shapes = {self.sizes()};
    }
    const at::Tensor given_outs[] = {call.out, call.second_out};
    for (size_t o = 0; o < shapes.size(); ++o) {
        at::Tensor result = given_outs[o];
        if (result.defined()) {
            if (result.scalar_type() != self.scalar_type() || result.device().type() != c10::DeviceType::CPU)
                return c10::nullopt;
            at::native::resize_output(result, shapes[o]);
            if (o == 1 || self.numel() == 0) result.zero_();
        } else {
            // The total weight, and any result of an empty self, which CANN leaves unwritten: zeros.
            const bool unwritten = o == 1 || self.numel() == 0;
            result = unwritten ? at::zeros(shapes[o], self.options()) : at::empty(shapes[o], self.options());
        }
        results.push_back(result);
    }
    std::vector<TensorSpec> specs, out_specs;
    std::vector<std::pair<uintptr_t, uintptr_t>> ranges;
    for (const at::Tensor& input : call.given) {
        specs.push_back(SpecOf(input, input.sizes(), input.strides()));
        ranges.push_back(aclnn_cpu::python::ByteRange(specs.back()));
    }
    for (const at::Tensor& result : results) {
        out_specs.push_back(SpecOf(result, result.sizes(), result.strides()));
        ranges.push_back(aclnn_cpu::python::ByteRange(out_specs.back()));
    }
    const Failure failure = aclnn_cpu::python::RunOperator(
        row, specs, out_specs, call.parameters, aclnn_cpu::python::MergeRanges(std::move(ranges)), ThreadCount());
    if (failure.status != 0) RaiseAclnnError(failure);
    return results;
}

// Runs `row` through the C API: into call.out (resized by PyTorch's rule) or a new result from PyTorch's
// allocator. nullopt for a call the C API cannot take (float64, more dims than merge into 8); a call it
// refuses raises AclnnError.
c10::optional<at::Tensor> RunRow(const aclnn_cpu::OperatorDescription& row, const RowArguments& call) {
    // The operator's inputs as given (an absent optional one left out) and their places in the row.
    std::vector<at::Tensor> inputs;
    std::vector<int> places;
    for (int k = 0; k < row.input_count; ++k) {
        if (!call.given[static_cast<size_t>(k)].defined()) continue;
        inputs.push_back(call.given[static_cast<size_t>(k)]);
        places.push_back(k);
    }
    const int64_t reduction = aclnn_cpu::ReductionValue(row, call.parameters.data());
    // PyTorch's dtype rules decide what runs. Where its kernel takes one dtype only, a required input of
    // another dtype goes to PyTorch, which raises its own error. Otherwise integer and bool inputs take the
    // floating type PyTorch would compute in (the loss of an f16 input and an int64 target is f16 arithmetic),
    // and floating inputs of different types are all widened to their promoted type -- exact, and what CANN's
    // op_api does before its kernel, so the arithmetic is CANN's. float64 goes to PyTorch.
    const at::Tensor& self = call.given[static_cast<size_t>(row.self_input)];
    if (row.aten_result == aclnn_cpu::AtenResultType::kOneDtype) {
        for (int k = 0; k < row.input_count; ++k)
            if (!row.inputs[k].optional && call.given[static_cast<size_t>(k)].scalar_type() != self.scalar_type())
                return c10::nullopt;
    }
    at::native::ResultTypeState state;
    for (const at::Tensor& input : inputs) state = at::native::update_result_type_state(input, state);
    const c10::ScalarType common = at::native::result_type(state);
    if (!CannType(common)) return c10::nullopt;
    for (at::Tensor& input : inputs) {
        if (input.device().type() != c10::DeviceType::CPU) return c10::nullopt;
        if (at::isFloatingType(input.scalar_type()) && !CannType(input.scalar_type())) return c10::nullopt;
        if (input.scalar_type() != common) input = input.to(common);
    }
    // PyTorch's result dtype, as its kernel makes it.
    c10::ScalarType result_type = common;
    using aclnn_cpu::AtenResultType;
    if (row.aten_result == AtenResultType::kSelf || row.aten_result == AtenResultType::kOneDtype) {
        if (CannType(self.scalar_type())) result_type = self.scalar_type();
    } else if (row.aten_result == AtenResultType::kTarget) {
        result_type = call.given[static_cast<size_t>(row.self_input + 1)].scalar_type();
        if (!CannType(result_type)) return c10::nullopt;  // PyTorch's in-place steps refuse it
    }
    if (call.result_dtype.has_value()) {
        if (!CannType(*call.result_dtype)) return c10::nullopt;
        result_type = *call.result_dtype;
    }
    // An operator along a dim: a dim outside the rank is PyTorch's error to raise (IndexError), and its dims
    // cannot be merged to fit the C API's 8.
    if (row.iteration == aclnn_cpu::Iteration::kAlongDim) {
        const int64_t rank = std::max<int64_t>(1, self.dim());
        for (int p = 0; p < row.parameter_count; ++p) {
            if (row.parameters[p].type != aclnn_cpu::ParameterType::kDim) continue;
            const double dim = call.parameters[static_cast<size_t>(p)];
            if (!(dim >= static_cast<double>(-rank) && dim < static_cast<double>(rank))) return c10::nullopt;
        }
        for (const at::Tensor& input : inputs)
            if (input.dim() > kMaxRank) return c10::nullopt;
    }
    const bool has_out = call.out.defined();
    if (has_out && (!CannType(call.out.scalar_type()) || call.out.device().type() != c10::DeviceType::CPU))
        return c10::nullopt;

    bool broadcasts = true;
    c10::DimVector broadcast_shape;
    {
        std::vector<int64_t> shape = inputs[0].sizes().vec();
        for (size_t k = 1; k < inputs.size() && broadcasts; ++k) {
            try {
                shape = at::infer_size(shape, inputs[k].sizes());
            } catch (const c10::Error&) {
                broadcasts = false;  // the C API names the shapes (161002)
            }
        }
        broadcast_shape.assign(shape.begin(), shape.end());
    }
    const bool reduced = aclnn_cpu::ReducesTo(row, reduction);
    // A result of the broadcast shape; shapes that do not broadcast keep the first input's shape, and phase 1
    // then rejects them.
    const c10::IntArrayRef result_shape =
        reduced ? c10::IntArrayRef() : (broadcasts ? c10::IntArrayRef(broadcast_shape) : inputs[0].sizes());

    // CANN's arithmetic runs in the inputs' promoted type and is converted once on the way out, into PyTorch's
    // result dtype. Where CANN ties out's dtype to an input's and PyTorch's result has another (a target
    // narrower than self), the result is computed in the input's dtype and then converted, as torch_npu's cast
    // after the call does.
    at::Tensor destination;
    if (has_out) {
        destination = call.out;
        at::native::resize_output(destination, result_shape);
    } else {
        destination = at::empty(result_shape, self.options().dtype(result_type));
    }
    at::Tensor result = destination;
    if (row.out_dtype_input >= 0 && destination.scalar_type() != common)
        result = at::empty(result_shape, self.options().dtype(common));

    std::vector<TensorSpec> present_specs;
    bool too_many_dims = result.dim() > kMaxRank;
    for (const at::Tensor& input : inputs) too_many_dims = too_many_dims || input.dim() > kMaxRank;
    TensorSpec out_spec;
    if (too_many_dims && broadcasts) {
        std::vector<at::Tensor> operands = inputs;
        if (!reduced) operands.push_back(result);
        std::vector<std::vector<int64_t>> shapes, strides;
        if (!MergeDims(operands, broadcast_shape, &shapes, &strides)) return c10::nullopt;
        for (size_t k = 0; k < inputs.size(); ++k) present_specs.push_back(SpecOf(inputs[k], shapes[k], strides[k]));
        out_spec = reduced ? SpecOf(result, {}, {}) : SpecOf(result, shapes.back(), strides.back());
    } else {
        for (const at::Tensor& input : inputs) present_specs.push_back(SpecOf(input, input.sizes(), input.strides()));
        out_spec = SpecOf(result, result.sizes(), result.strides());
    }
    std::vector<TensorSpec> specs(static_cast<size_t>(row.input_count));
    for (TensorSpec& spec : specs) spec.absent = true;
    std::vector<std::pair<uintptr_t, uintptr_t>> ranges;
    for (size_t k = 0; k < present_specs.size(); ++k) {
        specs[static_cast<size_t>(places[k])] = present_specs[k];
        ranges.push_back(aclnn_cpu::python::ByteRange(present_specs[k]));
    }
    ranges.push_back(aclnn_cpu::python::ByteRange(out_spec));
    const Failure failure = aclnn_cpu::python::RunOperator(
        row, specs, {out_spec}, call.parameters, aclnn_cpu::python::MergeRanges(std::move(ranges)), ThreadCount());
    if (failure.status != 0) RaiseAclnnError(failure);
    if (!result.is_same(destination)) destination.copy_(result);
    return destination;
}

// The dispatch keys below BackendSelect, where a call the override does not take continues.
const c10::DispatchKeySet kAfterBackendSelect(c10::DispatchKeySet::FULL_AFTER, c10::DispatchKey::BackendSelect);

// One registered aten overload, for the BackendSelect key: PyTorch includes that key in every call's dispatch
// (after autograd, before the backend), so the override sees the call before PyTorch's CPU kernel without
// replacing it, and a call it does not take continues to that kernel by redispatch. How the overload's
// arguments map onto the table's operator is read from PyTorch's schema at registration.
class OverloadKernel final : public c10::OperatorKernel {
public:
    OverloadKernel(const aclnn_cpu::OperatorDescription& row, std::vector<ArgumentRole> roles)
        : row_(row), roles_(std::move(roles)) {}

    void operator()(const c10::OperatorHandle& op, c10::DispatchKeySet keys, torch::jit::Stack* stack) {
        const c10::DispatchKeySet remaining = keys & kAfterBackendSelect;
        // Only a call PyTorch would run on its CPU kernel (not a Python subclass, sparse, meta or other device).
        if (Serving() && remaining.highestPriorityTypeId() == c10::DispatchKey::CPU) {
            RowArguments call;
            if (ReadArguments(row_, roles_, *stack, &call)) {
                c10::optional<std::vector<at::Tensor>> results;
                if (row_.iteration == aclnn_cpu::Iteration::kClassIndex) {
                    results = RunClassIndexRow(row_, call);
                } else if (c10::optional<at::Tensor> result = RunRow(row_, call)) {
                    results = std::vector<at::Tensor>{*result};
                }
                if (results.has_value()) {
                    torch::jit::drop(*stack, roles_.size());
                    for (const at::Tensor& result : *results) torch::jit::push(*stack, result);
                    return;
                }
            }
        }
        op.redispatchBoxed(remaining, stack);
    }

private:
    const aclnn_cpu::OperatorDescription& row_;
    std::vector<ArgumentRole> roles_;
};

// A node that passes its gradient on unchanged to another tensor's history: it gives a value computed by a CANN
// kernel the derivative of PyTorch's formula of the same quantity.
class DerivativeOf final : public torch::autograd::Node {
public:
    torch::autograd::variable_list apply(torch::autograd::variable_list&& gradients) override {
        return std::move(gradients);
    }
    std::string name() const override { return "aclnn_cpu::DerivativeOfPyTorchsFormula"; }
};

// `value` (no history of its own) with the history of `reference`, which has the same meaning.
at::Tensor WithDerivativeOf(at::Tensor value, const at::Tensor& reference) {
    if (!reference.defined() || !reference.requires_grad()) return value;
    auto node = std::shared_ptr<DerivativeOf>(new DerivativeOf(), torch::autograd::deleteNode);
    node->set_next_edges(torch::autograd::collect_next_edges(reference));
    torch::autograd::set_history(value, node);
    return value;
}

// The gradient of a loss computed by a row whose aten operator PyTorch decomposes (so the override supplies its
// autograd): the row's gradient row on (gradOutput, the loss's inputs) with the same parameters gives self's
// gradient, and target's is that times the row's factor. Under create_graph (grad mode on in the backward), those
// values are recorded with the derivative of PyTorch's own first derivative -- PyTorch's formula of the loss,
// differentiated by its autograd with a graph -- so second derivatives (Hessians, gradient penalties) are
// PyTorch's while every first derivative keeps CANN's bits.
class RowGradient final : public torch::autograd::Node {
public:
    // roles: the registered kernel's, which lives as long as the process (kernels are never deregistered).
    RowGradient(const aclnn_cpu::OperatorDescription& gradient_row, double target_factor, const RowArguments& call,
                const c10::OperatorHandle& op, const std::vector<ArgumentRole>& roles, torch::jit::Stack arguments)
        : gradient_row_(gradient_row), target_factor_(target_factor), parameters_(call.parameters), op_(op),
          roles_(roles), arguments_(std::move(arguments)) {
        for (const at::Tensor& input : call.given) saved_.emplace_back(input, false);
        for (size_t i = 0; i < roles_.size(); ++i)
            if (roles_[i].role == Role::kInput) arguments_[i] = c10::IValue();  // held by saved_
    }

    torch::autograd::variable_list apply(torch::autograd::variable_list&& gradients) override {
        std::vector<at::Tensor> inputs;
        for (torch::autograd::SavedVariable& saved : saved_) inputs.push_back(saved.unpack());
        torch::autograd::variable_list outputs(saved_.size());
        {
            at::AutoGradMode no_grad(false);
            RowArguments call;
            call.given.push_back(gradients[0]);
            call.given.insert(call.given.end(), inputs.begin(), inputs.end());
            call.parameters = parameters_;
            c10::optional<at::Tensor> self_gradient = RunRow(gradient_row_, call);
            TORCH_CHECK(self_gradient.has_value(), gradient_row_.api_name, " cannot take the incoming gradient (",
                        gradients[0].scalar_type(), ")");
            if (should_compute_output(0)) outputs[0] = *self_gradient;
            if (saved_.size() > 1 && target_factor_ != 0 && should_compute_output(1))
                outputs[1] = self_gradient->mul(target_factor_);
        }
        if (at::GradMode::is_enabled()) RecordSecondDerivatives(gradients[0], inputs, &outputs);
        return outputs;
    }

    // What grad_fn shows: the CANN function that computes the gradient.
    std::string name() const override { return gradient_row_.api_name; }

    void release_variables() override {
        for (torch::autograd::SavedVariable& saved : saved_) saved.reset_data();
    }

private:
    void RecordSecondDerivatives(const at::Tensor& incoming, const std::vector<at::Tensor>& inputs,
                                 torch::autograd::variable_list* outputs) const {
        std::vector<size_t> wanted;
        std::vector<at::Tensor> with_respect_to;
        for (size_t k = 0; k < outputs->size(); ++k) {
            if (!(*outputs)[k].defined() || !inputs[k].requires_grad()) continue;
            wanted.push_back(k);
            with_respect_to.push_back(inputs[k]);
        }
        if (wanted.empty()) return;
        at::Tensor reference_loss;
        {
            PyTorchOnlyScope pytorch_only;
            torch::jit::Stack stack = arguments_;
            for (size_t i = 0; i < roles_.size(); ++i)
                if (roles_[i].role == Role::kInput) {
                    const at::Tensor& input = inputs[static_cast<size_t>(roles_[i].index)];
                    stack[i] = input.defined() ? c10::IValue(input) : c10::IValue();
                }
            op_.callBoxed(&stack);
            reference_loss = stack[0].toTensor();
        }
        const torch::autograd::variable_list references =
            torch::autograd::grad({reference_loss}, with_respect_to, {incoming}, /*retain_graph=*/true,
                                  /*create_graph=*/true, /*allow_unused=*/true);
        for (size_t i = 0; i < wanted.size(); ++i)
            (*outputs)[wanted[i]] = WithDerivativeOf((*outputs)[wanted[i]], references[i]);
    }

    const aclnn_cpu::OperatorDescription& gradient_row_;
    double target_factor_;
    std::vector<double> parameters_;
    c10::OperatorHandle op_;
    const std::vector<ArgumentRole>& roles_;
    torch::jit::Stack arguments_;  // the loss's arguments but its tensor inputs (saved_)
    std::vector<torch::autograd::SavedVariable> saved_;
};

// One registered aten overload whose derivative the override supplies, for the AutogradCPU key: an operator
// PyTorch decomposes into others (CompositeImplicitAutograd), or one whose derivative PyTorch computes from
// other operators (no aten backward to override). It computes the loss with the row and records RowGradient as
// its derivative. Calls it does not take -- or whose gradient the row cannot give: with respect to target where
// the row has no factor for it, or to any other input -- run PyTorch's own: the decomposition, or PyTorch's
// autograd kernel, which the Autograd alias also registered for AutogradOther.
class AutogradOverloadKernel final : public c10::OperatorKernel {
public:
    AutogradOverloadKernel(const aclnn_cpu::OperatorDescription& row, std::vector<ArgumentRole> roles, bool decomposed)
        : row_(row), gradient_row_(*aclnn_cpu::FindOperator(row.gradient_row)), roles_(std::move(roles)),
          decomposed_(decomposed) {}

    void operator()(const c10::OperatorHandle& op, c10::DispatchKeySet keys, torch::jit::Stack* stack) {
        // Only plain CPU tensors: a functorch transform's wrappers (or a Python subclass) keep PyTorch's autograd.
        const c10::DispatchKeySet below =
            (keys & c10::after_ADInplaceOrView_keyset).remove(c10::DispatchKey::BackendSelect);
        if (Serving() && below.highestPriorityTypeId() == c10::DispatchKey::CPU) {
            RowArguments call;
            if (ReadArguments(row_, roles_, *stack, &call) && !call.out.defined() && GradientsAvailable(call)) {
                c10::optional<at::Tensor> result;
                {
                    at::AutoDispatchBelowADInplaceOrView below_autograd;
                    result = RunRow(row_, call);
                }
                if (result.has_value()) {
                    RecordGradient(op, call, *stack, *result);
                    torch::jit::drop(*stack, roles_.size());
                    torch::jit::push(*stack, *result);
                    return;
                }
            }
        }
        if (decomposed_) {
            op.callBoxedForDispatchKey(c10::DispatchKey::CompositeImplicitAutograd, *stack);
        } else {
            const c10::DispatchKeySet own_autograd =
                keys.remove(c10::DispatchKey::AutogradFunctionality).add(c10::DispatchKey::AutogradOther);
            op.redispatchBoxed(own_autograd, stack);
        }
    }

private:
    // Whether RowGradient gives every gradient the call may need: self's, and target's where the row has a factor.
    bool GradientsAvailable(const RowArguments& call) const {
        for (int k = 0; k < row_.input_count; ++k) {
            const at::Tensor& input = call.given[static_cast<size_t>(k)];
            const bool supplied = k == row_.self_input || (k == 1 && row_.target_gradient_factor != 0);
            if (!supplied && input.defined() && input.requires_grad()) return false;
        }
        return true;
    }

    void RecordGradient(const c10::OperatorHandle& op, const RowArguments& call, const torch::jit::Stack& stack,
                        at::Tensor& result) const {
        bool needs_gradient = false;
        for (const at::Tensor& input : call.given)
            needs_gradient = needs_gradient || (input.defined() && input.requires_grad());
        if (!needs_gradient || !at::GradMode::is_enabled()) return;
        auto node = std::shared_ptr<RowGradient>(new RowGradient(gradient_row_, row_.target_gradient_factor, call, op,
                                                                 roles_, torch::jit::last(stack, roles_.size()).vec()),
                                                 torch::autograd::deleteNode);
        node->set_next_edges(torch::autograd::collect_next_edges(call.given));
        torch::autograd::set_history(result, node);
    }

    const aclnn_cpu::OperatorDescription& row_;
    const aclnn_cpu::OperatorDescription& gradient_row_;
    std::vector<ArgumentRole> roles_;
    bool decomposed_;
};

// The overloads registered so far (qualified names), so that registering again is a no-op.
std::mutex g_registration_mutex;
std::set<std::string>& Registered() {
    static std::set<std::string>* registered = new std::set<std::string>();
    return *registered;
}

// Registers aten::<aten_name>.<overload> for the table's row `row_name`. Returns "" on success, else why the
// overload was not registered (PyTorch's kernel then serves every call: an argument the row cannot express is
// never dropped).
std::string RegisterOverload(const std::string& row_name, const std::string& overload) {
    const aclnn_cpu::OperatorDescription* row = aclnn_cpu::FindOperator(row_name.c_str());
    if (row == nullptr || row->aten_name == nullptr) return "no operator " + row_name + " serving aten in the table";
    const std::string name = row->aten_name;
    const std::string qualified = overload.empty() ? name : name + "." + overload;
    const auto handle = c10::Dispatcher::singleton().findSchema({"aten::" + name, overload});
    if (!handle.has_value()) return "PyTorch has no aten::" + qualified;
    const bool decomposed = handle->hasKernelForDispatchKey(c10::DispatchKey::CompositeImplicitAutograd);
    if (decomposed && row->gradient_row == nullptr)
        return "PyTorch decomposes aten::" + qualified + " and the table names no gradient for " + row->api_name;
    // The row supplies the derivative: for a decomposed operator, or one with PyTorch's autograd kernel of its own.
    const bool own_derivative = row->gradient_row != nullptr;
    if (!decomposed && handle->hasKernelForDispatchKey(c10::DispatchKey::BackendSelect))
        return "PyTorch has a BackendSelect kernel of aten::" + qualified + " of its own";
    const c10::FunctionSchema& schema = handle->schema();
    std::vector<ArgumentRole> roles;
    int outs = 0;
    bool has_out = false;
    for (const c10::Argument& argument : schema.arguments()) {
        const std::string& argument_name = argument.name();
        if (argument.alias_info() != nullptr && argument.alias_info()->isWrite()) {
            if (outs == row->output_count) return "aten::" + qualified + " has more out= tensors than the row";
            roles.push_back({Role::kOut, outs++});
            has_out = true;
            continue;
        }
        int input = -1, parameter = -1;
        for (int k = 0; k < row->input_count; ++k)
            if (row->inputs[k].aten_name != nullptr && argument_name == row->inputs[k].aten_name) input = k;
        for (int p = 0; p < row->parameter_count; ++p)
            if (row->parameters[p].aten_name != nullptr && argument_name == row->parameters[p].aten_name) parameter = p;
        if (input >= 0) {
            roles.push_back({Role::kInput, input});
        } else if (parameter >= 0) {
            roles.push_back({Role::kParameter, parameter});
        } else if (row->aten_fixed_argument != nullptr && argument_name == row->aten_fixed_argument) {
            roles.push_back({Role::kFixed});
        } else if (row->aten_dtype_argument != nullptr && argument_name == row->aten_dtype_argument) {
            roles.push_back({Role::kResultDtype});
        } else {
            return "aten::" + qualified + " has an argument " + argument_name + " that " + row->api_name +
                   " does not take";
        }
    }
    if (own_derivative && !has_out) {
        // Where autograd runs (AutogradCPU), the loss and its recorded derivative; the BackendSelect kernel below
        // then serves the calls that skip autograd (inference mode).
        static torch::Library* autograd_library =
            new torch::Library(torch::Library::IMPL, "aten", c10::DispatchKey::AutogradCPU, __FILE__, __LINE__);
        autograd_library->impl(qualified.c_str(), torch::CppFunction::makeFromBoxedFunctor(
                                                      std::make_unique<AutogradOverloadKernel>(*row, roles, decomposed)));
    } else if (decomposed) {
        return "aten::" + qualified + " is an out= form of a decomposed operator";
    }
    static torch::Library* library =
        new torch::Library(torch::Library::IMPL, "aten", c10::DispatchKey::BackendSelect, __FILE__, __LINE__);
    library->impl(qualified.c_str(),
                  torch::CppFunction::makeFromBoxedFunctor(std::make_unique<OverloadKernel>(*row, std::move(roles))));
    return "";
}

}  // namespace

PYBIND11_MODULE(_torch_kernels, module) {
    module.doc() = "aclnn-cpu's PyTorch kernels (internal; use aclnn_cpu.torch)";
    // Registers the overloads once per process: (table row, aten overload) pairs, overload "" for the default.
    // Returns {aten qualified name: why it was not registered} for those it left to PyTorch.
    module.def("register", [](const std::vector<std::pair<std::string, std::string>>& overloads, py::object error_type) {
        std::lock_guard<std::mutex> lock(g_registration_mutex);
        if (g_error_type == nullptr) g_error_type = error_type.release().ptr();
        std::vector<std::pair<std::string, std::string>> skipped;
        for (const auto& [row_name, overload] : overloads) {
            const std::string qualified = overload.empty() ? row_name : row_name + "." + overload;
            if (Registered().count(qualified) != 0) continue;
            const std::string why = RegisterOverload(row_name, overload);
            if (why.empty()) {
                Registered().insert(qualified);
            } else {
                skipped.emplace_back(qualified, why);
            }
        }
        return skipped;
    });
    module.def("set_enabled", [](bool enabled) { g_enabled.store(enabled, std::memory_order_release); });
    module.def("is_enabled", [] { return g_enabled.load(std::memory_order_acquire); });
    module.def("thread_count", &ThreadCount);
}
