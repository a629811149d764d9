// CANN's spellings as C++ (built once per standard, 11 to 20; test_headers_installed compiles every installed header),
// including the qualified enum names that CANN's samples use.
#include <cstdio>
#include <type_traits>

#include "acl/acl.h"
#include "acl/acl_base_rt.h"
#include "acl/acl_op.h"
#include "aclnn/opdev/bfloat16.h"
#include "aclnn/opdev/float4_e1m2.h"
#include "aclnn/opdev/float4_e2m1.h"
#include "aclnn/opdev/float6_e2m3.h"
#include "aclnn/opdev/float6_e3m2.h"
#include "aclnn/opdev/float8_e4m3fn.h"
#include "aclnn/opdev/float8_e5m2.h"
#include "aclnn/opdev/float8_e8m0.h"
#include "aclnn/opdev/fp16_t.h"
#include "aclnn/opdev/hifloat4.h"
#include "aclnn/opdev/hifloat8.h"
#include "aclnn/opdev/op_errno.h"
#include "aclnn_cpu/aclnn_cpu.h"
#include "aclnnop/aclnn_soft_margin_loss.h"
#include "aclnnop/aclnn_soft_margin_loss_backward.h"

static_assert(aclDataType::ACL_FLOAT == 0, "ACL_FLOAT");
static_assert(aclDataType::ACL_FLOAT16 == 1, "ACL_FLOAT16");
static_assert(aclDataType::ACL_BF16 == 27, "ACL_BF16");
static_assert(aclFormat::ACL_FORMAT_ND == 2, "ACL_FORMAT_ND");
static_assert(aclFormat::ACL_FORMAT_FRACTAL_NZ == 29, "ACL_FORMAT_FRACTAL_NZ");
static_assert(std::is_same<aclnnStatus, int32_t>::value, "aclnnStatus is int32_t");
static_assert(OK == 0, "OK");
static_assert(std::is_same<decltype(&aclnnSoftMarginLossGetWorkspaceSize),
                           aclnnStatus (*)(const aclTensor*, const aclTensor*, int64_t, aclTensor*, uint64_t*,
                                           aclOpExecutor**)>::value,
              "aclnnSoftMarginLossGetWorkspaceSize's prototype");
static_assert(std::is_same<decltype(&aclrtEventElapsedTime), aclError (*)(float*, aclrtEvent, aclrtEvent)>::value,
              "aclrtEventElapsedTime's prototype");
static_assert(sizeof(op::fp16_t) == 2 && sizeof(op::bfloat16) == 2, "the opdev 16-bit types are 16 bits");
static_assert(sizeof(op::Float4E2M1) == 1 && sizeof(op::Float8E4M3FN) == 1 && sizeof(op::HiFloat8) == 1 &&
                  sizeof(op::Float8E8M0) == 1 && sizeof(op::Float6E3M2) == 1,
              "the opdev small float types are one byte");
static_assert(op::Float8E4M3FN::Highest().value == 0x7E && op::Float8E5M2::INF_VALUE == 0x7C &&
                  op::HiFloat8::HIF8_NAN_VALUE == 0x80 && std::numeric_limits<op::Float8E8M0>::max_exponent == 127,
              "CANN's constants");
static_assert(std::is_same<decltype(&aclrtMallocAlign32), aclError (*)(void**, size_t, aclrtMemMallocPolicy)>::value,
              "aclrtMallocAlign32's prototype");
static_assert(ACLNN_ERR_PARAM_INVALID == 161002, "161002");
static_assert(std::is_same<decltype(&aclnnSoftMarginLossBackwardGetWorkspaceSize),
                           aclnnStatus (*)(const aclTensor*, const aclTensor*, const aclTensor*, int64_t, aclTensor*,
                                           uint64_t*, aclOpExecutor**)>::value,
              "phase 1 prototype");
static_assert(std::is_same<decltype(&aclnnSoftMarginLossBackward),
                           aclnnStatus (*)(void*, uint64_t, aclOpExecutor*, aclrtStream)>::value,
              "phase 2 prototype");
static_assert(std::is_same<decltype(&aclSetInputTensorAddr),
                           aclnnStatus (*)(aclOpExecutor*, const size_t, aclTensor*, void*)>::value,
              "aclSetInputTensorAddr prototype");

int main() {
    // The header is usable at run time too: the library answers through it.
    uint32_t count = 0;
    if (aclrtGetDeviceCount(&count) != ACL_SUCCESS || count != 1) return 1;
    std::printf("headers OK (C++ %ld)\n", static_cast<long>(__cplusplus));
    return 0;
}
