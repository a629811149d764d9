// Every live block handed out by aclrtMalloc (or aclrtMallocHost), so that copies and operators can check,
// before touching memory, that the bytes they address lie inside one live block: on a laptop this catches the
// out-of-bounds and use-after-free bugs that would fault on the NPU.
//
// A block has two sizes. `requested` is what the program asked for; `usable` adds the padding CANN's
// allocator puts behind it (aclrtMalloc rounds up to 32 bytes and adds 32), which a program may touch on the
// NPU without a fault. The registry classifies a range against both, so callers can accept the padding,
// warn about it, and still refuse one byte more.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <shared_mutex>

namespace aclnn_cpu::rt {

struct AllocatedBlock {
    uintptr_t base = 0;
    size_t requested = 0;
    size_t usable = 0;  // >= requested: the bytes that may be addressed
    const char* allocator = "";  // the call that made the block, for messages: "aclrtMalloc", ...
};

// Where a byte range lies relative to the known blocks.
enum class RangePlacement {
    kInside,     // inside one block's requested bytes
    kInPadding,  // inside one block, but past its requested bytes: valid, worth a warning
    kOverrun,    // starts inside a block and ends past its usable bytes: never valid
    kUnknown,    // starts in no known block (host memory the library does not know)
};

struct RangeClassification {
    RangePlacement placement = RangePlacement::kUnknown;
    AllocatedBlock block;  // the block the range starts in (placement != kUnknown)
};

// Where [begin, begin + bytes) lies relative to block alone: kUnknown when it does not start in the block's
// usable bytes (a zero-byte range may sit one past their end).
RangePlacement PlaceInBlock(const AllocatedBlock& block, uintptr_t begin, size_t bytes);

class AllocationRegistry {
public:
    void Add(const void* base, size_t requested, size_t usable, const char* allocator);
    // Returns false when base is not the start of a live block.
    bool Remove(const void* base);
    // Classifies [address, address + bytes). bytes == 0 asks about address alone, which may also be one
    // past the end of a block's usable bytes.
    RangeClassification Classify(const void* address, size_t bytes) const;
    // True when address lies inside a live block's usable bytes (one past the end does not count).
    bool Owns(const void* address) const;

private:
    mutable std::shared_mutex mutex_;
    std::map<uintptr_t, AllocatedBlock> blocks_;  // by base address
};

AllocationRegistry& DeviceAllocations();
AllocationRegistry& HostAllocations();

}  // namespace aclnn_cpu::rt
