// A stream is an in-order queue of tasks executed by one worker thread: work enqueued on a stream runs after
// everything enqueued before it, concurrently with other streams and with the caller, as on the NPU.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "acl/acl_base.h"

namespace aclnn_cpu::rt {

using Task = std::function<aclError()>;

class Stream {
public:
    Stream();
    ~Stream();  // drains the queue, then stops the worker
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;

    void Enqueue(Task task);
    // Runs task on the calling thread, now, if the stream is idle (nothing queued, nothing running), and
    // returns true; otherwise returns false and leaves task alone. Work enqueued meanwhile by other threads
    // waits behind it, so the stream's order holds. Used for small operators, whose hand-off to the worker
    // thread would cost more than the work itself.
    bool TryRunInline(Task& task);
    // Waits until every task enqueued so far has finished, running queued tasks itself while the worker is
    // not busy; returns the first failure since the last synchronisation (and forgets it), or ACL_SUCCESS.
    aclError Synchronize();
    // Synchronize with a limit: waits at most `timeout` for the worker to finish everything enqueued so far
    // (without running tasks itself, which could overrun the limit); ACL_ERROR_RT_STREAM_SYNC_TIMEOUT when the
    // work is still running then -- it goes on, and a later synchronisation sees it finish.
    aclError SynchronizeWithTimeout(std::chrono::milliseconds timeout);
    // Waits like Synchronize but keeps any failure for the next Synchronize.
    void WaitIdle();

private:
    void WorkerLoop();
    aclError Execute(Task& task);
    void Finish(aclError status);  // records a failure, clears running_task_, wakes waiters

    std::mutex mutex_;
    std::condition_variable work_ready_;  // also signalled when an inline task finishes with work queued
    std::condition_variable idle_;
    std::deque<Task> queue_;
    bool running_task_ = false;
    bool stopping_ = false;
    aclError first_failure_ = ACL_SUCCESS;
    std::string first_failure_message_;  // moved to the synchronising thread's recent error
    std::thread worker_;
};

}  // namespace aclnn_cpu::rt
