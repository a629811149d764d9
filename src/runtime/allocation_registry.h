// Every live block handed out by aclrtMalloc (or aclrtMallocHost), so that copies and operators can check,
// before touching memory, that the bytes they address lie inside one live block: on a laptop this catches the
// out-of-bounds and use-after-free bugs that would fault on the NPU.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <shared_mutex>

namespace aclnn_cpu::rt {

class AllocationRegistry {
public:
    void Add(const void* base, size_t size);
    // Returns false when base is not the start of a live block.
    bool Remove(const void* base);
    // True when [address, address + bytes) lies inside one live block. bytes == 0 asks whether address is
    // inside (or one past the end of) a block.
    bool Contains(const void* address, size_t bytes) const;
    // True when address lies inside a live block (a one-past-the-end address does not count).
    bool Owns(const void* address) const;

private:
    mutable std::shared_mutex mutex_;
    std::map<uintptr_t, size_t> blocks_;  // base address -> size in bytes
};

AllocationRegistry& DeviceAllocations();
AllocationRegistry& HostAllocations();

}  // namespace aclnn_cpu::rt
