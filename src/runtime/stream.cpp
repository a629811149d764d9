#include "runtime/stream.h"

#include <chrono>
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
        SetErrorMessage("stream task failed: %s", e.what());
        status = ACL_ERROR_RT_INTERNAL_ERROR;
    }
    task = nullptr;  // release what the task captured before reporting idle
    return status;
}

void Stream::Finish(aclError status) {
    const char* message = status != ACL_SUCCESS ? aclGetRecentErrMsg() : nullptr;
    std::lock_guard lock(mutex_);
    running_task_ = false;
    if (status != ACL_SUCCESS && first_failure_ == ACL_SUCCESS) {
        first_failure_ = status;
        first_failure_message_ = message != nullptr ? message : "a task on the stream failed";
    }
    if (queue_.empty()) idle_.notify_all();
    // Work enqueued while the task ran inline is waiting for the worker.
    if (!queue_.empty()) work_ready_.notify_one();
}

bool Stream::SpinUntil(const std::function<bool()>& ready) {
    // Waking a sleeping thread costs tens of microseconds; work on a stream usually arrives, or finishes,
    // sooner than that after the previous event, so both sides poll briefly before they sleep.
    const auto deadline = std::chrono::steady_clock::now() + kSpinBeforeSleeping;
    do {
        {
            std::lock_guard lock(mutex_);
            if (ready()) return true;
        }
        std::this_thread::yield();
    } while (std::chrono::steady_clock::now() < deadline);
    return false;
}

aclError Stream::Synchronize() {
    SpinUntil([this] { return queue_.empty() && !running_task_; });
    std::unique_lock lock(mutex_);
    idle_.wait(lock, [this] { return queue_.empty() && !running_task_; });
    aclError failure = first_failure_;
    first_failure_ = ACL_SUCCESS;
    if (failure != ACL_SUCCESS) SetErrorMessage("%s", first_failure_message_.c_str());
    return failure;
}

void Stream::WaitIdle() {
    std::unique_lock lock(mutex_);
    idle_.wait(lock, [this] { return queue_.empty() && !running_task_; });
}

void Stream::WorkerLoop() {
    for (;;) {
        Task task;
        SpinUntil([this] { return !running_task_ && (stopping_ || !queue_.empty()); });
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
