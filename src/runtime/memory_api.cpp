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

namespace {

using aclnn_cpu::SetErrorMessage;
using aclnn_cpu::rt::DeviceAllocations;
using aclnn_cpu::rt::HostAllocations;

constexpr size_t kAlignment = 64;
constexpr size_t kHugePage = size_t{2} << 20;

// CANN's allocators round a request up to a multiple of 32 bytes; aclrtMalloc then adds 32 bytes of padding
// (except for 1 GiB huge pages, where CANN saves the space), aclrtMallocAlign32 does not. A program may
// address those bytes on the NPU, so they are allocated and admitted here too (with a warning).
constexpr size_t kSizeGranule = 32;
constexpr size_t kMallocPadding = 32;

enum class Padding { kRoundOnly, kRoundAndPad };

// The bytes a block of size bytes may address; 0 when that does not fit in size_t.
size_t UsableSize(size_t size, Padding padding) {
    const size_t extra = kSizeGranule - 1 + (padding == Padding::kRoundAndPad ? kMallocPadding : 0);
    if (size > SIZE_MAX - extra) return 0;
    return (size + kSizeGranule - 1) / kSizeGranule * kSizeGranule +
           (padding == Padding::kRoundAndPad ? kMallocPadding : 0);
}

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

bool IsGigantic(aclrtMemMallocPolicy policy) {
    const int base = static_cast<int>(policy) & 0xff;
    return base == ACL_MEM_MALLOC_HUGE1G_ONLY || base == ACL_MEM_MALLOC_HUGE1G_ONLY_P2P;
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
    // Each side that is device memory by kind must be admitted (strict off admits unknown host memory); a
    // host side is checked too, for the one thing that is always wrong: starting in a known block and
    // running past its padding.
    const bool strict = aclnn_cpu::StrictMemoryChecks();
    const bool dst_on_device = kind == ACL_MEMCPY_HOST_TO_DEVICE || kind == ACL_MEMCPY_DEVICE_TO_DEVICE ||
                               kind == ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE;
    const bool src_on_device = kind == ACL_MEMCPY_DEVICE_TO_HOST || kind == ACL_MEMCPY_DEVICE_TO_DEVICE;
    aclnn_cpu::rt::RangeProblem problem;
    if (!aclnn_cpu::rt::AdmitDeviceRange(caller, "dst", dst, count, strict && dst_on_device, &problem)) {
        SetErrorMessage(aclnn_cpu::kRuntimeArgumentError, "%s: dst %s (kind %s)", caller, problem.text,
                        KindName(kind));
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    if (!aclnn_cpu::rt::AdmitDeviceRange(caller, "src", src, count, strict && src_on_device, &problem)) {
        SetErrorMessage(aclnn_cpu::kRuntimeArgumentError, "%s: src %s (kind %s)", caller, problem.text,
                        KindName(kind));
        return ACL_ERROR_RT_PARAM_INVALID;
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
    // Memset works on host memory too, strict or not; but a range that starts in a known block must stay
    // inside it (and its padding).
    aclnn_cpu::rt::RangeProblem problem;
    if (!aclnn_cpu::rt::AdmitDeviceRange(caller, "devPtr", devPtr, count, false, &problem)) {
        SetErrorMessage(aclnn_cpu::kRuntimeArgumentError, "%s: devPtr %s", caller, problem.text);
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    return ACL_SUCCESS;
}

// aclrtMalloc, aclrtMallocAlign32 and aclrtMallocHost: a 64-byte aligned block of usable bytes (size and
// its padding), known to registry. The padding is zeroed, so reading it gives the same bytes every run.
aclError AllocateRegistered(const char* caller, const char* argument, aclnn_cpu::rt::AllocationRegistry& registry,
                            void** pointer, size_t size, size_t usable, bool prefer_huge_pages) {
    if (pointer == nullptr) {
        SetErrorMessage(aclnn_cpu::kRuntimeArgumentError, "%s: %s is null", caller, argument);
        return ACL_ERROR_INVALID_PARAM;
    }
    if (size == 0) {
        SetErrorMessage(aclnn_cpu::kRuntimeArgumentError, "%s: size is 0", caller);
        return ACL_ERROR_INVALID_PARAM;
    }
    void* block = usable == 0 ? nullptr : AllocateAligned(usable, prefer_huge_pages);
    if (block == nullptr) {
        SetErrorMessage(aclnn_cpu::kRuntimeInnerError, "%s: cannot allocate %zu bytes", caller, size);
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    std::memset(static_cast<char*>(block) + size, 0, usable - size);
    try {
        registry.Add(block, size, usable, caller);
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
    const Padding padding = IsGigantic(policy) ? Padding::kRoundOnly : Padding::kRoundAndPad;
    return AllocateRegistered("aclrtMalloc", "devPtr", DeviceAllocations(), devPtr, size, UsableSize(size, padding),
                              PrefersHugePages(policy));
}

aclError aclrtMallocAlign32(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
    return AllocateRegistered("aclrtMallocAlign32", "devPtr", DeviceAllocations(), devPtr, size,
                              UsableSize(size, Padding::kRoundOnly), PrefersHugePages(policy));
}

aclError aclrtFree(void* devPtr) {
    return FreeRegistered("aclrtFree", "devPtr", "aclrtMalloc", DeviceAllocations(), devPtr);
}

aclError aclrtMallocHost(void** hostPtr, size_t size) {
    // CANN documents no padding for host memory: the block is the bytes asked for.
    return AllocateRegistered("aclrtMallocHost", "hostPtr", HostAllocations(), hostPtr, size, size, false);
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
