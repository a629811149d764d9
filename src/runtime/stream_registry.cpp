#include "runtime/stream_registry.h"

#include <mutex>
#include <unordered_map>
#include <vector>

#include "common/error_message.h"
#include "runtime/runtime_internal.h"

namespace aclnn_cpu::rt {
namespace {

struct Registry {
    std::mutex mutex;
    std::unordered_map<aclrtStream, std::shared_ptr<Stream>> streams;
    std::shared_ptr<Stream> default_stream;
};

// Created when the library loads and never destroyed: streams may still be used from static destructors of
// user programs.
Registry* const g_registry = new Registry;

Registry& TheRegistry() { return *g_registry; }

std::vector<std::shared_ptr<Stream>> AllStreams() {
    Registry& registry = TheRegistry();
    std::lock_guard lock(registry.mutex);
    std::vector<std::shared_ptr<Stream>> all;
    for (auto& entry : registry.streams) all.push_back(entry.second);
    if (registry.default_stream) all.push_back(registry.default_stream);
    return all;
}

}  // namespace

std::shared_ptr<Stream> CreateStream() {
    auto stream = std::make_shared<Stream>();
    Registry& registry = TheRegistry();
    std::lock_guard lock(registry.mutex);
    registry.streams.emplace(stream.get(), stream);
    return stream;
}

std::shared_ptr<Stream> FindStream(aclrtStream handle) {
    Registry& registry = TheRegistry();
    std::lock_guard lock(registry.mutex);
    if (handle == nullptr) {
        if (!registry.default_stream) registry.default_stream = std::make_shared<Stream>();
        return registry.default_stream;
    }
    auto it = registry.streams.find(handle);
    return it == registry.streams.end() ? nullptr : it->second;
}

std::shared_ptr<Stream> TakeStream(aclrtStream handle) {
    Registry& registry = TheRegistry();
    std::lock_guard lock(registry.mutex);
    auto it = registry.streams.find(handle);
    if (it == registry.streams.end()) return nullptr;
    std::shared_ptr<Stream> stream = std::move(it->second);
    registry.streams.erase(it);
    return stream;
}

aclError SynchronizeAllStreams(bool consume_failures) {
    std::vector<std::shared_ptr<Stream>> streams;
    try {
        streams = AllStreams();
    } catch (const std::bad_alloc&) {
        // No memory for the list: wait for each stream while holding the registry (nothing queued on a
        // stream needs the registry to finish).
        Registry& registry = TheRegistry();
        std::lock_guard lock(registry.mutex);
        for (auto& entry : registry.streams) entry.second->WaitIdle();
        if (registry.default_stream) registry.default_stream->WaitIdle();
        return ACL_SUCCESS;
    }
    aclError first = ACL_SUCCESS;
    for (auto& stream : streams) {
        if (!consume_failures) {
            stream->WaitIdle();
            continue;
        }
        aclError status = stream->Synchronize();
        if (first == ACL_SUCCESS) first = status;
    }
    return first;
}

void ShutDownDefaultStream() {
    std::shared_ptr<Stream> stream;
    {
        Registry& registry = TheRegistry();
        std::lock_guard lock(registry.mutex);
        stream = std::move(registry.default_stream);
    }
    // The destructor drains the queue and joins the worker, outside the registry lock.
}

aclError EnqueueOnStream(aclrtStream handle, Task task, const char* caller, bool small_task) {
    try {
        std::shared_ptr<Stream> stream = FindStream(handle);
        if (!stream) {
            SetErrorMessage("%s: stream %p is not a live stream (never created, or already destroyed)", caller,
                            handle);
            return ACL_ERROR_INVALID_PARAM;
        }
        if (small_task && stream->TryRunInline(task)) return ACL_SUCCESS;
        stream->Enqueue(std::move(task));
    } catch (const std::exception& e) {
        // Out of memory for the queue, or no thread for the default stream's worker.
        SetErrorMessage("%s: cannot enqueue work on stream %p: %s", caller, handle, e.what());
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    return ACL_SUCCESS;
}

}  // namespace aclnn_cpu::rt
