// What a program asks about the system: the SoC name, device capabilities, memory, where a pointer lives, and
// versions. Device 0 is the host, so the answers are the host's.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <set>
#include <string>

#include "acl/acl.h"
#include "aclnn_cpu/aclnn_cpu.h"
#include "common/config.h"
#include "common/error_message.h"
#include "runtime/allocation_registry.h"

#ifndef ACLNN_CPU_VERSION
#error "ACLNN_CPU_VERSION (the project's version) is set by CMake"
#endif

namespace {

using aclnn_cpu::SetErrorMessage;

// The operators follow the arch35 kernels of ops-nn, which run on the Ascend 950 (docs/compatibility.md), and
// this is the name CANN's runtime reports for the first of its 950PR parts.
constexpr const char* kDefaultSocName = "Ascend950PR_9599";

// ACLNN_CPU_SOC_NAME, read on every call like the other settings. The returned pointer must outlive later
// changes of the environment, so each distinct name is kept (a program sets a handful at most).
const char* ConfiguredSocName() {
    const char* value = std::getenv("ACLNN_CPU_SOC_NAME");
    if (value == nullptr || value[0] == '\0') return kDefaultSocName;
    static std::mutex mutex;
    static std::set<std::string>* const names = new std::set<std::string>;  // never destroyed, as registries
    std::lock_guard<std::mutex> lock(mutex);
    try {
        return names->emplace(value).first->c_str();
    } catch (const std::bad_alloc&) {
        return kDefaultSocName;  // out of memory: a name that needs none
    }
}

// MemTotal and MemAvailable from /proc/meminfo, in bytes; false when the file cannot be read.
bool ReadHostMemory(size_t* total, size_t* available) {
    FILE* file = std::fopen("/proc/meminfo", "r");
    if (file == nullptr) return false;
    char line[256];
    unsigned long long total_kib = 0, available_kib = 0;
    bool have_total = false, have_available = false;
    while (std::fgets(line, sizeof line, file) != nullptr) {
        have_total = have_total || std::sscanf(line, "MemTotal: %llu kB", &total_kib) == 1;
        have_available = have_available || std::sscanf(line, "MemAvailable: %llu kB", &available_kib) == 1;
    }
    std::fclose(file);
    if (!have_total || !have_available) return false;
    *total = static_cast<size_t>(total_kib) * 1024;
    *available = static_cast<size_t>(available_kib) * 1024;
    return true;
}

int64_t LastLevelCacheBytes() {
    for (int name : {_SC_LEVEL3_CACHE_SIZE, _SC_LEVEL2_CACHE_SIZE}) {
        const long bytes = sysconf(name);
        if (bytes > 0) return bytes;
    }
    return 0;
}

}  // namespace

