#include "runtime/stream.h"

#include <exception>

#include "acl/acl_rt.h"
#include "common/error_message.h"

namespace aclnn_cpu::rt {

Stream::Stream() : worker_([this] { WorkerLoop(); }) {}

Stream::~Stream() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    work_ready_.notify_one();
    worker_.join();
}

void Stream::Enqueue(Task task) {
    {
        std::lock_guard lock(mutex_);
        queue_.push_back(std::move(task));
    }
    work_ready_.notify_one();
}

bool Stream::TryRunInline(Task& task) {
    {
        std::lock_guard lock(mutex_);
        if (!queue_.empty() || running_task_) return false;
        running_task_ = true;
    }
    Finish(Execute(task));
    return true;
}

aclError Stream::Execute(Task& task) {
    aclError status = ACL_SUCCESS;
    try {
        status = task();
    } catch (const std::exception& e) {
        SetErrorMessage(aclnn_cpu::kRuntimeInnerError, "stream task failed: %s", e.what());
        status = ACL_ERROR_RT_INTERNAL_ERROR;
    }
    task = nullptr;  // release what the task captured before reporting idle
    return status;
}

void Stream::Finish(aclError status) {
    const char* message = status != ACL_SUCCESS ? aclGetRecentErrMsg() : nullptr;
    std::lock_guard lock(mutex_);
    running_task_ = false;
    idle_.notify_all();  // a synchronising thread may take the next task, or return
    if (status != ACL_SUCCESS && first_failure_ == ACL_SUCCESS) {
        first_failure_ = status;
        first_failure_message_ = message != nullptr ? message : "a task on the stream failed";
    }
    // Work enqueued while the task ran is waiting for the worker.
    if (!queue_.empty()) work_ready_.notify_one();
}

aclError Stream::Synchronize() {
    // The synchronising thread runs queued tasks itself, in order, whenever the worker is not running one:
    // the result is the same, and launch-then-synchronise pays no thread wake-up.
    std::unique_lock lock(mutex_);
    for (;;) {
        idle_.wait(lock, [this] { return !running_task_; });
        if (queue_.empty()) break;
        Task task = std::move(queue_.front());
        queue_.pop_front();
        running_task_ = true;
        lock.unlock();
        Finish(Execute(task));
        lock.lock();
    }
    aclError failure = first_failure_;
    first_failure_ = ACL_SUCCESS;
    if (failure != ACL_SUCCESS) RestoreErrorMessage(first_failure_message_.c_str());
    return failure;
}

aclError Stream::SynchronizeWithTimeout(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    if (!idle_.wait_for(lock, timeout, [this] { return queue_.empty() && !running_task_; }))
        return ACL_ERROR_RT_STREAM_SYNC_TIMEOUT;
    aclError failure = first_failure_;
    first_failure_ = ACL_SUCCESS;
    if (failure != ACL_SUCCESS) RestoreErrorMessage(first_failure_message_.c_str());
    return failure;
}

void Stream::WaitIdle() {
    std::unique_lock lock(mutex_);
    idle_.wait(lock, [this] { return queue_.empty() && !running_task_; });
}

void Stream::WorkerLoop() {
    for (;;) {
        Task task;
        {
            std::unique_lock lock(mutex_);
            // running_task_ also covers a task run inline by a caller: the queue waits behind it.
            work_ready_.wait(lock, [this] { return !running_task_ && (stopping_ || !queue_.empty()); });
            if (queue_.empty()) return;  // stopping, and everything enqueued has run
            task = std::move(queue_.front());
            queue_.pop_front();
            running_task_ = true;
        }
        Finish(Execute(task));
    }
}

}  // namespace aclnn_cpu::rt
