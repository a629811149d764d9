// The event functions of AscendCL. Events are tracked by handle (a destroyed or made-up one is a status, not a
// crash) and shared with the stream tasks that record or wait for them, so destroying an event with a record
// or a wait still queued is safe: the queued work completes as recorded.
#include <exception>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "acl/acl.h"
#include "common/error_message.h"
#include "runtime/event.h"
#include "runtime/runtime_internal.h"

namespace {

using aclnn_cpu::SetErrorMessage;
using aclnn_cpu::rt::Event;

struct EventRegistry {
    std::mutex mutex;
    std::unordered_map<aclrtEvent, std::shared_ptr<Event>> events;
};

// Created when the library loads and never destroyed, like the other registries.
EventRegistry* const g_events = new EventRegistry;

std::shared_ptr<Event> FindEvent(aclrtEvent handle, const char* caller, const char* argument) {
    std::shared_ptr<Event> found;
    {
        std::lock_guard lock(g_events->mutex);
        auto it = g_events->events.find(handle);
        if (it != g_events->events.end()) found = it->second;
    }
    if (!found) {
        SetErrorMessage(aclnn_cpu::kRuntimeArgumentError,
                        "%s: %s %p is not a live event (never created, or already destroyed)", caller, argument,
                        handle);
    }
    return found;
}

aclError CreateEvent(aclrtEvent* event, bool timing, const char* caller) {
    if (event == nullptr) {
        SetErrorMessage(aclnn_cpu::kRuntimeArgumentError, "%s: event is null", caller);
        return ACL_ERROR_INVALID_PARAM;
    }
    try {
        auto created = std::make_shared<Event>(timing);
        const aclrtEvent handle = created.get();
        std::lock_guard lock(g_events->mutex);
        g_events->events.emplace(handle, std::move(created));
        *event = handle;
    } catch (const std::exception& e) {
        SetErrorMessage(aclnn_cpu::kRuntimeInnerError, "%s: cannot create an event: %s", caller, e.what());
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    return ACL_SUCCESS;
}

constexpr uint32_t kKnownEventFlags = ACL_EVENT_SYNC | ACL_EVENT_CAPTURE_STREAM_PROGRESS | ACL_EVENT_TIME_LINE |
                                      ACL_EVENT_DEVICE_USE_ONLY | ACL_EVENT_EXTERNAL | ACL_EVENT_IPC;

}  // namespace

extern "C" {

aclError aclrtCreateEvent(aclrtEvent* event) { return CreateEvent(event, true, "aclrtCreateEvent"); }

aclError aclrtCreateEventWithFlag(aclrtEvent* event, uint32_t flag) {
    if ((flag & ~kKnownEventFlags) != 0) {
        SetErrorMessage(aclnn_cpu::kRuntimeArgumentError,
                        "aclrtCreateEventWithFlag: flag 0x%x has bits that are no ACL_EVENT_* flag", flag);
        return ACL_ERROR_INVALID_PARAM;
    }
    return CreateEvent(event, (flag & ACL_EVENT_TIME_LINE) != 0, "aclrtCreateEventWithFlag");
}

aclError aclrtDestroyEvent(aclrtEvent event) {
    std::lock_guard lock(g_events->mutex);
    if (g_events->events.erase(event) == 0) {
        SetErrorMessage(aclnn_cpu::kRuntimeArgumentError,
                        "aclrtDestroyEvent: event %p is not a live event (never created, or already destroyed)",
                        event);
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    return ACL_SUCCESS;
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
    std::shared_ptr<Event> found = FindEvent(event, "aclrtRecordEvent", "event");
    if (!found) return ACL_ERROR_RT_PARAM_INVALID;
    const uint64_t generation = found->BeginRecord();
    // A record that finds its stream idle completes at once, on this thread (the stream's order holds).
    const aclError status = aclnn_cpu::rt::EnqueueOnStream(
        stream, [found, generation]() -> aclError {
            found->Complete(generation);
            return ACL_SUCCESS;
        },
        "aclrtRecordEvent", true);
    if (status != ACL_SUCCESS) found->Complete(generation);  // nothing may wait forever for a record never queued
    return status;
}

aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream) {
    std::shared_ptr<Event> found = FindEvent(event, "aclrtResetEvent", "event");
    if (!found) return ACL_ERROR_RT_PARAM_INVALID;
    return aclnn_cpu::rt::EnqueueOnStream(
        stream, [found]() -> aclError {
            found->Reset();
            return ACL_SUCCESS;
        },
        "aclrtResetEvent", true);
}

aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) {
    std::shared_ptr<Event> found = FindEvent(event, "aclrtStreamWaitEvent", "event");
    if (!found) return ACL_ERROR_RT_PARAM_INVALID;
    const uint64_t generation = found->Latest();
    // The stream's worker blocks, the host does not. Never run inline: the record may not have completed.
    return aclnn_cpu::rt::EnqueueOnStream(
        stream, [found, generation]() -> aclError {
            found->WaitFor(generation);
            return ACL_SUCCESS;
        },
        "aclrtStreamWaitEvent");
}

aclError aclrtSynchronizeEvent(aclrtEvent event) {
    std::shared_ptr<Event> found = FindEvent(event, "aclrtSynchronizeEvent", "event");
    if (!found) return ACL_ERROR_RT_PARAM_INVALID;
    found->WaitFor(found->Latest());
    return ACL_SUCCESS;
}

aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus* status) {
    if (status == nullptr) {
        SetErrorMessage(aclnn_cpu::kRuntimeArgumentError, "aclrtQueryEventStatus: status is null");
        return ACL_ERROR_INVALID_PARAM;
    }
    std::shared_ptr<Event> found = FindEvent(event, "aclrtQueryEventStatus", "event");
    if (!found) return ACL_ERROR_RT_PARAM_INVALID;
    *status = found->IsComplete(found->Latest()) ? ACL_EVENT_RECORDED_STATUS_COMPLETE
                                                 : ACL_EVENT_RECORDED_STATUS_NOT_READY;
    return ACL_SUCCESS;
}

