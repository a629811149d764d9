// aclrtHostRegister, aclrtHostGetDevicePointer, aclrtHostUnregister: host memory the device may address.
// The device pointer is the host pointer itself; operators and copies accept the range under the strict
// memory checks until it is unregistered.
#include <new>

#include "acl/acl.h"
#include "common/error_message.h"
#include "runtime/allocation_registry.h"
#include "runtime/host_registration.h"
#include "runtime/stream_registry.h"

namespace {

using aclnn_cpu::SetErrorMessage;
using aclnn_cpu::rt::RegisteredHostMemory;

}  // namespace

extern "C" {

aclError aclrtHostRegister(void* ptr, uint64_t size, aclrtHostRegisterType type, void** devPtr) {
    if (ptr == nullptr || devPtr == nullptr) {
        SetErrorMessage(aclnn_cpu::kRuntimeArgumentError, "aclrtHostRegister: %s is null",
                        ptr == nullptr ? "ptr" : "devPtr");
        return ACL_ERROR_INVALID_PARAM;
    }
    if (size == 0 || reinterpret_cast<uintptr_t>(ptr) + size < reinterpret_cast<uintptr_t>(ptr)) {
        SetErrorMessage(aclnn_cpu::kRuntimeArgumentError,
                        "aclrtHostRegister: size %llu is %s", static_cast<unsigned long long>(size),
                        size == 0 ? "0" : "past the end of the address space");
        return ACL_ERROR_INVALID_PARAM;
    }
    if (type != ACL_HOST_REGISTER_MAPPED && type != ACL_HOST_REGISTER_IOMEMORY && type != ACL_HOST_REGISTER_READONLY) {
        SetErrorMessage(aclnn_cpu::kRuntimeArgumentError,
                        "aclrtHostRegister: type %d is not an aclrtHostRegisterType (expected "
                        "ACL_HOST_REGISTER_MAPPED, _IOMEMORY or _READONLY)", static_cast<int>(type));
        return ACL_ERROR_INVALID_PARAM;
    }
    if (aclnn_cpu::rt::DeviceAllocations().Owns(ptr)) {
        SetErrorMessage(aclnn_cpu::kRuntimeArgumentError,
                        "aclrtHostRegister: ptr %p is inside an aclrtMalloc block, which is device memory already",
                        ptr);
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    try {
        RegisteredHostMemory().Add(ptr, static_cast<size_t>(size));
    } catch (const std::bad_alloc&) {
        SetErrorMessage(aclnn_cpu::kRuntimeInnerError, "aclrtHostRegister: out of memory");
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    *devPtr = ptr;
    return ACL_SUCCESS;
}

aclError aclrtHostGetDevicePointer(void* pHost, void** pDevice, uint32_t flag) {
    if (pHost == nullptr || pDevice == nullptr) {
        SetErrorMessage(aclnn_cpu::kRuntimeArgumentError, "aclrtHostGetDevicePointer: %s is null",
                        pHost == nullptr ? "pHost" : "pDevice");
        return ACL_ERROR_INVALID_PARAM;
    }
    if (flag != 0) {
        SetErrorMessage(aclnn_cpu::kRuntimeArgumentError, "aclrtHostGetDevicePointer: flag %u must be 0", flag);
        return ACL_ERROR_INVALID_PARAM;
    }
    if (RegisteredHostMemory().Classify(pHost, 0).placement != aclnn_cpu::rt::RangePlacement::kInside) {
        SetErrorMessage(aclnn_cpu::kRuntimeArgumentError,
                        "aclrtHostGetDevicePointer: %p is not inside memory registered with aclrtHostRegister",
                        pHost);
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    *pDevice = pHost;
    return ACL_SUCCESS;
}

aclError aclrtHostUnregister(void* ptr) {
    if (ptr == nullptr) {
        SetErrorMessage(aclnn_cpu::kRuntimeArgumentError, "aclrtHostUnregister: ptr is null");
        return ACL_ERROR_INVALID_PARAM;
    }
    // Queued work may still read or write the range: every stream finishes first, as for aclrtFree.
    aclnn_cpu::rt::SynchronizeAllStreams(false);
    if (!RegisteredHostMemory().Remove(ptr)) {
        SetErrorMessage(aclnn_cpu::kRuntimeArgumentError,
                        "aclrtHostUnregister: %p is not the start of a range registered with aclrtHostRegister",
                        ptr);
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    return ACL_SUCCESS;
}

}  // extern "C"
