// Executors: creation by phase 1, the common phase 2, repeatable executors and address rebinding.
#include <exception>
#include <new>

#include "aclnn/aclnn_base.h"
#include "aclnn/opdev/op_errno.h"
#include "common/config.h"
#include "common/error_message.h"
#include "common/live_set.h"
#include "executor/executor.h"
#include "runtime/runtime_internal.h"
#include "tensor/tensor.h"

namespace aclnn_cpu {
namespace {

// Created when the library loads and never destroyed, like the tensor registry.
LiveSet<aclOpExecutor>* const g_live_executors = new LiveSet<aclOpExecutor>;

bool IsLive(const aclOpExecutor* executor) { return g_live_executors->Contains(executor); }

// Removes and frees executor; false when it was not live.
bool Release(aclOpExecutor* executor) {
    if (!g_live_executors->Erase(executor)) return false;
    delete executor;
    return true;
}

enum class TensorRole { kInput, kOutput, kAny };

aclnnStatus SetAddress(const char* caller, aclOpExecutor* executor, size_t index, aclTensor* tensor, void* addr,
                       TensorRole role) {
    // As in CANN, the address is stored into the tensor before the executor is looked at.
    if (tensor != nullptr) tensor->data = addr;
    if (executor == nullptr || tensor == nullptr) {
        SetErrorMessage(aclnn_cpu::kAclnnParameterError,
                        "%s: Expected a proper %s but got null", caller, executor == nullptr ? "executor" : "tensor");
        return ACLNN_ERR_INNER_NULLPTR;
    }
    if (!IsLive(executor)) {
        SetErrorMessage(aclnn_cpu::kAclnnParameterError,
                        "%s: executor %p is not live (already run, or destroyed)", caller,
                        static_cast<void*>(executor));
        return ACLNN_ERR_PARAM_INVALID;
    }
    std::vector<aclTensor*> candidates;
    if (role != TensorRole::kOutput) candidates = executor->inputs;
    if (role != TensorRole::kInput)
        candidates.insert(candidates.end(), executor->outputs.begin(), executor->outputs.end());
    if (index >= candidates.size()) {
        SetErrorMessage(aclnn_cpu::kAclnnParameterError,
                        "%s: index %zu is out of range; %s has %zu such tensors", caller, index, executor->op_name,
                        candidates.size());
        return ACLNN_ERR_PARAM_INVALID;
    }
    if (candidates[index] != tensor) {
        SetErrorMessage(aclnn_cpu::kAclnnParameterError,
                        "%s: tensor %p is not tensor #%zu of this %s executor, so the new address would not be used",
                        caller, static_cast<void*>(tensor), index, executor->op_name);
        return ACLNN_ERR_PARAM_INVALID;
    }
    return ACLNN_SUCCESS;
}

aclnnStatus NoTensorLists(const char* caller, aclOpExecutor* executor, aclTensorList* tensors) {
    if (executor == nullptr || tensors == nullptr) {
        SetErrorMessage(aclnn_cpu::kAclnnParameterError, "%s: Expected a proper %s but got null", caller,
                        executor == nullptr ? "executor" : "tensor list");
        return ACLNN_ERR_INNER_NULLPTR;
    }
    SetErrorMessage(aclnn_cpu::kAclnnParameterError,
                    "%s: the operators of aclnn-cpu take no tensor-list arguments", caller);
    return ACLNN_ERR_PARAM_INVALID;
}

}  // namespace

aclOpExecutor* CreateExecutor(std::shared_ptr<const OpPlan> plan, std::vector<aclTensor*> inputs,
                              std::vector<aclTensor*> outputs, const char* op_name) {
    aclOpExecutor* executor = new (std::nothrow) aclOpExecutor;
    if (executor == nullptr) return nullptr;
    try {
        executor->plan = std::move(plan);
        executor->inputs = std::move(inputs);
        executor->outputs = std::move(outputs);
        executor->op_name = op_name;
        g_live_executors->Insert(executor);
    } catch (const std::bad_alloc&) {
        delete executor;
        return nullptr;
    }
    return executor;
}

aclnnStatus RunExecutor(void* workspace, uint64_t workspace_size, aclOpExecutor* executor, aclrtStream stream,
                        const char* caller) {
    if (executor == nullptr) {
        SetErrorMessage(aclnn_cpu::kAclnnParameterError,
                        "%s: Expected a proper executor but got null for argument executor.", caller);
        return ACLNN_ERR_PARAM_NULLPTR;
    }
    if (!IsLive(executor)) {
        SetErrorMessage(aclnn_cpu::kAclnnParameterError,
                        "%s: executor %p is not live: a single-use executor is consumed by its first run, and a "
                        "destroyed one cannot run", caller, static_cast<void*>(executor));
        return ACLNN_ERR_PARAM_INVALID;
    }
    const uint64_t needed = executor->plan->WorkspaceSize();
    aclnnStatus status = ACLNN_SUCCESS;
    rt::RangeProblem problem;
    if (workspace_size > 0 && workspace == nullptr) {
        SetErrorMessage(aclnn_cpu::kAclnnParameterError, "%s: workspaceSize is %llu but workspace is null", caller,
                        static_cast<unsigned long long>(workspace_size));
        status = ACLNN_ERR_PARAM_NULLPTR;
    } else if (workspace_size < needed) {
        SetErrorMessage(aclnn_cpu::kAclnnParameterError,
                        "%s: workspaceSize %llu is smaller than the %llu bytes phase 1 asked for", caller,
                        static_cast<unsigned long long>(workspace_size), static_cast<unsigned long long>(needed));
        status = ACLNN_ERR_PARAM_INVALID;
    } else if (needed > 0 &&
               !rt::AdmitDeviceRange(caller, "workspace", workspace, needed, StrictMemoryChecks(), &problem)) {
        SetErrorMessage(aclnn_cpu::kAclnnParameterError, "%s: workspace %s", caller, problem.text);
        status = ACLNN_ERR_PARAM_INVALID;
    } else {
        try {
            rt::Task task;
            status = executor->plan->Bind(workspace, needed, &task);
            if (status == ACLNN_SUCCESS && task) {
                const aclError enqueued = rt::EnqueueOnStream(stream, std::move(task), caller,
                                                              executor->plan->IsSmall());
                if (enqueued == ACL_ERROR_INVALID_PARAM) status = ACLNN_ERR_PARAM_INVALID;
                else if (enqueued != ACL_SUCCESS) status = ACLNN_ERR_INNER;
            }
        } catch (const std::exception& e) {
            SetErrorMessage(aclnn_cpu::kAclnnParameterError, "%s: %s", caller, e.what());
            status = ACLNN_ERR_INNER;
        }
    }
    // A single-use executor is consumed by any run that reached it, as CANN's CommonOpExecutorRun does.
    if (!executor->repeatable) Release(executor);
    return status;
}

}  // namespace aclnn_cpu

