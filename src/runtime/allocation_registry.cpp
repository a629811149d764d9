#include "runtime/allocation_registry.h"

#include <mutex>

namespace aclnn_cpu::rt {

RangePlacement PlaceInBlock(const AllocatedBlock& block, uintptr_t begin, size_t bytes) {
    if (begin < block.base) return RangePlacement::kUnknown;
    const size_t offset = begin - block.base;
    if (bytes == 0 ? offset > block.usable : offset >= block.usable) return RangePlacement::kUnknown;
    if (bytes > block.usable - offset) return RangePlacement::kOverrun;
    return offset + bytes > block.requested ? RangePlacement::kInPadding : RangePlacement::kInside;
}

void AllocationRegistry::Add(const void* base, size_t requested, size_t usable, const char* allocator) {
    std::unique_lock lock(mutex_);
    const uintptr_t address = reinterpret_cast<uintptr_t>(base);
    blocks_[address] = AllocatedBlock{address, requested, usable, allocator};
}

bool AllocationRegistry::Remove(const void* base) {
    std::unique_lock lock(mutex_);
    return blocks_.erase(reinterpret_cast<uintptr_t>(base)) == 1;
}

RangeClassification AllocationRegistry::Classify(const void* address, size_t bytes) const {
    const uintptr_t begin = reinterpret_cast<uintptr_t>(address);
    RangeClassification result;
    std::shared_lock lock(mutex_);
    auto it = blocks_.upper_bound(begin);  // first block starting after begin
    if (it == blocks_.begin()) return result;
    --it;                                  // the block starting at or before begin
    const RangePlacement placement = PlaceInBlock(it->second, begin, bytes);
    if (placement != RangePlacement::kUnknown) result = RangeClassification{placement, it->second};
    return result;
}

bool AllocationRegistry::Owns(const void* address) const {
    const uintptr_t begin = reinterpret_cast<uintptr_t>(address);
    std::shared_lock lock(mutex_);
    auto it = blocks_.upper_bound(begin);
    if (it == blocks_.begin()) return false;
    --it;
    return begin - it->first < it->second.usable;
}

// Created on first use and never destroyed, like the stream, tensor and executor registries: a static
// destructor elsewhere (a user's global that frees device memory at exit) may still call aclrtFree.
AllocationRegistry& DeviceAllocations() {
    static AllocationRegistry* const registry = new AllocationRegistry;
    return *registry;
}

AllocationRegistry& HostAllocations() {
    static AllocationRegistry* const registry = new AllocationRegistry;
    return *registry;
}

namespace {

// Made when the library loads, so that aclrtMalloc never meets the registry's own allocation failing (it
// returns a status for every allocation failure of its own).
[[maybe_unused]] const bool kRegistriesMade = (DeviceAllocations(), HostAllocations(), true);

}  // namespace

}  // namespace aclnn_cpu::rt
