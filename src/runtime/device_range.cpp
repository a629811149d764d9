// The strict memory rule shared by copies, memsets, operator operands and workspaces (runtime_internal.h).
#include <cinttypes>
#include <cstdio>

#include "common/log.h"
#include "runtime/allocation_registry.h"
#include "runtime/host_registration.h"
#include "runtime/runtime_internal.h"

namespace aclnn_cpu::rt {
namespace {

struct BlockText {
    char text[160];
};

BlockText DescribeBlock(const AllocatedBlock& block) {
    BlockText result;
    if (block.usable == block.requested) {
        std::snprintf(result.text, sizeof result.text, "the %s block at %p of %zu bytes", block.allocator,
                      reinterpret_cast<void*>(block.base), block.requested);
    } else {
        std::snprintf(result.text, sizeof result.text, "the %s block at %p of %zu bytes (%zu usable with CANN's "
                      "padding)", block.allocator, reinterpret_cast<void*>(block.base), block.requested,
                      block.usable);
    }
    return result;
}

// Where [address, address + bytes) lies in the memory the device may address: aclrtMalloc and
// aclrtMallocAlign32 blocks (with CANN's padding), then aclrtHostRegister ranges.
RangeClassification ClassifyDeviceRange(const void* address, size_t bytes) {
    const RangeClassification device = DeviceAllocations().Classify(address, bytes);
    if (device.placement != RangePlacement::kUnknown) return device;
    return RegisteredHostMemory().Classify(address, bytes);
}

}  // namespace

bool AdmitDeviceRange(const char* caller, const char* what, const void* address, size_t bytes, bool strict,
                      RangeProblem* problem) {
    const uintptr_t begin = reinterpret_cast<uintptr_t>(address);
    char range[64];
    std::snprintf(range, sizeof range, "[%p, +%zu bytes)", address, bytes);
    if (begin + bytes < begin) {
        std::snprintf(problem->text, sizeof problem->text, "%s wraps around the end of the address space", range);
        return false;
    }
    const RangeClassification found = ClassifyDeviceRange(address, bytes);
    const AllocatedBlock& block = found.block;
    switch (found.placement) {
        case RangePlacement::kInside: return true;
        case RangePlacement::kInPadding:
            Log(LogLevel::kWarning,
                "%s: %s %s ends %zu bytes past the %zu bytes requested from %s; CANN's allocation padding makes "
                "them addressable, but the program uses more memory than it allocated", caller, what, range,
                static_cast<size_t>(begin + bytes - block.base - block.requested), block.requested,
                DescribeBlock(block).text);
            return true;
        case RangePlacement::kOverrun:
            std::snprintf(problem->text, sizeof problem->text, "%s runs %zu bytes past the end of %s", range,
                          static_cast<size_t>(begin + bytes - block.base - block.usable), DescribeBlock(block).text);
            return false;
        case RangePlacement::kUnknown: break;
    }
    if (!strict) return true;
    std::snprintf(problem->text, sizeof problem->text, "%s is not inside one live aclrtMalloc block", range);
    problem->in_unknown_memory = true;
    return false;
}

}  // namespace aclnn_cpu::rt
