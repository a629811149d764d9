// Host memory that a program mapped for the device with aclrtHostRegister. On this CPU the device pointer is
// the host pointer; the registration is what lets the strict memory checks accept it, like an aclrtMalloc
// block, without copying (the Python binding passes numpy and torch buffers this way).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <shared_mutex>

#include "runtime/allocation_registry.h"

namespace aclnn_cpu::rt {

class HostRegistrations {
public:
    // Registrations may overlap (two calls on views of one buffer, from two threads): each is counted.
    void Add(const void* base, size_t size);
    // Removes one registration that starts at base; false when there is none.
    bool Remove(const void* base);
    // kInside when one registration holds all of [address, address + bytes); kOverrun when one holds its
    // start but none all of it; kUnknown otherwise. A registration has no padding.
    RangeClassification Classify(const void* address, size_t bytes) const;

private:
    mutable std::shared_mutex mutex_;
    std::multimap<uintptr_t, size_t> ranges_;  // base address -> size in bytes
};

HostRegistrations& RegisteredHostMemory();

}  // namespace aclnn_cpu::rt
