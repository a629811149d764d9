#include "runtime/stream_registry.h"

#include <mutex>
#include <unordered_map>
#include <vector>

#include "common/error_message.h"
#include "runtime/runtime_internal.h"

namespace aclnn_cpu::rt {
namespace {

// A context is its default stream (everything else about it -- the device -- is fixed here).
struct Context {
    std::shared_ptr<Stream> default_stream;
};

struct Registry {
    std::mutex mutex;
    std::unordered_map<aclrtStream, std::shared_ptr<Stream>> streams;
    std::shared_ptr<Stream> default_stream;
    std::unordered_map<aclrtContext, std::unique_ptr<Context>> contexts;
};

// The device's default context has no object: its handle is this address, and its default stream is the
// registry's default stream.
char g_default_context_tag;

// The calling thread's current context; nullptr means the device's default context.
thread_local aclrtContext t_current_context = nullptr;

// Created when the library loads and never destroyed: streams may still be used from static destructors of
// user programs.
Registry* const g_registry = new Registry;

Registry& TheRegistry() { return *g_registry; }

std::vector<std::shared_ptr<Stream>> AllStreams() {
    Registry& registry = TheRegistry();
    std::lock_guard lock(registry.mutex);
    std::vector<std::shared_ptr<Stream>> all;
    for (auto& entry : registry.streams) all.push_back(entry.second);
    for (auto& entry : registry.contexts) all.push_back(entry.second->default_stream);
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
        const aclrtContext current = t_current_context;
        if (current != nullptr) {
            auto context = registry.contexts.find(current);
            return context == registry.contexts.end() ? nullptr : context->second->default_stream;
        }
        if (!registry.default_stream) registry.default_stream = std::make_shared<Stream>();
        return registry.default_stream;
    }
    auto it = registry.streams.find(handle);
    return it == registry.streams.end() ? nullptr : it->second;
}

aclrtContext CreateContext() {
    auto context = std::make_unique<Context>();
    context->default_stream = std::make_shared<Stream>();
    const aclrtContext handle = context.get();
    {
        Registry& registry = TheRegistry();
        std::lock_guard lock(registry.mutex);
        registry.contexts.emplace(handle, std::move(context));
    }
    t_current_context = handle;
    return handle;
}

std::shared_ptr<Stream> TakeContext(aclrtContext handle) {
    std::shared_ptr<Stream> stream;
    {
        Registry& registry = TheRegistry();
        std::lock_guard lock(registry.mutex);
        auto it = registry.contexts.find(handle);
        if (it == registry.contexts.end()) return nullptr;
        stream = std::move(it->second->default_stream);
        registry.contexts.erase(it);
    }
    if (t_current_context == handle) t_current_context = nullptr;
    return stream;
}

aclrtContext DefaultContext() { return &g_default_context_tag; }

bool IsLiveContext(aclrtContext handle) {
    if (handle == DefaultContext()) return true;
    Registry& registry = TheRegistry();
    std::lock_guard lock(registry.mutex);
    return registry.contexts.count(handle) != 0;
}

void SetCurrentContext(aclrtContext handle) { t_current_context = handle == DefaultContext() ? nullptr : handle; }

aclrtContext CurrentContext() { return t_current_context == nullptr ? DefaultContext() : t_current_context; }

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
        for (auto& entry : registry.contexts) entry.second->default_stream->WaitIdle();
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
            SetErrorMessage(aclnn_cpu::kRuntimeArgumentError,
                            "%s: stream %p is not a live stream (never created, or already destroyed)", caller,
                            handle);
            return ACL_ERROR_INVALID_PARAM;
        }
        if (small_task && stream->TryRunInline(task)) return ACL_SUCCESS;
        stream->Enqueue(std::move(task));
    } catch (const std::exception& e) {
        // Out of memory for the queue, or no thread for the default stream's worker.
        SetErrorMessage(aclnn_cpu::kRuntimeInnerError,
                        "%s: cannot enqueue work on stream %p: %s", caller, handle, e.what());
        return ACL_ERROR_RT_MEMORY_ALLOCATION;
    }
    return ACL_SUCCESS;
}

}  // namespace aclnn_cpu::rt
