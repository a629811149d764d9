// aclrtCreateStream / aclrtDestroyStream / aclrtSynchronizeStream.
#include <new>

#include "acl/acl.h"
#include "common/error_message.h"
#include "runtime/stream_registry.h"

extern "C" {

aclError aclrtCreateStream(aclrtStream* stream) {
    if (stream == nullptr) {
        aclnn_cpu::SetErrorMessage("aclrtCreateStream: stream is null");
        return ACL_ERROR_INVALID_PARAM;
    }
    try {
        *stream = aclnn_cpu::rt::CreateStream().get();
    } catch (const std::exception& e) {
        aclnn_cpu::SetErrorMessage("aclrtCreateStream: cannot start a stream worker: %s", e.what());
        return ACL_ERROR_RT_NO_STREAM_RESOURCE;
    }
    return ACL_SUCCESS;
}

aclError aclrtDestroyStream(aclrtStream stream) {
    if (stream == nullptr) {
        aclnn_cpu::SetErrorMessage("aclrtDestroyStream: stream is null (the default stream cannot be destroyed)");
        return ACL_ERROR_INVALID_PARAM;
    }
    std::shared_ptr<aclnn_cpu::rt::Stream> taken = aclnn_cpu::rt::TakeStream(stream);
    if (!taken) {
        aclnn_cpu::SetErrorMessage("aclrtDestroyStream: stream %p is not a live stream", stream);
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    // Work still queued on the stream runs to completion before the stream goes away.
    taken->WaitIdle();
    return ACL_SUCCESS;
}

aclError aclrtSynchronizeStream(aclrtStream stream) {
    std::shared_ptr<aclnn_cpu::rt::Stream> found;
    try {
        // A NULL stream is the default stream, created on first use: that may fail (no thread, no memory).
        found = aclnn_cpu::rt::FindStream(stream);
    } catch (const std::exception& e) {
        aclnn_cpu::SetErrorMessage("aclrtSynchronizeStream: cannot start the default stream's worker: %s", e.what());
        return ACL_ERROR_RT_NO_STREAM_RESOURCE;
    }
    if (!found) {
        aclnn_cpu::SetErrorMessage("aclrtSynchronizeStream: stream %p is not a live stream", stream);
        return ACL_ERROR_RT_PARAM_INVALID;
    }
    return found->Synchronize();
}

}  // extern "C"
