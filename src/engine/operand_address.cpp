#include "engine/operand_address.h"

#include <cstdio>

#include "aclnn/opdev/op_errno.h"
#include "common/error_message.h"
#include "runtime/runtime_internal.h"
#include "tensor/tensor.h"

namespace aclnn_cpu::engine {

aclnnStatus AdmitOperandAddress(const char* caller, const char* name, const aclTensor* tensor,
                                const validation::ViewExtent& extent, bool addressed, bool strict, char** base) {
    if (!IsLiveTensor(tensor)) {
        SetErrorMessage(aclnn_cpu::kAclnnParameterError,
                        "%s: %s was destroyed before the operator ran; tensors must live until phase 2.", caller, name);
        return ACLNN_ERR_PARAM_INVALID;
    }
    char* data = static_cast<char*>(tensor->data);
    *base = data;
    if (extent.numel == 0 || !addressed) return ACLNN_SUCCESS;
    if (data == nullptr) {
        SetErrorMessage(aclnn_cpu::kAclnnParameterError, "%s: %s has %lld elements but its data address is null.",
                        caller, name, static_cast<long long>(extent.numel));
        return ACLNN_ERR_PARAM_INVALID;
    }
    const uintptr_t first = reinterpret_cast<uintptr_t>(data) + static_cast<uintptr_t>(extent.first_byte);
    const uint64_t bytes = static_cast<uint64_t>(extent.end_byte - extent.first_byte);
    rt::RangeProblem problem;
    if (first < reinterpret_cast<uintptr_t>(data)) {
        std::snprintf(problem.text, sizeof problem.text, "starting past the end of the address space");
    } else if (rt::AdmitDeviceRange(caller, name, reinterpret_cast<const void*>(first), static_cast<size_t>(bytes),
                                    strict, &problem)) {
        *base = data + extent.first_byte;
        return ACLNN_SUCCESS;
    }
    // Host memory the library does not know can be allowed; an overrun of a known block cannot.
    SetErrorMessage(aclnn_cpu::kAclnnParameterError, "%s: %s (data %p, offset %lld elements) addresses bytes %s.%s",
                    caller, name, static_cast<void*>(data), static_cast<long long>(tensor->offset), problem.text,
                    problem.in_unknown_memory ? " Allocate it with aclrtMalloc, or set ACLNN_CPU_STRICT_MEMORY=0 "
                                                "to pass host buffers." : "");
    return ACLNN_ERR_PARAM_INVALID;
}

}  // namespace aclnn_cpu::engine
