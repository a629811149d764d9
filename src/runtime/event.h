// An event: a point in a stream's queue that other streams and the host can wait for. Each aclrtRecordEvent
// starts a new generation; the stream completes it when it reaches the record. Waits capture the generation
// current when they are made, so a later re-record never delays (or releases) an earlier wait -- even when the
// event is re-recorded on another stream and the later record completes first (the stress program found that
// a "highest generation completed" counter released such a wait early).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <set>

namespace aclnn_cpu::rt {

class Event {
public:
    using Clock = std::chrono::steady_clock;

    explicit Event(bool timing) : timing_(timing) {}

    // aclrtRecordEvent: the generation the stream will complete.
    uint64_t BeginRecord();
    // The stream reached the record of generation (with the time it did, for elapsed-time queries).
    void Complete(uint64_t generation);
    // The stream reached an aclrtResetEvent: the event no longer holds a recorded time.
    void Reset();
    // The latest generation recorded (0: never recorded).
    uint64_t Latest() const;
    bool IsComplete(uint64_t generation) const;
    // Blocks until generation has completed.
    void WaitFor(uint64_t generation) const;
    // The time of the latest record when it has completed and was not reset since; false otherwise.
    bool RecordedTime(Clock::time_point* at) const;
    bool timing() const { return timing_; }

private:
    mutable std::mutex mutex_;
    mutable std::condition_variable completed_signal_;
    uint64_t recorded_ = 0;            // generations handed out
    std::set<uint64_t> outstanding_;  // generations recorded and not yet completed
    bool has_time_ = false;   // time_ belongs to generation recorded_, which completed and was not reset
    Clock::time_point time_;
    const bool timing_;
};

}  // namespace aclnn_cpu::rt
