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

NpuArch CurrentNpuArch() { return NpuArchOfSoc(aclrtGetSocName()); }

bool OnNewerChip() {
    const NpuArch arch = CurrentNpuArch();
    return arch == NpuArch::kDav2201 || arch == NpuArch::kDav3510;
}

bool OnRegisterBasedChip() { return CurrentNpuArch() == NpuArch::kDav3510; }

const DtypeList& SupportedDtypes(const DtypeSupport& support) {
    return OnNewerChip() ? support.newer_chips : support.other_chips;
}

int64_t DtypeSize(int32_t type) {
    switch (type) {
        case ACL_FLOAT: case ACL_INT32: return 4;
        case ACL_FLOAT16: case ACL_BF16: case ACL_INT16: return 2;
        case ACL_INT64: case ACL_DOUBLE: return 8;
        case ACL_BOOL: case ACL_UINT8: case ACL_INT8: return 1;
        default: return 0;
    }
}

namespace {

// The integer dtypes in PyTorch's order of width; UINT8 and INT8 share a rank (together they give INT16).
int IntegerRank(int32_t type) {
    switch (type) {
        case ACL_BOOL: return 0;
        case ACL_UINT8: case ACL_INT8: return 1;
        case ACL_INT16: return 2;
        case ACL_INT32: return 3;
        default: return 4;  // INT64
    }
}

bool UnsignedWide(int32_t type) { return type == ACL_UINT16 || type == ACL_UINT32 || type == ACL_UINT64; }

}  // namespace

int32_t PromoteType(int32_t a, int32_t b) {
    if (a == b) return a;
    if (UnsignedWide(a) || UnsignedWide(b)) return ACL_DT_UNDEFINED;
    if (ComputableDtype(a) && ComputableDtype(b)) return PromoteFloatTypes(a, b);
    if (FloatingDtype(a) && FloatingDtype(b)) return ACL_DOUBLE;
    if (FloatingDtype(a) && IntegerDtype(b)) return a;
    if (FloatingDtype(b) && IntegerDtype(a)) return b;
    if (IntegerDtype(a) && IntegerDtype(b)) {
        if ((a == ACL_UINT8 && b == ACL_INT8) || (a == ACL_INT8 && b == ACL_UINT8)) return ACL_INT16;
        return IntegerRank(a) >= IntegerRank(b) ? a : b;
    }
    return a;
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