aclError aclrtEventElapsedTime(float* ms, aclrtEvent startEvent, aclrtEvent endEvent) {
    if (ms == nullptr) {
        SetErrorMessage(aclnn_cpu::kRuntimeArgumentError, "aclrtEventElapsedTime: ms is null");
        return ACL_ERROR_INVALID_PARAM;
    }
    std::shared_ptr<Event> start = FindEvent(startEvent, "aclrtEventElapsedTime", "startEvent");
    if (!start) return ACL_ERROR_RT_PARAM_INVALID;
    std::shared_ptr<Event> end = FindEvent(endEvent, "aclrtEventElapsedTime", "endEvent");
    if (!end) return ACL_ERROR_RT_PARAM_INVALID;
    const std::pair<const Event*, const char*> events[] = {{start.get(), "startEvent"}, {end.get(), "endEvent"}};
    Event::Clock::time_point times[2];
    for (int i = 0; i < 2; ++i) {
        if (!events[i].first->timing()) {
            SetErrorMessage(aclnn_cpu::kRuntimeArgumentError,
                            "aclrtEventElapsedTime: %s was created without ACL_EVENT_TIME_LINE, so it keeps no time",
                            events[i].second);
            return ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID;
        }
        if (!events[i].first->RecordedTime(&times[i])) {
            SetErrorMessage(aclnn_cpu::kRuntimeArgumentError,
                            "aclrtEventElapsedTime: %s has no completed record (never recorded, still pending, or "
                            "reset); synchronise its stream first", events[i].second);
            return ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID;
        }
    }
    const double elapsed = std::chrono::duration<double, std::milli>(times[1] - times[0]).count();
    if (elapsed < 0) {
        SetErrorMessage(aclnn_cpu::kRuntimeArgumentError,
                        "aclrtEventElapsedTime: endEvent completed %.3f ms before startEvent", -elapsed);
        return ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL;
    }
    *ms = static_cast<float>(elapsed);
    return ACL_SUCCESS;
}

}  // extern "C"
