/*
 * One executor, many batches: phase 1 runs once, aclSetAclOpExecutorRepeatable keeps the executor alive,
 * aclSetInputTensorAddr / aclSetOutputTensorAddr point it at each batch's buffers, and
 * aclDestroyAclOpExecutor releases it at the end. Written in CANN's aclnn sample style.
 *
 * Batch b uses self = b + [0, 0.5, 1, 1.5], target = [1, -1, 1, -1], gradOutput = 1, reduction 0 (none).
 */
#include <cmath>
#include <iostream>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_soft_margin_loss_backward.h"

#define CHECK_RET(cond, return_expr) \
    do {                             \
        if (!(cond)) {               \
            return_expr;             \
        }                            \
    } while (0)

#define LOG_PRINT(message, ...)         \
    do {                                \
        printf(message, ##__VA_ARGS__); \
    } while (0)

static const int kBatches = 3;
static const int64_t kElements = 4;

int main()
{
    int32_t deviceId = 0;
    aclrtStream stream = nullptr;
    auto ret = aclInit(nullptr);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclInit failed. ERROR: %d\n", ret); return ret);
    ret = aclrtSetDevice(deviceId);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSetDevice failed. ERROR: %d\n", ret); return ret);
    ret = aclrtCreateStream(&stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtCreateStream failed. ERROR: %d\n", ret); return ret);

    const size_t bytes = kElements * sizeof(float);
    std::vector<int64_t> shape = {2, 2};
    std::vector<int64_t> strides = {2, 1};

    // Every batch gets its own self and out buffers; gradOutput and target are shared.
    void* gradDevice = nullptr;
    void* targetDevice = nullptr;
    void* selfDevice[kBatches] = {nullptr};
    void* outDevice[kBatches] = {nullptr};
    std::vector<float> gradHost(kElements, 1.0f);
    std::vector<float> targetHost = {1.0f, -1.0f, 1.0f, -1.0f};
    ret = aclrtMalloc(&gradDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMalloc failed. ERROR: %d\n", ret); return ret);
    ret = aclrtMalloc(&targetDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMalloc failed. ERROR: %d\n", ret); return ret);
    aclrtMemcpy(gradDevice, bytes, gradHost.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(targetDevice, bytes, targetHost.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    for (int b = 0; b < kBatches; b++) {
        std::vector<float> selfHost = {b + 0.0f, b + 0.5f, b + 1.0f, b + 1.5f};
        ret = aclrtMalloc(&selfDevice[b], bytes, ACL_MEM_MALLOC_HUGE_FIRST);
        CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMalloc failed. ERROR: %d\n", ret); return ret);
        ret = aclrtMalloc(&outDevice[b], bytes, ACL_MEM_MALLOC_HUGE_FIRST);
        CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMalloc failed. ERROR: %d\n", ret); return ret);
        aclrtMemcpy(selfDevice[b], bytes, selfHost.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    }

    aclTensor* gradOutput = aclCreateTensor(shape.data(), shape.size(), aclDataType::ACL_FLOAT, strides.data(), 0,
                                            aclFormat::ACL_FORMAT_ND, shape.data(), shape.size(), gradDevice);
    aclTensor* self = aclCreateTensor(shape.data(), shape.size(), aclDataType::ACL_FLOAT, strides.data(), 0,
                                      aclFormat::ACL_FORMAT_ND, shape.data(), shape.size(), selfDevice[0]);
    aclTensor* target = aclCreateTensor(shape.data(), shape.size(), aclDataType::ACL_FLOAT, strides.data(), 0,
                                        aclFormat::ACL_FORMAT_ND, shape.data(), shape.size(), targetDevice);
    aclTensor* out = aclCreateTensor(shape.data(), shape.size(), aclDataType::ACL_FLOAT, strides.data(), 0,
                                     aclFormat::ACL_FORMAT_ND, shape.data(), shape.size(), outDevice[0]);

    // Phase 1 once.
    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    ret = aclnnSoftMarginLossBackwardGetWorkspaceSize(gradOutput, self, target, 0, out, &workspaceSize, &executor);
    CHECK_RET(ret == ACL_SUCCESS,
              LOG_PRINT("GetWorkspaceSize failed. ERROR: %d, %s\n", ret, aclGetRecentErrMsg()); return ret);
    ret = aclSetAclOpExecutorRepeatable(executor);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclSetAclOpExecutorRepeatable failed. ERROR: %d\n", ret); return ret);
    void* workspaceAddr = nullptr;
    if (workspaceSize > 0) {
        ret = aclrtMalloc(&workspaceAddr, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
        CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("allocate workspace failed. ERROR: %d\n", ret); return ret);
    }

    // Phase 2 per batch, rebinding self (input index 1) and out (output index 0).
    for (int b = 0; b < kBatches; b++) {
        ret = aclSetInputTensorAddr(executor, 1, self, selfDevice[b]);
        CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclSetInputTensorAddr failed. ERROR: %d\n", ret); return ret);
        ret = aclSetOutputTensorAddr(executor, 0, out, outDevice[b]);
        CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclSetOutputTensorAddr failed. ERROR: %d\n", ret); return ret);
        ret = aclnnSoftMarginLossBackward(workspaceAddr, workspaceSize, executor, stream);
        CHECK_RET(ret == ACL_SUCCESS,
                  LOG_PRINT("aclnnSoftMarginLossBackward failed. ERROR: %d, %s\n", ret, aclGetRecentErrMsg());
                  return ret);
    }
    ret = aclrtSynchronizeStream(stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSynchronizeStream failed. ERROR: %d\n", ret); return ret);

    int mismatches = 0;
    for (int b = 0; b < kBatches; b++) {
        std::vector<float> result(kElements, 0.0f);
        aclrtMemcpy(result.data(), bytes, outDevice[b], bytes, ACL_MEMCPY_DEVICE_TO_HOST);
        for (int64_t i = 0; i < kElements; i++) {
            float x = b + 0.5f * i;
            float y = targetHost[i];
            float expected = -y / (1.0f + std::exp(x * y));  // the same quantity in closed form
            if (std::fabs(result[i] - expected) > 1e-6f) {
                mismatches++;
            }
            LOG_PRINT("batch %d result[%ld] is: %f\n", b, i, result[i]);
        }
    }

    aclDestroyAclOpExecutor(executor);
    aclDestroyTensor(gradOutput);
    aclDestroyTensor(self);
    aclDestroyTensor(target);
    aclDestroyTensor(out);
    aclrtFree(gradDevice);
    aclrtFree(targetDevice);
    for (int b = 0; b < kBatches; b++) {
        aclrtFree(selfDevice[b]);
        aclrtFree(outDevice[b]);
    }
    if (workspaceSize > 0) {
        aclrtFree(workspaceAddr);
    }
    aclrtDestroyStream(stream);
    aclrtResetDevice(deviceId);
    aclFinalize();
    if (mismatches != 0) {
        LOG_PRINT("%d results differ from the closed form\n", mismatches);
        return 1;
    }
    return 0;
}
