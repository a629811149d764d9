#include "runtime/allocation_registry.h"

#include <mutex>

namespace aclnn_cpu::rt {

void AllocationRegistry::Add(const void* base, size_t size) {
    std::unique_lock lock(mutex_);
    blocks_[reinterpret_cast<uintptr_t>(base)] = size;
}

bool AllocationRegistry::Remove(const void* base) {
    std::unique_lock lock(mutex_);
    return blocks_.erase(reinterpret_cast<uintptr_t>(base)) == 1;
}

bool AllocationRegistry::Contains(const void* address, size_t bytes) const {
    const uintptr_t begin = reinterpret_cast<uintptr_t>(address);
    if (begin + bytes < begin) return false;  // the range wraps around the address space
    std::shared_lock lock(mutex_);
    auto it = blocks_.upper_bound(begin);  // first block starting after begin
    if (it == blocks_.begin()) return false;
    --it;                                  // the block starting at or before begin
    return begin - it->first <= it->second && bytes <= it->second - (begin - it->first);
}

bool AllocationRegistry::Owns(const void* address) const {
    const uintptr_t begin = reinterpret_cast<uintptr_t>(address);
    std::shared_lock lock(mutex_);
    auto it = blocks_.upper_bound(begin);
    if (it == blocks_.begin()) return false;
    --it;
    return begin - it->first < it->second;
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

}  // namespace aclnn_cpu::rt
