// aclnn_cpu._torch_kernels: PyTorch's CPU kernels of the operator table's aten operators, as CANN's operators.
//
// Each aten overload the table serves is registered once per process with PyTorch's dispatcher (a boxed kernel
// for the CPU key, never deregistered), and every call reads one process-wide flag: when aclnn_cpu.torch is
// disabled, or when a call's arguments are ones the C API cannot take (float64, more dims than can be merged to
// 8), the call goes to PyTorch's own kernel; otherwise through the C API exactly as aclnn_cpu._core does
// (operator_call.h), on the tensors' own memory, into a result from PyTorch's allocator. Registering once and
// switching a flag, rather than registering and dropping a torch.library.Library on every toggle, is what makes
// toggling safe while other threads dispatch: PyTorch 1.13 frees a dropped kernel under a running call.
#include <ATen/ExpandUtils.h>
#include <ATen/Parallel.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/stack.h>
#include <ATen/native/Resize.h>
#include <ATen/native/TypeProperties.h>
#include <ATen/ops/empty.h>
#include <c10/util/irange.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <torch/csrc/Exceptions.h>
#include <torch/library.h>

#include <algorithm>
#include <atomic>
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
PyObject* g_error_type = nullptr;  // aclnn_cpu.AclnnError, kept for the life of the process

// What an aten argument is to the table's operator.
enum class Role { kInput, kReduction, kOut };

