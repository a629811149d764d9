// aclnn_cpu._core: the thin C++ layer under the Python package. It calls the C API exactly as a C++ program
// does -- aclCreateTensor, phase 1, aclrtMalloc'd workspace, phase 2, stream sync -- on the caller's buffers,
// which it registers with aclrtHostRegister for the duration of the call (no copy; the strict memory checks
// stay on). It also reads DLPack capsules (torch tensors, bfloat16 included). Everything Pythonic (dtypes,
// reductions, broadcasting of results, numpy/torch results) lives in aclnn_cpu/*.py.
#include <dlpack/dlpack.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "acl/acl.h"
#include "aclnn/opdev/op_errno.h"
#include "aclnn_cpu/aclnn_cpu.h"
#include "ops/operator_table.h"

namespace py = pybind11;

namespace {

// One operand as the Python layer describes it: data address, aclDataType, view shape, strides in elements.
using TensorSpec = std::tuple<uintptr_t, int, std::vector<int64_t>, std::vector<int64_t>>;
// A host range to register: address, bytes.
using Region = std::tuple<uintptr_t, uint64_t>;

struct Failure {
    int64_t status = 0;
    std::string message;
};

Failure FailureFromRecentMessage(int64_t status, const char* what) {
    const char* message = aclGetRecentErrMsg();
    return {status, std::string(what) + " returned " + std::to_string(status) +
                        (message != nullptr ? std::string(": ") + message : std::string())};
}

// Releases, in reverse order, what a call acquired; runs on every path out of RunOperator.
class CallResources {
public:
    CallResources() = default;
    CallResources(const CallResources&) = delete;
    CallResources& operator=(const CallResources&) = delete;
    ~CallResources() {
        if (workspace != nullptr) aclrtFree(workspace);
        for (aclTensor* tensor : tensors) aclDestroyTensor(tensor);
        for (void* base : registered) aclrtHostUnregister(base);
    }
    std::vector<void*> registered;
    std::vector<aclTensor*> tensors;
    void* workspace = nullptr;
};

// Each Python thread that calls in gets device 0 as its current context once, as a CANN program would.
bool EnsureDevice(Failure* failure) {
    thread_local bool device_set = false;
    if (device_set) return true;
    const aclError status = aclrtSetDevice(0);
    if (status != ACL_SUCCESS) {
        *failure = FailureFromRecentMessage(status, "aclrtSetDevice");
        return false;
    }
    device_set = true;
    return true;
}

aclTensor* CreateTensor(const TensorSpec& spec) {
    const auto& [address, dtype, shape, strides] = spec;
    // The storage is described as the flat span the view addresses; the operators read the view.
    int64_t span = 1;
    for (size_t d = 0; d < shape.size(); ++d) span += shape[d] > 0 ? (shape[d] - 1) * strides[d] : 0;
    const int64_t storage[1] = {span};
    return aclCreateTensor(shape.data(), shape.size(), static_cast<aclDataType>(dtype), strides.data(), 0,
                           ACL_FORMAT_ND, storage, 1, reinterpret_cast<void*>(address));
}

// Runs one operator with the GIL released. Returns an empty failure on success.
Failure RunOperator(const std::string& name, const std::vector<TensorSpec>& inputs, const TensorSpec& out,
                    int64_t reduction, const std::vector<Region>& regions, int threads) {
    const aclnn_cpu::OperatorDescription* found = aclnn_cpu::FindOperator(name.c_str());
    if (found == nullptr) return {ACLNN_ERR_PARAM_INVALID, "unknown operator " + name};
    const aclnn_cpu::OperatorDescription& description = *found;
    if (static_cast<int>(inputs.size()) != description.input_count)
        return {ACLNN_ERR_PARAM_INVALID, name + " takes " + std::to_string(description.input_count) + " inputs"};
    Failure failure;
    if (!EnsureDevice(&failure)) return failure;
    CallResources resources;
    for (const auto& [address, bytes] : regions) {
        if (bytes == 0) continue;
        void* base = reinterpret_cast<void*>(address);
        void* mapped = nullptr;
        const aclError status = aclrtHostRegister(base, bytes, ACL_HOST_REGISTER_MAPPED, &mapped);
        if (status != ACL_SUCCESS) return FailureFromRecentMessage(status, "aclrtHostRegister");
        resources.registered.push_back(base);
    }
    for (const TensorSpec& spec : inputs) resources.tensors.push_back(CreateTensor(spec));
    resources.tensors.push_back(CreateTensor(out));
    for (aclTensor* tensor : resources.tensors)
        if (tensor == nullptr) return FailureFromRecentMessage(ACLNN_ERR_PARAM_INVALID, "aclCreateTensor");
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    aclnnStatus status = description.get_workspace_size(resources.tensors.data(), reduction,
                                                        resources.tensors.back(), &workspace_size, &executor);
    if (status != ACLNN_SUCCESS)
        return FailureFromRecentMessage(status, (std::string(description.api_name) + "GetWorkspaceSize").c_str());
    if (workspace_size > 0) {
        const aclError allocated = aclrtMalloc(&resources.workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST);
        if (allocated != ACL_SUCCESS) {
            // The executor is single-use: run it with no workspace would fail, so release it unrun.
            aclSetAclOpExecutorRepeatable(executor);
            aclDestroyAclOpExecutor(executor);
            return FailureFromRecentMessage(allocated, "aclrtMalloc (workspace)");
        }
    }
    // Phase 2 reads the thread count on this thread: the caller's (PyTorch's) setting when it gives one (0:
    // leave the thread's setting, ACLNN_CPU_NUM_THREADS or all cores, alone).
    if (threads > 0) aclnnCpuSetThreadCount(threads);
    status = description.run(resources.workspace, workspace_size, executor, nullptr);
    if (threads > 0) aclnnCpuSetThreadCount(0);
    if (status != ACLNN_SUCCESS) return FailureFromRecentMessage(status, description.api_name);
    const aclError synced = aclrtSynchronizeStream(nullptr);
    if (synced != ACL_SUCCESS) return FailureFromRecentMessage(synced, "aclrtSynchronizeStream");
    return failure;
}

[[noreturn]] void RaiseAclnnError(const Failure& failure) {
    py::object error_type = py::module_::import("aclnn_cpu._errors").attr("AclnnError");
    PyErr_SetObject(error_type.ptr(), py::make_tuple(failure.status, failure.message).ptr());
    throw py::error_already_set();
}

// Takes a DLPack capsule ("dltensor"), marks it consumed ("used_dltensor") as the protocol requires, and
// returns (address, type code, bits, lanes, shape, strides or None, device type, owner). The owner capsule
// calls the producer's deleter when Python drops it; the caller keeps it alive while the data is in use.
py::tuple ReadDlpack(py::capsule capsule) {
    PyObject* object = capsule.ptr();
    if (!PyCapsule_IsValid(object, "dltensor"))
        throw py::value_error("not an unconsumed DLPack capsule (expected the name \"dltensor\")");
    auto* managed = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(object, "dltensor"));
    if (managed == nullptr) throw py::error_already_set();
    PyCapsule_SetName(object, "used_dltensor");
    py::capsule owner(managed, [](void* pointer) {
        auto* tensor = static_cast<DLManagedTensor*>(pointer);
        if (tensor->deleter != nullptr) tensor->deleter(tensor);
    });
    const DLTensor& tensor = managed->dl_tensor;
    std::vector<int64_t> shape(tensor.shape, tensor.shape + tensor.ndim);
    py::object strides = py::none();
    if (tensor.strides != nullptr) strides = py::cast(std::vector<int64_t>(tensor.strides, tensor.strides + tensor.ndim));
    const uintptr_t address = reinterpret_cast<uintptr_t>(tensor.data) + tensor.byte_offset;
    return py::make_tuple(address, static_cast<int>(tensor.dtype.code), static_cast<int>(tensor.dtype.bits),
                          static_cast<int>(tensor.dtype.lanes), shape, strides,
                          static_cast<int>(tensor.device.device_type), owner);
}

}  // namespace

