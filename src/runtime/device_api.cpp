// aclInit/aclFinalize and the device functions. The host is the only device, id 0.
#include <sys/stat.h>

#include <mutex>

#include "acl/acl.h"
#include "common/error_message.h"
#include "runtime/stream_registry.h"

namespace {

std::mutex g_state_mutex;
bool g_initialized = false;
bool g_finalized = false;

bool IsHostDevice(int32_t device_id, const char* caller) {
    if (device_id == 0) return true;
    aclnn_cpu::SetErrorMessage(aclnn_cpu::kRuntimeArgumentError,
                    "%s: deviceId %d is invalid; aclnn-cpu has one device, the host, with id 0", caller,
                               device_id);
    return false;
}

}  // namespace

extern "C" {

aclError aclInit(const char* configPath) {
    std::lock_guard lock(g_state_mutex);
    if (g_initialized) {
        aclnn_cpu::SetErrorMessage(aclnn_cpu::kRuntimeArgumentError,
                        "aclInit: AscendCL is already initialized; call aclFinalize first");
        return ACL_ERROR_REPEAT_INITIALIZE;
    }
    if (configPath != nullptr && configPath[0] != '\0') {
        struct stat info;
        if (stat(configPath, &info) != 0 || !S_ISREG(info.st_mode)) {
            aclnn_cpu::SetErrorMessage(aclnn_cpu::kRuntimeArgumentError,
                            "aclInit: configPath \"%s\" is not a readable file", configPath);
            return ACL_ERROR_INVALID_FILE;
        }
    }
    g_initialized = true;
    g_finalized = false;
    return ACL_SUCCESS;
}

aclError aclFinalize(void) {
    {
        std::lock_guard lock(g_state_mutex);
        if (!g_initialized) {
            aclnn_cpu::SetErrorMessage(aclnn_cpu::kRuntimeArgumentError,
                            g_finalized ? "aclFinalize: AscendCL is already finalized"
                                                   : "aclFinalize: AscendCL was never initialized");
            return ACL_ERROR_REPEAT_FINALIZE;
        }
        g_initialized = false;
        g_finalized = true;
    }
    // Work still queued runs to completion before aclFinalize returns: nothing is dropped, nothing hangs.
    aclnn_cpu::rt::SynchronizeAllStreams(false);
    aclnn_cpu::rt::ShutDownDefaultStream();
    return ACL_SUCCESS;
}

aclError aclrtGetVersion(int32_t* majorVersion, int32_t* minorVersion, int32_t* patchVersion) {
    if (majorVersion == nullptr || minorVersion == nullptr || patchVersion == nullptr) {
        aclnn_cpu::SetErrorMessage(aclnn_cpu::kRuntimeArgumentError, "aclrtGetVersion: an output pointer is null");
        return ACL_ERROR_INVALID_PARAM;
    }
    *majorVersion = ACL_MAJOR_VERSION;
    *minorVersion = ACL_MINOR_VERSION;
    *patchVersion = ACL_PATCH_VERSION;
    return ACL_SUCCESS;
}

aclError aclrtSetDevice(int32_t deviceId) {
    // The host is always ready: there is nothing to open, so nothing to count.
    if (!IsHostDevice(deviceId, "aclrtSetDevice")) return ACL_ERROR_RT_INVALID_DEVICEID;
    return ACL_SUCCESS;
}

aclError aclrtResetDevice(int32_t deviceId) {
    if (!IsHostDevice(deviceId, "aclrtResetDevice")) return ACL_ERROR_RT_INVALID_DEVICEID;
    // As in CANN, resetting the device lets the work queued on it finish first.
    aclnn_cpu::rt::SynchronizeAllStreams(false);
    return ACL_SUCCESS;
}

aclError aclrtGetDevice(int32_t* deviceId) {
    if (deviceId == nullptr) {
        aclnn_cpu::SetErrorMessage(aclnn_cpu::kRuntimeArgumentError, "aclrtGetDevice: deviceId is null");
        return ACL_ERROR_INVALID_PARAM;
    }
    *deviceId = 0;
    return ACL_SUCCESS;
}

aclError aclrtGetDeviceCount(uint32_t* count) {
    if (count == nullptr) {
        aclnn_cpu::SetErrorMessage(aclnn_cpu::kRuntimeArgumentError, "aclrtGetDeviceCount: count is null");
        return ACL_ERROR_INVALID_PARAM;
    }
    *count = 1;
    return ACL_SUCCESS;
}

aclError aclrtGetRunMode(aclrtRunMode* runMode) {
    if (runMode == nullptr) {
        aclnn_cpu::SetErrorMessage(aclnn_cpu::kRuntimeArgumentError, "aclrtGetRunMode: runMode is null");
        return ACL_ERROR_INVALID_PARAM;
    }
    *runMode = ACL_HOST;
    return ACL_SUCCESS;
}

aclError aclrtSynchronizeDevice(void) { return aclnn_cpu::rt::SynchronizeAllStreams(true); }

}  // extern "C"
