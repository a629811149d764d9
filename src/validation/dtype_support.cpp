#include "validation/dtype_support.h"

#include <cstring>

#include "acl/acl_rt.h"

namespace aclnn_cpu::validation {
namespace {

bool StartsWith(const char* text, const char* prefix) { return std::strncmp(text, prefix, std::strlen(prefix)) == 0; }

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

// The SoC names of CANN's platform configuration (hicann/runtime src/platform/platform_config/*.ini) by their
// NpuArch. "Ascend910B" alone is an old Ascend 910 bin, not an Atlas A2 chip (those are Ascend910B1, B2, ...).
NpuArch NpuArchOfSoc(const char* soc_name) {
    if (soc_name == nullptr) return NpuArch::kUnknown;
    if (StartsWith(soc_name, "Ascend910B") && IsDigit(soc_name[10])) return NpuArch::kDav2201;
    if (StartsWith(soc_name, "Ascend910_93")) return NpuArch::kDav2201;
    if (StartsWith(soc_name, "Ascend950PR_") || StartsWith(soc_name, "Ascend950DT_") ||
        StartsWith(soc_name, "Ascend350_"))
        return NpuArch::kDav3510;
    if (std::strcmp(soc_name, "Ascend910") == 0 || std::strcmp(soc_name, "Ascend910A") == 0 ||
        std::strcmp(soc_name, "Ascend910B") == 0 || StartsWith(soc_name, "Ascend910Pro") ||
        StartsWith(soc_name, "Ascend910Premium"))
        return NpuArch::kDav1001;
    if (StartsWith(soc_name, "Ascend310P")) return NpuArch::kDav2002;
    if (StartsWith(soc_name, "Ascend310B")) return NpuArch::kDav3002;
    return NpuArch::kUnknown;
}

const DtypeList& SupportedDtypes(const DtypeSupport& support) {
    const NpuArch arch = NpuArchOfSoc(aclrtGetSocName());
    return arch == NpuArch::kDav2201 || arch == NpuArch::kDav3510 ? support.newer_chips : support.other_chips;
}

std::string CannDtypeName(int32_t type) {
    switch (type) {
        case ACL_FLOAT: return "DT_FLOAT";
        case ACL_FLOAT16: return "DT_FLOAT16";
        case ACL_BF16: return "DT_BFLOAT16";
        case ACL_DOUBLE: return "DT_DOUBLE";
        case ACL_INT8: return "DT_INT8";
        case ACL_INT16: return "DT_INT16";
        case ACL_INT32: return "DT_INT32";
        case ACL_INT64: return "DT_INT64";
        case ACL_UINT8: return "DT_UINT8";
        case ACL_UINT16: return "DT_UINT16";
        case ACL_UINT32: return "DT_UINT32";
        case ACL_UINT64: return "DT_UINT64";
        case ACL_BOOL: return "DT_BOOL";
        case ACL_COMPLEX64: return "DT_COMPLEX64";
        case ACL_COMPLEX128: return "DT_COMPLEX128";
        default: return "UNDEFINED (aclDataType " + std::to_string(type) + ")";
    }
}

std::string CannDtypeListString(const DtypeList& list) {
    std::string text = "[";
    for (int i = 0; i < list.count; ++i) text += CannDtypeName(list.types[i]) + ",";
    return text + "]";
}

}  // namespace aclnn_cpu::validation
