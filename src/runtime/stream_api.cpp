// aclrtCreateStream / aclrtDestroyStream / aclrtSynchronizeStream(WithTimeout), and the contexts, whose default
// streams are what NULL means.
#include <chrono>
#include <new>

#include "acl/acl.h"
#include "common/error_message.h"
#include "runtime/stream_registry.h"

namespace {

// The stream to synchronise, or nullptr with the status to return in *status.
std::shared_ptr<aclnn_cpu::rt::Stream> StreamToSynchronize(aclrtStream stream, const char* caller, aclError* status) {
    std::shared_ptr<aclnn_cpu::rt::Stream> found;
    try {
        // A NULL stream is the default stream, created on first use: that may fail (no thread, no memory).
        found = aclnn_cpu::rt::FindStream(stream);
    } catch (const std::exception& e) {
        aclnn_cpu::SetErrorMessage(aclnn_cpu::kRuntimeInnerError,
                        "%s: cannot start the default stream's worker: %s", caller, e.what());
        *status = ACL_ERROR_RT_NO_STREAM_RESOURCE;
        return nullptr;
    }
    if (!found) {
        if (stream == nullptr) {
            aclnn_cpu::SetErrorMessage(aclnn_cpu::kRuntimeArgumentError,
                            "%s: the calling thread's current context was destroyed; set another with "
                                       "aclrtSetCurrentContext", caller);
            *status = ACL_ERROR_RT_CONTEXT_NULL;
        } else {
            aclnn_cpu::SetErrorMessage(aclnn_cpu::kRuntimeArgumentError,
                            "%s: stream %p is not a live stream", caller, stream);
            *status = ACL_ERROR_RT_PARAM_INVALID;
        }
    }
    return found;
}

}  // namespace

extern "C" {

aclError aclrtCreateStream(aclrtStream* stream) {
    if (stream == nullptr) {
        aclnn_cpu::SetErrorMessage(aclnn_cpu::kRuntimeArgumentError, "aclrtCreateStream: stream is null");
        return ACL_ERROR_INVALID_PARAM;
    }
    try {
        *stream = aclnn_cpu::rt::CreateStream().get();
    } catch (const std::exception& e) {
        aclnn_cpu::SetErrorMessage(aclnn_cpu::kRuntimeInnerError,
                        "aclrtCreateStream: cannot start a stream worker: %s", e.what());
        return ACL_ERROR_RT_NO_STREAM_RESOURCE;
    }
    return ACL_SUCCESS;
}

aclError aclrtDestroyStream(aclrtStream stream) {
    if (stream == nullptr) {
        aclnn_cpu::SetErrorMessage(aclnn_cpu::kRuntimeArgumentError,
                        "aclrtDestroyStream: stream is null (the default stream cannot be destroyed)");
        return ACL_ERROR_INVALID_PARAM;
    }
    std::shared_ptr<aclnn_cpu::rt::Stream> taken = aclnn_cpu::rt::TakeStream(stream);
    if (!taken) {
        aclnn_cpu::SetErrorMessage(aclnn_cpu::kRuntimeArgumentError,
                        "aclrtDestroyStream: stream %p is not a live stream", stream);
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    // Work still queued on the stream runs to completion before the stream goes away.
    taken->WaitIdle();
    return ACL_SUCCESS;
}


aclError aclrtSynchronizeStream(aclrtStream stream) {
    aclError status = ACL_SUCCESS;
    auto found = StreamToSynchronize(stream, "aclrtSynchronizeStream", &status);
    return found ? found->Synchronize() : status;
}

aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout) {
    if (timeout < -1) {
        aclnn_cpu::SetErrorMessage(aclnn_cpu::kRuntimeArgumentError,
                        "aclrtSynchronizeStreamWithTimeout: timeout is %d ms; expected -1 (wait forever) "
                                   "or a non-negative number of milliseconds", timeout);
        return ACL_ERROR_INVALID_PARAM;
    }
    aclError status = ACL_SUCCESS;
    auto found = StreamToSynchronize(stream, "aclrtSynchronizeStreamWithTimeout", &status);
    if (!found) return status;
    if (timeout == -1) return found->Synchronize();
    status = found->SynchronizeWithTimeout(std::chrono::milliseconds(timeout));
    if (status == ACL_ERROR_RT_STREAM_SYNC_TIMEOUT) {
        aclnn_cpu::SetErrorMessage(aclnn_cpu::kRuntimeArgumentError,
                        "aclrtSynchronizeStreamWithTimeout: the work on stream %p did not finish within "
                                   "%d ms; it goes on running", stream, timeout);
    }
    return status;
}

aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId) {
    if (context == nullptr) {
        aclnn_cpu::SetErrorMessage(aclnn_cpu::kRuntimeArgumentError, "aclrtCreateContext: context is null");
        return ACL_ERROR_INVALID_PARAM;
    }
    if (deviceId != 0) {
        aclnn_cpu::SetErrorMessage(aclnn_cpu::kRuntimeArgumentError,
                        "aclrtCreateContext: deviceId %d is invalid; aclnn-cpu has one device, the host, "
                                   "with id 0", deviceId);
        return ACL_ERROR_RT_INVALID_DEVICEID;
    }
    try {
        *context = aclnn_cpu::rt::CreateContext();
    } catch (const std::exception& e) {
        aclnn_cpu::SetErrorMessage(aclnn_cpu::kRuntimeInnerError,
                        "aclrtCreateContext: cannot start the context's default stream: %s", e.what());
        return ACL_ERROR_RT_NO_STREAM_RESOURCE;
    }
    return ACL_SUCCESS;
}

aclError aclrtDestroyContext(aclrtContext context) {
    if (context == nullptr) {
        aclnn_cpu::SetErrorMessage(aclnn_cpu::kRuntimeArgumentError, "aclrtDestroyContext: context is null");
        return ACL_ERROR_INVALID_PARAM;
    }
    if (context == aclnn_cpu::rt::DefaultContext()) {
        aclnn_cpu::SetErrorMessage(aclnn_cpu::kRuntimeArgumentError,
                        "aclrtDestroyContext: %p is the device's default context, which only "
                                   "aclrtResetDevice releases", context);
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    std::shared_ptr<aclnn_cpu::rt::Stream> stream = aclnn_cpu::rt::TakeContext(context);
    if (!stream) {
        aclnn_cpu::SetErrorMessage(aclnn_cpu::kRuntimeArgumentError,
                        "aclrtDestroyContext: context %p is not a live context (never created, or "
                                   "already destroyed)", context);
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    stream->WaitIdle();  // work queued on the context's default stream finishes first
    return ACL_SUCCESS;
}

aclError aclrtSetCurrentContext(aclrtContext context) {
    if (context == nullptr || !aclnn_cpu::rt::IsLiveContext(context)) {
        aclnn_cpu::SetErrorMessage(aclnn_cpu::kRuntimeArgumentError,
                        "aclrtSetCurrentContext: context %p is not a live context", context);
        return context == nullptr ? ACL_ERROR_INVALID_PARAM : ACL_ERROR_RT_PARAM_INVALID;
    }
    aclnn_cpu::rt::SetCurrentContext(context);
    return ACL_SUCCESS;
}

aclError aclrtGetCurrentContext(aclrtContext* context) {
    if (context == nullptr) {
        aclnn_cpu::SetErrorMessage(aclnn_cpu::kRuntimeArgumentError, "aclrtGetCurrentContext: context is null");
        return ACL_ERROR_INVALID_PARAM;
    }
    *context = aclnn_cpu::rt::CurrentContext();
    return ACL_SUCCESS;
}

}  // extern "C"
