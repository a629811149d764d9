#include "runtime/event.h"

namespace aclnn_cpu::rt {

uint64_t Event::BeginRecord() {
    std::lock_guard lock(mutex_);
    has_time_ = false;
    outstanding_.insert(++recorded_);
    return recorded_;
}

void Event::Complete(uint64_t generation) {
    const Clock::time_point now = Clock::now();
    {
        std::lock_guard lock(mutex_);
        outstanding_.erase(generation);
        // Records on two streams may complete out of order: only the latest record's time counts.
        if (generation == recorded_) {
            time_ = now;
            has_time_ = true;
        }
    }
    completed_signal_.notify_all();
}

void Event::Reset() {
    std::lock_guard lock(mutex_);
    has_time_ = false;
}

uint64_t Event::Latest() const {
    std::lock_guard lock(mutex_);
    return recorded_;
}

bool Event::IsComplete(uint64_t generation) const {
    std::lock_guard lock(mutex_);
    return outstanding_.count(generation) == 0;
}

void Event::WaitFor(uint64_t generation) const {
    std::unique_lock lock(mutex_);
    completed_signal_.wait(lock, [&] { return outstanding_.count(generation) == 0; });
}

bool Event::RecordedTime(Clock::time_point* at) const {
    std::lock_guard lock(mutex_);
    if (!has_time_) return false;
    *at = time_;
    return true;
}

}  // namespace aclnn_cpu::rt
