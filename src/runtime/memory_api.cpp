// aclrtMalloc/aclrtFree, aclrtMallocHost/aclrtFreeHost, aclrtMemcpy(Async), aclrtMemset(Async).
// "Device" memory is host memory known to the allocation registry, which the strict memory checks consult.
#include <sys/mman.h>

#include <cstdlib>
#include <cstring>
#include <new>

#include "acl/acl.h"
#include "common/config.h"
#include "common/error_message.h"
#include "runtime/allocation_registry.h"
#include "runtime/host_registration.h"
#include "runtime/runtime_internal.h"
#include "runtime/stream_registry.h"

namespace aclnn_cpu::rt {

bool InsideDeviceAllocation(const void* address, size_t bytes) {
    return DeviceAllocations().Contains(address, bytes) || RegisteredHostMemory().Contains(address, bytes);
}

}  // namespace aclnn_cpu::rt

namespace {

using aclnn_cpu::SetErrorMessage;
using aclnn_cpu::rt::DeviceAllocations;
using aclnn_cpu::rt::HostAllocations;

constexpr size_t kAlignment = 64;
constexpr size_t kHugePage = size_t{2} << 20;

// Allocates at least size bytes, 64-byte aligned; large blocks that prefer huge pages are 2 MiB aligned and
// advised as such. Returns nullptr on failure (including a size too large to round up).
void* AllocateAligned(size_t size, bool prefer_huge_pages) {
    const bool huge = prefer_huge_pages && size >= kHugePage;
    const size_t alignment = huge ? kHugePage : kAlignment;
    if (size > SIZE_MAX - alignment) return nullptr;
    const size_t rounded = (size + alignment - 1) / alignment * alignment;
    void* block = std::aligned_alloc(alignment, rounded);
    if (block != nullptr && huge) madvise(block, rounded, MADV_HUGEPAGE);
    return block;
}

bool PrefersHugePages(aclrtMemMallocPolicy policy) {
    const int base = static_cast<int>(policy) & 0xff;
    return base == ACL_MEM_MALLOC_HUGE_FIRST || base == ACL_MEM_MALLOC_HUGE_ONLY ||
           base == ACL_MEM_MALLOC_HUGE_FIRST_P2P || base == ACL_MEM_MALLOC_HUGE_ONLY_P2P ||
           base == ACL_MEM_MALLOC_HUGE1G_ONLY || base == ACL_MEM_MALLOC_HUGE1G_ONLY_P2P;
}

const char* KindName(aclrtMemcpyKind kind) {
    switch (kind) {
        case ACL_MEMCPY_HOST_TO_HOST: return "ACL_MEMCPY_HOST_TO_HOST";
        case ACL_MEMCPY_HOST_TO_DEVICE: return "ACL_MEMCPY_HOST_TO_DEVICE";
        case ACL_MEMCPY_DEVICE_TO_HOST: return "ACL_MEMCPY_DEVICE_TO_HOST";
        case ACL_MEMCPY_DEVICE_TO_DEVICE: return "ACL_MEMCPY_DEVICE_TO_DEVICE";
        case ACL_MEMCPY_DEFAULT: return "ACL_MEMCPY_DEFAULT";
        case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE: return "ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE";
        default: return "an unsupported kind";
    }
}

// The checks shared by aclrtMemcpy and aclrtMemcpyAsync, in CANN's order. *nothing_to_do is set when the
// copy succeeds without moving bytes (count 0, or dst == src).
aclError CheckCopy(const char* caller, void* dst, size_t destMax, const void* src, size_t count,
                   aclrtMemcpyKind kind, bool* nothing_to_do) {
    *nothing_to_do = false;
    if (count == 0) {
        *nothing_to_do = true;
        return ACL_SUCCESS;
    }
    if (dst == nullptr || src == nullptr) {
        SetErrorMessage(aclnn_cpu::kRuntimeArgumentError, "%s: %s is null", caller, dst == nullptr ? "dst" : "src");
        return ACL_ERROR_INVALID_PARAM;
    }
    if (static_cast<int>(kind) < ACL_MEMCPY_HOST_TO_HOST || static_cast<int>(kind) > ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE) {
        SetErrorMessage(aclnn_cpu::kRuntimeArgumentError,
                        "%s: kind %d is not supported (expected ACL_MEMCPY_HOST_TO_HOST .. "
                        "ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE)", caller, static_cast<int>(kind));
        return ACL_ERROR_INVALID_PARAM;
    }
    if (count > destMax) {
        SetErrorMessage(aclnn_cpu::kRuntimeArgumentError,
                        "%s: count %zu is larger than destMax %zu", caller, count, destMax);
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    if (aclnn_cpu::StrictMemoryChecks()) {
        const bool dst_on_device = kind == ACL_MEMCPY_HOST_TO_DEVICE || kind == ACL_MEMCPY_DEVICE_TO_DEVICE ||
                                   kind == ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE;
        const bool src_on_device = kind == ACL_MEMCPY_DEVICE_TO_HOST || kind == ACL_MEMCPY_DEVICE_TO_DEVICE;
        if (dst_on_device && !aclnn_cpu::rt::InsideDeviceAllocation(dst, count)) {
            SetErrorMessage(aclnn_cpu::kRuntimeArgumentError,
                            "%s: dst [%p, +%zu bytes) is not inside one live aclrtMalloc block (kind %s)", caller, dst,
                            count, KindName(kind));
            return ACL_ERROR_RT_PARAM_INVALID;
        }
        if (src_on_device && !aclnn_cpu::rt::InsideDeviceAllocation(src, count)) {
            SetErrorMessage(aclnn_cpu::kRuntimeArgumentError,
                            "%s: src [%p, +%zu bytes) is not inside one live aclrtMalloc block (kind %s)", caller, src,
                            count, KindName(kind));
            return ACL_ERROR_RT_PARAM_INVALID;
        }
    }
    if (dst == src) *nothing_to_do = true;
    return ACL_SUCCESS;
}

aclError CheckSet(const char* caller, void* devPtr, size_t maxCount, size_t count, bool* nothing_to_do) {
    *nothing_to_do = count == 0;
    if (count == 0) return ACL_SUCCESS;
    if (devPtr == nullptr) {
        SetErrorMessage(aclnn_cpu::kRuntimeArgumentError, "%s: devPtr is null", caller);
        return ACL_ERROR_INVALID_PARAM;
    }
    if (count > maxCount) {
        SetErrorMessage(aclnn_cpu::kRuntimeArgumentError,
                        "%s: count %zu is larger than maxCount %zu", caller, count, maxCount);
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    // Memset works on host memory too; but a range that starts in a device block must stay inside it.
    if (aclnn_cpu::StrictMemoryChecks() && DeviceAllocations().Owns(devPtr) &&
        !DeviceAllocations().Contains(devPtr, count)) {
        SetErrorMessage(aclnn_cpu::kRuntimeArgumentError,
                        "%s: [%p, +%zu bytes) runs past the end of its aclrtMalloc block", caller, devPtr, count);
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    return ACL_SUCCESS;
}

// aclrtMalloc and aclrtMallocHost: a 64-byte aligned block, known to registry.
aclError AllocateRegistered(const char* caller, const char* argument, aclnn_cpu::rt::AllocationRegistry& registry,
                            void** pointer, size_t size, bool prefer_huge_pages) {
    if (pointer == nullptr) {
        SetErrorMessage(aclnn_cpu::kRuntimeArgumentError, "%s: %s is null", caller, argument);
        return ACL_ERROR_INVALID_PARAM;
    }
    if (size == 0) {
        SetErrorMessage(aclnn_cpu::kRuntimeArgumentError, "%s: size is 0", caller);
        return ACL_ERROR_INVALID_PARAM;
    }
    void* block = AllocateAligned(size, prefer_huge_pages);
    if (block == nullptr) {
        SetErrorMessage(aclnn_cpu::kRuntimeInnerError, "%s: cannot allocate %zu bytes", caller, size);
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    try {
        registry.Add(block, size);
    } catch (const std::bad_alloc&) {
        std::free(block);
        SetErrorMessage(aclnn_cpu::kRuntimeInnerError,
                        "%s: out of memory while registering a block of %zu bytes", caller, size);
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    *pointer = block;
    return ACL_SUCCESS;
}

// aclrtFree and aclrtFreeHost. Queued work may still use the block: every stream finishes first, so a free
// never pulls memory from under a running operator.
aclError FreeRegistered(const char* caller, const char* argument, const char* allocator,
                        aclnn_cpu::rt::AllocationRegistry& registry, void* pointer) {
    if (pointer == nullptr) {
        SetErrorMessage(aclnn_cpu::kRuntimeArgumentError, "%s: %s is null", caller, argument);
        return ACL_ERROR_INVALID_PARAM;
    }
    aclnn_cpu::rt::SynchronizeAllStreams(false);
    if (!registry.Remove(pointer)) {
        SetErrorMessage(aclnn_cpu::kRuntimeArgumentError,
                        "%s: %p is not the start of a live %s block (double free, or not from %s)", caller, pointer,
                        allocator, allocator);
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    std::free(pointer);
    return ACL_SUCCESS;
}

}  // namespace

extern "C" {

aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
    return AllocateRegistered("aclrtMalloc", "devPtr", DeviceAllocations(), devPtr, size, PrefersHugePages(policy));
}

aclError aclrtFree(void* devPtr) {
    return FreeRegistered("aclrtFree", "devPtr", "aclrtMalloc", DeviceAllocations(), devPtr);
}

aclError aclrtMallocHost(void** hostPtr, size_t size) {
    return AllocateRegistered("aclrtMallocHost", "hostPtr", HostAllocations(), hostPtr, size, false);
}

aclError aclrtFreeHost(void* hostPtr) {
    return FreeRegistered("aclrtFreeHost", "hostPtr", "aclrtMallocHost", HostAllocations(), hostPtr);
}

aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind) {
    bool nothing_to_do = false;
    aclError status = CheckCopy("aclrtMemcpy", dst, destMax, src, count, kind, &nothing_to_do);
    if (status == ACL_SUCCESS && !nothing_to_do) std::memmove(dst, src, count);
    return status;
}

aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind,
                          aclrtStream stream) {
    bool nothing_to_do = false;
    aclError status = CheckCopy("aclrtMemcpyAsync", dst, destMax, src, count, kind, &nothing_to_do);
    if (status != ACL_SUCCESS) return status;
    try {
        if (nothing_to_do) {
            // Still validate the stream handle, so a bad stream is reported even for an empty copy.
            return aclnn_cpu::rt::EnqueueOnStream(stream, [] { return ACL_SUCCESS; }, "aclrtMemcpyAsync");
        }
        return aclnn_cpu::rt::EnqueueOnStream(
            stream,
            [dst, src, count] {
                std::memmove(dst, src, count);
                return ACL_SUCCESS;
            },
            "aclrtMemcpyAsync");
    } catch (const std::bad_alloc&) {  // building the task
        SetErrorMessage(aclnn_cpu::kRuntimeInnerError, "aclrtMemcpyAsync: out of memory");
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
}

aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
    bool nothing_to_do = false;
    aclError status = CheckSet("aclrtMemset", devPtr, maxCount, count, &nothing_to_do);
    if (status == ACL_SUCCESS && !nothing_to_do) std::memset(devPtr, value, count);
    return status;
}

aclError aclrtMemsetAsync(void* devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream) {
    bool nothing_to_do = false;
    aclError status = CheckSet("aclrtMemsetAsync", devPtr, maxCount, count, &nothing_to_do);
    if (status != ACL_SUCCESS) return status;
    try {
        return aclnn_cpu::rt::EnqueueOnStream(
            stream,
            [devPtr, value, count, nothing_to_do] {
                if (!nothing_to_do) std::memset(devPtr, value, count);
                return ACL_SUCCESS;
            },
            "aclrtMemsetAsync");
    } catch (const std::bad_alloc&) {  // building the task
        SetErrorMessage(aclnn_cpu::kRuntimeInnerError, "aclrtMemsetAsync: out of memory");
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
}

}  // extern "C"
