// The set of live handles of one kind (tensors, executors): the C API checks a handle here before using it,
// so a destroyed or made-up handle gives a status instead of a use-after-free (as far as its address has
// not been reused by a new object of the same kind).
#pragma once

#include <mutex>
#include <unordered_set>

namespace aclnn_cpu {

template <typename T>
class LiveSet {
public:
    // May throw std::bad_alloc.
    void Insert(const T* handle) {
        std::lock_guard lock(mutex_);
        handles_.insert(handle);
    }
    // False when handle was not live.
    bool Erase(const T* handle) {
        std::lock_guard lock(mutex_);
        return handles_.erase(handle) == 1;
    }
    bool Contains(const T* handle) const {
        std::lock_guard lock(mutex_);
        return handles_.count(handle) == 1;
    }

private:
    mutable std::mutex mutex_;
    std::unordered_set<const T*> handles_;
};

}  // namespace aclnn_cpu
