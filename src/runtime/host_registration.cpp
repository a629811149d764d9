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

RangeClassification HostRegistrations::Classify(const void* address, size_t bytes) const {
    const uintptr_t begin = reinterpret_cast<uintptr_t>(address);
    RangeClassification result;
    std::shared_lock lock(mutex_);
    // Overlapping ranges: any one that starts at or before begin may cover it. A program holds a few.
    for (auto it = ranges_.begin(); it != ranges_.end() && it->first <= begin; ++it) {
        const AllocatedBlock block{it->first, it->second, it->second, "aclrtHostRegister"};  // no padding
        const RangePlacement placement = PlaceInBlock(block, begin, bytes);
        if (placement == RangePlacement::kInside) return RangeClassification{placement, block};
        if (placement == RangePlacement::kOverrun) result = RangeClassification{placement, block};
    }
    return result;
}

// Never destroyed, like the allocation registries: a static destructor elsewhere may still unregister.
HostRegistrations& RegisteredHostMemory() {
    static HostRegistrations* const registrations = new HostRegistrations;
    return *registrations;
}

namespace {

// Made when the library loads: every copy consults the registrations, and must not be the first to need
// memory for them.
[[maybe_unused]] const bool kRegistrationsMade = (RegisteredHostMemory(), true);

}  // namespace

}  // namespace aclnn_cpu::rt
