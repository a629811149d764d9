#include "operator_call.h"

#include <algorithm>

#include "acl/acl.h"
#include "aclnn/opdev/op_errno.h"
#include "aclnn_cpu/aclnn_cpu.h"

namespace aclnn_cpu::python {
namespace {

Failure FailureFromRecentMessage(int64_t status, const std::string& what) {
    const char* message = aclGetRecentErrMsg();
    return {status, what + " returned " + std::to_string(status) +
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

// Each thread that calls in gets device 0 as its current context once, as a CANN program would.
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
    // The storage is described as the flat span the view addresses; the operators read the view.
    int64_t span = 1;
    for (size_t d = 0; d < spec.shape.size(); ++d) span += spec.shape[d] > 0 ? (spec.shape[d] - 1) * spec.strides[d] : 0;
    const int64_t storage[1] = {span};
    return aclCreateTensor(spec.shape.data(), spec.shape.size(), static_cast<aclDataType>(spec.dtype),
                           spec.strides.data(), 0, ACL_FORMAT_ND, storage, 1, reinterpret_cast<void*>(spec.address));
}

}  // namespace

std::pair<uintptr_t, uintptr_t> ByteRange(const TensorSpec& spec) {
    if (spec.absent) return {0, 0};
    int64_t last = 0;
    for (size_t d = 0; d < spec.shape.size(); ++d) {
        if (spec.shape[d] == 0) return {spec.address, spec.address};
        last += (spec.shape[d] - 1) * spec.strides[d];
    }
    return {spec.address, spec.address + static_cast<uintptr_t>((last + 1) * spec.element_bytes)};
}

std::vector<Region> MergeRanges(std::vector<std::pair<uintptr_t, uintptr_t>> ranges) {
    ranges.erase(std::remove_if(ranges.begin(), ranges.end(), [](const auto& r) { return r.second <= r.first; }),
                 ranges.end());
    std::sort(ranges.begin(), ranges.end());
    std::vector<std::pair<uintptr_t, uintptr_t>> merged;
    for (const auto& range : ranges) {
        if (!merged.empty() && range.first <= merged.back().second) {
            merged.back().second = std::max(merged.back().second, range.second);
        } else {
            merged.push_back(range);
        }
    }
    std::vector<Region> regions;
    regions.reserve(merged.size());
    for (const auto& [begin, end] : merged) regions.emplace_back(begin, end - begin);
    return regions;
}

Failure RunOperator(const OperatorDescription& row, const std::vector<TensorSpec>& inputs,
                    const std::vector<TensorSpec>& outs, const std::vector<double>& parameters,
                    const std::vector<Region>& regions, int threads) {
    if (static_cast<int>(inputs.size()) != row.input_count)
        return {ACLNN_ERR_PARAM_INVALID, std::string(row.name) + " takes " + std::to_string(row.input_count) + " inputs"};
    if (static_cast<int>(outs.size()) != row.output_count)
        return {ACLNN_ERR_PARAM_INVALID, std::string(row.name) + " has " + std::to_string(row.output_count) + " outputs"};
    if (static_cast<int>(parameters.size()) != row.parameter_count)
        return {ACLNN_ERR_PARAM_INVALID,
                std::string(row.name) + " takes " + std::to_string(row.parameter_count) + " parameters"};
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
    std::vector<const aclTensor*> arguments;
    for (const TensorSpec& spec : inputs) {
        aclTensor* tensor = spec.absent ? nullptr : CreateTensor(spec);
        if (!spec.absent && tensor == nullptr)
            return FailureFromRecentMessage(ACLNN_ERR_PARAM_INVALID, "aclCreateTensor");
        if (tensor != nullptr) resources.tensors.push_back(tensor);
        arguments.push_back(tensor);
    }
    std::vector<aclTensor*> out_tensors;
    for (const TensorSpec& out : outs) {
        aclTensor* out_tensor = CreateTensor(out);
        if (out_tensor == nullptr) return FailureFromRecentMessage(ACLNN_ERR_PARAM_INVALID, "aclCreateTensor");
        resources.tensors.push_back(out_tensor);
        out_tensors.push_back(out_tensor);
    }
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    aclnnStatus status =
        row.get_workspace_size(arguments.data(), parameters.data(), out_tensors.data(), &workspace_size, &executor);
    if (status != ACLNN_SUCCESS) return FailureFromRecentMessage(status, std::string(row.api_name) + "GetWorkspaceSize");
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
    status = row.run(resources.workspace, workspace_size, executor, nullptr);
    if (threads > 0) aclnnCpuSetThreadCount(0);
    if (status != ACLNN_SUCCESS) return FailureFromRecentMessage(status, row.api_name);
    const aclError synced = aclrtSynchronizeStream(nullptr);
    if (synced != ACL_SUCCESS) return FailureFromRecentMessage(synced, "aclrtSynchronizeStream");
    return failure;
}

}  // namespace aclnn_cpu::python
