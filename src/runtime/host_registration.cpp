#include "runtime/host_registration.h"

#include <mutex>

namespace aclnn_cpu::rt {

void HostRegistrations::Add(const void* base, size_t size) {
    std::unique_lock lock(mutex_);
    ranges_.emplace(reinterpret_cast<uintptr_t>(base), size);
}

bool HostRegistrations::Remove(const void* base) {
    std::unique_lock lock(mutex_);
    auto it = ranges_.find(reinterpret_cast<uintptr_t>(base));
    if (it == ranges_.end()) return false;
    ranges_.erase(it);
    return true;
}

bool HostRegistrations::Contains(const void* address, size_t bytes) const {
    const uintptr_t begin = reinterpret_cast<uintptr_t>(address);
    if (begin + bytes < begin) return false;  // the range wraps around the address space
    std::shared_lock lock(mutex_);
    // Overlapping ranges: any one that starts at or before begin may cover it. A program holds a few.
    for (auto it = ranges_.begin(); it != ranges_.end() && it->first <= begin; ++it)
        if (begin - it->first <= it->second && bytes <= it->second - (begin - it->first)) return true;
    return false;
}

// Never destroyed, like the allocation registries: a static destructor elsewhere may still unregister.
HostRegistrations& RegisteredHostMemory() {
    static HostRegistrations* const registrations = new HostRegistrations;
    return *registrations;
}

}  // namespace aclnn_cpu::rt