PYBIND11_MODULE(_core, module) {
    module.doc() = "aclnn-cpu's C API, called from Python (internal; use the aclnn_cpu package)";
    module.def(
        "run",
        [](const std::string& name, const std::vector<TensorSpec>& inputs, const TensorSpec& out, int64_t reduction,
           const std::vector<Region>& regions, int threads) {
            Failure failure;
            {
                py::gil_scoped_release release;
                failure = RunOperator(name, inputs, out, reduction, regions, threads);
            }
            if (failure.status != 0) RaiseAclnnError(failure);
        },
        py::arg("name"), py::arg("inputs"), py::arg("out"), py::arg("reduction"), py::arg("regions"),
        py::arg("threads") = 0);
    // The operator table (ops/operator_table.h): (name, C API name, input names, reduction gives a 0-d out).
    module.def("operators", [] {
        py::list table;
        for (const aclnn_cpu::OperatorDescription& description : aclnn_cpu::kOperators) {
            py::list names;
            for (int i = 0; i < description.input_count; ++i) names.append(description.input_names[i]);
            table.append(py::make_tuple(description.name, description.api_name, py::tuple(names),
                                        description.reduction_gives_scalar));
        }
        return table;
    });
    module.def("read_dlpack", &ReadDlpack, py::arg("capsule"));
    module.attr("kDLCPU") = static_cast<int>(kDLCPU);
    module.attr("kDLFloat") = static_cast<int>(kDLFloat);
    module.attr("kDLBfloat") = static_cast<int>(kDLBfloat);
}