using aclnn_cpu::SetAddress;
using aclnn_cpu::TensorRole;

extern "C" {

aclnnStatus aclnnInit(const char* configPath) {
    (void)configPath;  // no debug configuration applies to a CPU build
    return ACLNN_SUCCESS;
}

aclnnStatus aclnnFinalize(void) { return ACLNN_SUCCESS; }

aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor* executor) {
    if (executor == nullptr) {
        aclnn_cpu::SetErrorMessage(aclnn_cpu::kAclnnParameterError,
                        "aclSetAclOpExecutorRepeatable: Expected a proper executor but got null");
        return ACLNN_ERR_INNER_NULLPTR;
    }
    if (!aclnn_cpu::IsLive(executor)) {
        aclnn_cpu::SetErrorMessage(aclnn_cpu::kAclnnParameterError,
                        "aclSetAclOpExecutorRepeatable: executor %p is not live (already run, or "
                                   "destroyed)", static_cast<void*>(executor));
        return ACLNN_ERR_PARAM_INVALID;
    }
    executor->repeatable = true;
    return ACLNN_SUCCESS;
}

aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor* executor) {
    if (executor == nullptr) {
        aclnn_cpu::SetErrorMessage(aclnn_cpu::kAclnnParameterError,
                        "aclDestroyAclOpExecutor: Expected a proper executor but got null");
        return ACLNN_ERR_INNER_NULLPTR;
    }
    if (!aclnn_cpu::IsLive(executor)) {
        aclnn_cpu::SetErrorMessage(aclnn_cpu::kAclnnParameterError,
                        "aclDestroyAclOpExecutor: executor %p is not live (already run, or destroyed)",
                                   static_cast<void*>(executor));
        return ACLNN_ERR_PARAM_INVALID;
    }
    if (!executor->repeatable) {
        aclnn_cpu::SetErrorMessage(aclnn_cpu::kAclnnParameterError,
                        "aclDestroyAclOpExecutor: executor %p is not repeatable; phase 2 frees it",
                                   static_cast<void*>(executor));
        return ACLNN_ERR_PARAM_INVALID;
    }
    aclnn_cpu::Release(executor);
    return ACLNN_SUCCESS;
}

