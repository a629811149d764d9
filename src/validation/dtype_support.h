// Which dtypes an operator takes on which SoC, as CANN's op_api decides it: each operator has two lists, and
// GetDtypeSupportListV2 (ops-nn common/inc/op_api/level2_base.h) picks the first on chips of NpuArch 2201
// (Atlas A2/A3: Ascend910B*, Ascend910_93*) and 3510 (Ascend 950, Ascend 350), the second elsewhere. The chip is
// the one aclrtGetSocName() names (ACLNN_CPU_SOC_NAME; docs/compatibility.md has the table of names). The lists
// are plain data, so the operator table (ops/operator_table.h) holds them too.
#pragma once

#include <cstdint>
#include <string>

#include "acl/acl_base.h"
#include "common/export.h"

namespace aclnn_cpu::validation {

struct DtypeList {
    int32_t types[4];
    int count;
    bool Contains(int32_t type) const {
        for (int i = 0; i < count; ++i)
            if (types[i] == type) return true;
        return false;
    }
};

struct DtypeSupport {
    DtypeList newer_chips;  // NpuArch 2201 and 3510
    DtypeList other_chips;  // every other chip, and a name CANN does not know
};

// The lists of every loss operator here: BFLOAT16 on Atlas A2/A3 and Ascend 950 only (ops-nn's
// ASCEND910B_DTYPE_SUPPORT_LIST / ASCEND910_DTYPE_SUPPORT_LIST).
inline constexpr DtypeSupport kFloatTypesBf16FromAtlasA2 = {{{ACL_FLOAT, ACL_FLOAT16, ACL_BF16, 0}, 3},
                                                           {{ACL_FLOAT, ACL_FLOAT16, 0, 0}, 2}};

// The same types in the order of the binary cross-entropy losses' lists (FLOAT16 first), which their messages
// print.
inline constexpr DtypeSupport kHalfFirstTypesBf16FromAtlasA2 = {{{ACL_FLOAT16, ACL_FLOAT, ACL_BF16, 0}, 3},
                                                               {{ACL_FLOAT16, ACL_FLOAT, 0, 0}, 2}};

// The lists of an operator offered on Atlas A2/A3 and Ascend 950 only (its OpDef has no config for other chips):
// none elsewhere (aclnnLogit, aclnnLogitGrad).
inline constexpr DtypeSupport kNewerChipsOnly = {{{ACL_BF16, ACL_FLOAT16, ACL_FLOAT, 0}, 3}, {{0, 0, 0, 0}, 0}};

// aclnnSoftmax: DOUBLE too (CANN's AICPU kernel), BFLOAT16 on Atlas A2/A3 and Ascend 950.
inline constexpr DtypeSupport kSoftmaxTypes = {{{ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16}, 4},
                                               {{ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, 0}, 3}};

// aclnnLogSoftmax: DOUBLE too; BFLOAT16 on Atlas A2/A3 and Ascend 950. Its op_api checks one list on every chip
// (kLogSoftmaxCheckedTypes, which its messages print) after refusing BFLOAT16 on the older chips in its own words.
inline constexpr DtypeSupport kLogSoftmaxTypes = {{{ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16}, 4},
                                                  {{ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, 0}, 3}};
inline constexpr DtypeSupport kLogSoftmaxCheckedTypes = {{{ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16}, 4},
                                                         {{ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_BF16}, 4}};

// The softmax gradients: no DOUBLE (AI Core kernels only), BFLOAT16 on Atlas A2/A3 and Ascend 950; as for
// aclnnLogSoftmax, the list checked (and printed) is one on every chip, after their own BFLOAT16 check.
inline constexpr DtypeSupport kSoftmaxGradientTypes = {{{ACL_FLOAT, ACL_FLOAT16, ACL_BF16, 0}, 3},
                                                       {{ACL_FLOAT, ACL_FLOAT16, 0, 0}, 2}};
inline constexpr DtypeSupport kSoftmaxGradientCheckedTypes = {{{ACL_FLOAT, ACL_FLOAT16, ACL_BF16, 0}, 3},
                                                              {{ACL_FLOAT, ACL_FLOAT16, ACL_BF16, 0}, 3}};

// The NLL losses' class-index targets, on every chip.
inline constexpr DtypeSupport kClassIndexTypes = {{{ACL_INT64, ACL_UINT8, ACL_INT32, 0}, 3},
                                                  {{ACL_INT64, ACL_UINT8, ACL_INT32, 0}, 3}};

// The chip families CANN's op_api tells apart, from the SoC name.
enum class NpuArch : uint8_t { kDav1001, kDav2002, kDav2201, kDav3002, kDav3510, kUnknown };
NpuArch NpuArchOfSoc(const char* soc_name);

// The family of the SoC aclrtGetSocName() names now, and whether it is one of the newer ones (NpuArch 2201 and
// 3510: Atlas A2/A3, Ascend 950/350), whose lists GetDtypeSupportListV2 picks.
NpuArch CurrentNpuArch();
bool OnNewerChip();
// Whether it is NpuArch 3510 (Ascend 950/350), the one CANN's op_api calls "regbase" (IsRegbase()): its own
// kernels and, where an op_api tells it apart, its own order of checks.
bool OnRegisterBasedChip();

// The list that applies on the SoC aclrtGetSocName() names now.
const DtypeList& SupportedDtypes(const DtypeSupport& support);

// CANN's names and list format in messages: "DT_BFLOAT16", "[DT_FLOAT,DT_FLOAT16,]".
ACLNN_CPU_INTERNAL std::string CannDtypeName(int32_t type);  // exported for the tests' messages
std::string CannDtypeListString(const DtypeList& list);

// Whether the engine computes with this dtype (FLOAT, FLOAT16, BFLOAT16).
inline bool ComputableDtype(int32_t type) { return type == ACL_FLOAT || type == ACL_FLOAT16 || type == ACL_BF16; }

// The floating types, DOUBLE included (CANN's IsFloatingType without the complex ones).
inline bool FloatingDtype(int32_t type) { return ComputableDtype(type) || type == ACL_DOUBLE; }

// The integer dtypes the engine reads (and promotes, as CANN's op_api casts them): BOOL, UINT8, INT8, INT16,
// INT32, INT64.
inline bool IntegerDtype(int32_t type) {
    return type == ACL_BOOL || type == ACL_UINT8 || type == ACL_INT8 || type == ACL_INT16 || type == ACL_INT32 ||
           type == ACL_INT64;
}

// Whether the engine reads tensors of this dtype: the computable ones and the integer ones.
inline bool LoadableDtype(int32_t type) { return ComputableDtype(type) || IntegerDtype(type); }

// Bytes per element of a dtype aclnn-cpu reads or writes: the loadable ones and DOUBLE (0 for any other).
int64_t DtypeSize(int32_t type);

// CANN's PromoteType within the floating types: equal types stay, FLOAT with any gives FLOAT, FLOAT16 with
// BFLOAT16 gives FLOAT. Only for computable dtypes.
inline int32_t PromoteFloatTypes(int32_t a, int32_t b) { return a == b ? a : ACL_FLOAT; }

// CANN's PromoteType (PyTorch's table): a floating type wins over an integer or bool, DOUBLE over the other
// floating types, FLOAT16 with BFLOAT16 gives FLOAT; among integers the wider, BOOL below all, and UINT8 with
// INT8 gives INT16. ACL_DT_UNDEFINED where the table has no entry (the unsigned types above 8 bits); two
// other types keep the first (no list holds it, so it is refused either way).
int32_t PromoteType(int32_t a, int32_t b);

}  // namespace aclnn_cpu::validation