extern "C" {

// A real SoC's name, so that programs which check it run instead of skipping; aclnnCpuGetVersion is how a
// program tells aclnn-cpu apart (docs/compatibility.md).
const char* aclrtGetSocName(void) { return ConfiguredSocName(); }

const char* aclnnCpuGetVersion(void) { return ACLNN_CPU_VERSION; }

aclError aclnnCpuSetThreadCount(int32_t count) {
    if (count < 0 || count > aclnn_cpu::kMaxThreadCount) {
        SetErrorMessage(aclnn_cpu::kRuntimeArgumentError,
                        "aclnnCpuSetThreadCount: count is %d; it must be 0 (the default) to %d", count,
                        aclnn_cpu::kMaxThreadCount);
        return ACL_ERROR_INVALID_PARAM;
    }
    aclnn_cpu::SetThreadCountOverride(count);
    return ACL_SUCCESS;
}

aclError aclGetDeviceCapability(uint32_t deviceId, aclDeviceInfo deviceInfo, int64_t* value) {
    if (value == nullptr) {
        SetErrorMessage(aclnn_cpu::kRuntimeArgumentError, "aclGetDeviceCapability: value is null");
        return ACL_ERROR_INVALID_PARAM;
    }
    if (deviceId != 0) {
        SetErrorMessage(aclnn_cpu::kRuntimeArgumentError,
                        "aclGetDeviceCapability: deviceId %u is invalid; aclnn-cpu has one device, the host, with "
                        "id 0", deviceId);
        return ACL_ERROR_RT_INVALID_DEVICEID;
    }
    int32_t info;
    std::memcpy(&info, &deviceInfo, sizeof info);  // any number the caller passed, read without undefined behaviour
    switch (info) {
        case ACL_DEVICE_INFO_AI_CORE_NUM: {
            const long cores = sysconf(_SC_NPROCESSORS_ONLN);
            *value = cores > 0 ? cores : 1;
            return ACL_SUCCESS;
        }
        case ACL_DEVICE_INFO_VECTOR_CORE_NUM: *value = 0; return ACL_SUCCESS;
        case ACL_DEVICE_INFO_L2_SIZE: *value = LastLevelCacheBytes(); return ACL_SUCCESS;
        default:
            SetErrorMessage(aclnn_cpu::kRuntimeArgumentError,
                            "aclGetDeviceCapability: deviceInfo %d is not an aclDeviceInfo this runtime reports "
                            "(AI_CORE_NUM, VECTOR_CORE_NUM, L2_SIZE)", info);
            return ACL_ERROR_INVALID_PARAM;
    }
}

aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t* free, size_t* total) {
    int32_t code;
    std::memcpy(&code, &attr, sizeof code);
    if (code < ACL_DDR_MEM || code > ACL_MEM_P2P_HUGE1G) {
        SetErrorMessage(aclnn_cpu::kRuntimeArgumentError, "aclrtGetMemInfo: attr %d is not an aclrtMemAttr", code);
        return ACL_ERROR_INVALID_PARAM;
    }
    if (free == nullptr || total == nullptr) {
        SetErrorMessage(aclnn_cpu::kRuntimeArgumentError,
                        "aclrtGetMemInfo: %s is null", free == nullptr ? "free" : "total");
        return ACL_ERROR_INVALID_PARAM;
    }
    if (!ReadHostMemory(total, free)) {
        SetErrorMessage(aclnn_cpu::kRuntimeInnerError,
                        "aclrtGetMemInfo: cannot read the host's memory figures from /proc/meminfo");
        return ACL_ERROR_RT_INTERNAL_ERROR;
    }
    return ACL_SUCCESS;
}

aclError aclrtPointerGetAttributes(const void* ptr, aclrtPtrAttributes* attributes) {
    if (attributes == nullptr) {
        SetErrorMessage(aclnn_cpu::kRuntimeArgumentError, "aclrtPointerGetAttributes: attributes is null");
        return ACL_ERROR_INVALID_PARAM;
    }
    aclrtPtrAttributes result;
    std::memset(&result, 0, sizeof result);
    result.location.id = 0;
    result.pageSize = static_cast<uint32_t>(sysconf(_SC_PAGESIZE));
    if (ptr != nullptr && aclnn_cpu::rt::DeviceAllocations().Owns(ptr)) {
        result.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    } else if (ptr != nullptr && aclnn_cpu::rt::HostAllocations().Owns(ptr)) {
        result.location.type = ACL_MEM_LOCATION_TYPE_HOST;
    } else {
        result.location.type = ACL_MEM_LOCATION_TYPE_UNREGISTERED;
        result.pageSize = 0;
    }
    *attributes = result;
    return ACL_SUCCESS;
}

aclError aclsysGetVersionStr(char* pkgName, char* versionStr) {
    if (pkgName == nullptr || versionStr == nullptr) {
        SetErrorMessage(aclnn_cpu::kRuntimeArgumentError,
                        "aclsysGetVersionStr: %s is null", pkgName == nullptr ? "pkgName" : "versionStr");
        return ACL_ERROR_INVALID_PARAM;
    }
    std::snprintf(versionStr, ACL_PKG_VERSION_MAX_SIZE, "%s", ACLNN_CPU_VERSION);
    return ACL_SUCCESS;
}

}  // extern "C"