aclnnStatus aclSetInputTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor, void* addr) {
    return SetAddress("aclSetInputTensorAddr", executor, index, tensor, addr, TensorRole::kInput);
}

aclnnStatus aclSetOutputTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor, void* addr) {
    return SetAddress("aclSetOutputTensorAddr", executor, index, tensor, addr, TensorRole::kOutput);
}

aclnnStatus aclSetTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor, void* addr) {
    return SetAddress("aclSetTensorAddr", executor, index, tensor, addr, TensorRole::kAny);
}

aclnnStatus aclSetDynamicInputTensorAddr(aclOpExecutor* executor, size_t, const size_t, aclTensorList* tensors,
                                         void*) {
    return aclnn_cpu::NoTensorLists("aclSetDynamicInputTensorAddr", executor, tensors);
}

aclnnStatus aclSetDynamicOutputTensorAddr(aclOpExecutor* executor, size_t, const size_t, aclTensorList* tensors,
                                          void*) {
    return aclnn_cpu::NoTensorLists("aclSetDynamicOutputTensorAddr", executor, tensors);
}

aclnnStatus aclSetDynamicTensorAddr(aclOpExecutor* executor, size_t, const size_t, aclTensorList* tensors, void*) {
    return aclnn_cpu::NoTensorLists("aclSetDynamicTensorAddr", executor, tensors);
}

aclnnStatus AclSetInputTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor, void* addr) {
    return aclSetInputTensorAddr(executor, index, tensor, addr);
}

aclnnStatus AclSetOutputTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor, void* addr) {
    return aclSetOutputTensorAddr(executor, index, tensor, addr);
}

aclnnStatus AclSetTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor, void* addr) {
    return aclSetTensorAddr(executor, index, tensor, addr);
}

aclnnStatus AclSetDynamicInputTensorAddr(aclOpExecutor* executor, size_t irIndex, const size_t relativeIndex,
                                         aclTensorList* tensors, void* addr) {
    return aclSetDynamicInputTensorAddr(executor, irIndex, relativeIndex, tensors, addr);
}

aclnnStatus AclSetDynamicOutputTensorAddr(aclOpExecutor* executor, size_t irIndex, const size_t relativeIndex,
                                          aclTensorList* tensors, void* addr) {
    return aclSetDynamicOutputTensorAddr(executor, irIndex, relativeIndex, tensors, addr);
}

aclnnStatus AclSetDynamicTensorAddr(aclOpExecutor* executor, size_t irIndex, const size_t relativeIndex,
                                    aclTensorList* tensors, void* addr) {
    return aclSetDynamicTensorAddr(executor, irIndex, relativeIndex, tensors, addr);
}

}  // extern "C"