struct ArgumentRole {
    Role role;
    int input = -1;  // kInput: the operator's input index
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

TensorSpec SpecOf(const at::Tensor& tensor, c10::IntArrayRef shape, c10::IntArrayRef strides) {
    TensorSpec spec;
    spec.address = reinterpret_cast<uintptr_t>(tensor.data_ptr());
    spec.dtype = AclType(tensor.scalar_type());
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

// One registered aten overload: how its arguments map onto the table's operator, and PyTorch's own kernel.
class OverloadKernel final : public c10::OperatorKernel {
public:
    OverloadKernel(const aclnn_cpu::OperatorDescription& row, std::vector<ArgumentRole> roles, bool has_out)
        : row_(row), roles_(std::move(roles)), has_out_(has_out) {}

    void operator()(const c10::OperatorHandle& op, c10::DispatchKeySet keys, torch::jit::Stack* stack) {
        if (g_enabled.load(std::memory_order_acquire) && TryRun(stack)) return;
        (void)keys;
        // PyTorch's own kernel: registered for CompositeExplicitAutograd, where our CPU kernel does not shadow it.
        op.callBoxedForDispatchKey(c10::DispatchKey::CompositeExplicitAutograd, *stack);
    }

private:
    // Runs the call through the C API and replaces its arguments on the stack with the result; false (the
    // stack untouched) for a call the C API cannot take.
    bool TryRun(torch::jit::Stack* stack) {
        const size_t count = roles_.size();
        auto arguments = torch::jit::last(*stack, count);
        std::vector<at::Tensor> inputs(static_cast<size_t>(row_.input_count));
        int64_t reduction = 1;
        at::Tensor out;
        for (size_t i = 0; i < count; ++i) {
            switch (roles_[i].role) {
                case Role::kInput: inputs[static_cast<size_t>(roles_[i].input)] = arguments[i].toTensor(); break;
                case Role::kReduction: reduction = arguments[i].toInt(); break;
                case Role::kOut: out = arguments[i].toTensor(); break;
            }
        }
        // PyTorch's type promotion decides: integer and bool inputs take the floating type it would compute in
        // (the loss of an f16 input and an int64 target is f16 arithmetic), as PyTorch's kernels promote them.
        // The floating inputs keep their types: CANN promotes among those itself. float64 goes to PyTorch.
        c10::ScalarType common = inputs[0].scalar_type();
        {
            at::native::ResultTypeState state;
            for (const at::Tensor& input : inputs) state = at::native::update_result_type_state(input, state);
            common = at::native::result_type(state);
        }
        if (!CannType(common)) return false;
        for (at::Tensor& input : inputs) {
            if (!input.defined() || input.device().type() != c10::DeviceType::CPU) return false;
            if (!at::isFloatingType(input.scalar_type())) {
                input = input.to(common);
            } else if (!CannType(input.scalar_type())) {
                return false;
            }
        }
        if (has_out_ && (!CannType(out.scalar_type()) || out.device().type() != c10::DeviceType::CPU)) return false;

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
        const bool reduced = row_.reduction_gives_scalar && reduction != 0;
        // A result of the broadcast shape; shapes that do not broadcast keep the first input's shape, and phase 1
        // then rejects them.
        const c10::IntArrayRef result_shape =
            reduced ? c10::IntArrayRef() : (broadcasts ? c10::IntArrayRef(broadcast_shape) : inputs[0].sizes());

        // PyTorch's result has self's dtype (the loss and the gradient alike); CANN's arithmetic runs in the
        // inputs' promoted type and is converted once on the way out.
        at::Tensor result;
        if (has_out_) {
            at::native::resize_output(out, result_shape);
            result = out;
        } else {
            result = at::empty(result_shape, inputs[static_cast<size_t>(row_.self_input)].options());
        }

        std::vector<TensorSpec> specs;
        std::vector<std::pair<uintptr_t, uintptr_t>> ranges;
        bool too_many_dims = false;
        for (const at::Tensor& input : inputs) too_many_dims = too_many_dims || input.dim() > kMaxRank;
        too_many_dims = too_many_dims || result.dim() > kMaxRank;
        TensorSpec out_spec;
        if (too_many_dims && broadcasts) {
            std::vector<at::Tensor> operands = inputs;
            if (!reduced) operands.push_back(result);
            std::vector<std::vector<int64_t>> shapes, strides;
            if (!MergeDims(operands, broadcast_shape, &shapes, &strides)) return false;
            for (size_t k = 0; k < inputs.size(); ++k) specs.push_back(SpecOf(inputs[k], shapes[k], strides[k]));
            out_spec = reduced ? SpecOf(result, {}, {}) : SpecOf(result, shapes.back(), strides.back());
        } else {
            for (const at::Tensor& input : inputs) specs.push_back(SpecOf(input, input.sizes(), input.strides()));
            out_spec = SpecOf(result, result.sizes(), result.strides());
        }
        for (const TensorSpec& spec : specs) ranges.push_back(aclnn_cpu::python::ByteRange(spec));
        ranges.push_back(aclnn_cpu::python::ByteRange(out_spec));
        const Failure failure = aclnn_cpu::python::RunOperator(row_, specs, out_spec, reduction,
                                                                aclnn_cpu::python::MergeRanges(std::move(ranges)),
                                                                ThreadCount());
        if (failure.status != 0) RaiseAclnnError(failure);
        torch::jit::drop(*stack, count);
        torch::jit::push(*stack, result);
        return true;
    }

    const aclnn_cpu::OperatorDescription& row_;
    std::vector<ArgumentRole> roles_;
    bool has_out_;
};

// The overloads registered so far (qualified names), so that registering again is a no-op.
std::mutex g_registration_mutex;
std::set<std::string>& Registered() {
    static std::set<std::string>* registered = new std::set<std::string>();
    return *registered;
}

// Registers `qualified` (e.g. "soft_margin_loss.out") for the row `name`. Returns "" on success, else why the
// overload was not registered (an argument the row cannot express: calls then stay PyTorch's, never run with
// an argument dropped).
std::string RegisterOverload(const std::string& name, const std::string& overload) {
    const aclnn_cpu::OperatorDescription* row = aclnn_cpu::FindOperator(name.c_str());
    if (row == nullptr) return "no operator " + name + " in the table";
    const auto handle = c10::Dispatcher::singleton().findSchema({"aten::" + name, overload});
    if (!handle.has_value()) return "PyTorch has no aten::" + name + "." + overload;
    if (!handle->hasKernelForDispatchKey(c10::DispatchKey::CompositeExplicitAutograd))
        return "PyTorch's kernel of aten::" + name + "." + overload + " is not a CompositeExplicitAutograd kernel";
    const c10::FunctionSchema& schema = handle->schema();
    std::vector<ArgumentRole> roles;
    bool has_out = false;
    for (const c10::Argument& argument : schema.arguments()) {
        const std::string& argument_name = argument.name();
        if (argument.alias_info() != nullptr && argument.alias_info()->isWrite()) {
            roles.push_back({Role::kOut});
            has_out = true;
            continue;
        }
        if (argument_name == "reduction") {
            roles.push_back({Role::kReduction});
            continue;
        }
        int input = -1;
        for (int k = 0; k < row->input_count; ++k)
            if (argument_name == row->aten_input_names[k]) input = k;
        if (input < 0) return "aten::" + name + "." + overload + " has an argument " + argument_name + " that " +
                              row->api_name + " does not take";
        roles.push_back({Role::kInput, input});
    }
    static torch::Library* library =
        new torch::Library(torch::Library::IMPL, "aten", c10::DispatchKey::CPU, __FILE__, __LINE__);
    const std::string qualified = overload.empty() ? name : name + "." + overload;
    library->impl(qualified.c_str(), torch::CppFunction::makeFromBoxedFunctor(
                                         std::make_unique<OverloadKernel>(*row, std::move(roles), has_out)));
    return "";
}

}  // namespace

PYBIND11_MODULE(_torch_kernels, module) {
    module.doc() = "aclnn-cpu's PyTorch kernels (internal; use aclnn_cpu.torch)";
    // Registers the overloads once per process: (name, overload) pairs, overload "" for the default. Returns
    // {qualified name: why it was not registered} for those it left to PyTorch.
    module.def("register", [](const std::vector<std::pair<std::string, std::string>>& overloads, py::object error_type) {
        std::lock_guard<std::mutex> lock(g_registration_mutex);
        if (g_error_type == nullptr) g_error_type = error_type.release().ptr();
        std::vector<std::pair<std::string, std::string>> skipped;
        for (const auto& [name, overload] : overloads) {
            const std::string qualified = overload.empty() ? name : name + "." + overload;
            if (Registered().count(qualified) != 0) continue;
            const std::string why = RegisterOverload(name, overload);
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
