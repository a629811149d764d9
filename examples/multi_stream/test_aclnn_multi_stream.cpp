/*
 * Two streams ordered by an event, written the way CANN's aclnn samples are written: it builds unchanged against
 * CANN on an Ascend NPU and against aclnn-cpu on any machine.
 *
 * Stream 1 computes the per-element loss (aclnnSoftMarginLoss, reduction none) and records an event; stream 2
 * waits for that event -- without blocking the host -- and then runs aclnnSoftMarginLossBackward with the loss as
 * gradOutput. The gradient is right only if stream 2 really waited for stream 1.
 *
 * self = [[0, 1], [2, 3]], target = [[1, -1], [1, -1]].
 */
#include <iostream>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_soft_margin_loss.h"
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

int64_t GetShapeSize(const std::vector<int64_t>& shape)
{
    int64_t shapeSize = 1;
    for (auto i : shape) {
        shapeSize *= i;
    }
    return shapeSize;
}

int Init(int32_t deviceId, aclrtStream* stream)
{
    auto ret = aclInit(nullptr);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclInit failed. ERROR: %d\n", ret); return ret);
    ret = aclrtSetDevice(deviceId);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSetDevice failed. ERROR: %d\n", ret); return ret);
    ret = aclrtCreateStream(stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtCreateStream failed. ERROR: %d\n", ret); return ret);
    return 0;
}

template <typename T>
int CreateAclTensor(const std::vector<T>& hostData, const std::vector<int64_t>& shape, void** deviceAddr,
                    aclDataType dataType, aclTensor** tensor)
{
    auto size = GetShapeSize(shape) * sizeof(T);
    // Device memory for the tensor, then the host data copied into it.
    auto ret = aclrtMalloc(deviceAddr, size, ACL_MEM_MALLOC_HUGE_FIRST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMalloc failed. ERROR: %d\n", ret); return ret);
    ret = aclrtMemcpy(*deviceAddr, size, hostData.data(), size, ACL_MEMCPY_HOST_TO_DEVICE);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMemcpy failed. ERROR: %d\n", ret); return ret);

    // Contiguous strides of the shape (none for a 0-d tensor).
    std::vector<int64_t> strides(shape.size(), 1);
    for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; i--) {
        strides[i] = shape[i + 1] * strides[i + 1];
    }

    *tensor = aclCreateTensor(shape.data(), shape.size(), dataType, strides.data(), 0, aclFormat::ACL_FORMAT_ND,
                              shape.data(), shape.size(), *deviceAddr);
    return 0;
}

// Phase 2 needs the workspace phase 1 asked for.
int AllocWorkspace(uint64_t workspaceSize, void** workspaceAddr)
{
    *workspaceAddr = nullptr;
    if (workspaceSize > 0) {
        auto ret = aclrtMalloc(workspaceAddr, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
        CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("allocate workspace failed. ERROR: %d\n", ret); return ret);
    }
    return 0;
}

int main()
{
    // 1. Device and two streams.
    int32_t deviceId = 0;
    aclrtStream stream1;
    auto ret = Init(deviceId, &stream1);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("Init acl failed. ERROR: %d\n", ret); return ret);
    aclrtStream stream2;
    ret = aclrtCreateStream(&stream2);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtCreateStream failed. ERROR: %d\n", ret); return ret);
    aclrtEvent lossReady;
    ret = aclrtCreateEvent(&lossReady);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtCreateEvent failed. ERROR: %d\n", ret); return ret);

    // 2. Tensors: the loss of stream 1 is the gradOutput of stream 2.
    std::vector<int64_t> shape = {2, 2};
    void* selfDeviceAddr = nullptr;
    void* targetDeviceAddr = nullptr;
    void* lossDeviceAddr = nullptr;
    void* gradInputDeviceAddr = nullptr;
    aclTensor* self = nullptr;
    aclTensor* target = nullptr;
    aclTensor* loss = nullptr;
    aclTensor* gradInput = nullptr;
    std::vector<float> selfHostData = {0, 1, 2, 3};
    std::vector<float> targetHostData = {1, -1, 1, -1};
    std::vector<float> zeros = {0, 0, 0, 0};
    ret = CreateAclTensor(selfHostData, shape, &selfDeviceAddr, aclDataType::ACL_FLOAT, &self);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    ret = CreateAclTensor(targetHostData, shape, &targetDeviceAddr, aclDataType::ACL_FLOAT, &target);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    ret = CreateAclTensor(zeros, shape, &lossDeviceAddr, aclDataType::ACL_FLOAT, &loss);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    ret = CreateAclTensor(zeros, shape, &gradInputDeviceAddr, aclDataType::ACL_FLOAT, &gradInput);
    CHECK_RET(ret == ACL_SUCCESS, return ret);

    // 3. Stream 1: the loss, then the event.
    uint64_t workspaceSize = 0;
    aclOpExecutor* executor;
    ret = aclnnSoftMarginLossGetWorkspaceSize(self, target, 0, loss, &workspaceSize, &executor);
    CHECK_RET(ret == ACL_SUCCESS,
              LOG_PRINT("aclnnSoftMarginLossGetWorkspaceSize failed. ERROR: %d, %s\n", ret, aclGetRecentErrMsg());
              return ret);
    void* workspaceAddr = nullptr;
    ret = AllocWorkspace(workspaceSize, &workspaceAddr);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    ret = aclnnSoftMarginLoss(workspaceAddr, workspaceSize, executor, stream1);
    CHECK_RET(ret == ACL_SUCCESS,
              LOG_PRINT("aclnnSoftMarginLoss failed. ERROR: %d, %s\n", ret, aclGetRecentErrMsg()); return ret);
    ret = aclrtRecordEvent(lossReady, stream1);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtRecordEvent failed. ERROR: %d\n", ret); return ret);

    // 4. Stream 2: wait for the event, then the gradient weighted by the loss.
    ret = aclrtStreamWaitEvent(stream2, lossReady);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtStreamWaitEvent failed. ERROR: %d\n", ret); return ret);
    uint64_t backwardWorkspaceSize = 0;
    aclOpExecutor* backwardExecutor;
    ret = aclnnSoftMarginLossBackwardGetWorkspaceSize(loss, self, target, 0, gradInput, &backwardWorkspaceSize,
                                                      &backwardExecutor);
    CHECK_RET(ret == ACL_SUCCESS,
              LOG_PRINT("aclnnSoftMarginLossBackwardGetWorkspaceSize failed. ERROR: %d, %s\n", ret,
                        aclGetRecentErrMsg());
              return ret);
    void* backwardWorkspaceAddr = nullptr;
    ret = AllocWorkspace(backwardWorkspaceSize, &backwardWorkspaceAddr);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    ret = aclnnSoftMarginLossBackward(backwardWorkspaceAddr, backwardWorkspaceSize, backwardExecutor, stream2);
    CHECK_RET(ret == ACL_SUCCESS,
              LOG_PRINT("aclnnSoftMarginLossBackward failed. ERROR: %d, %s\n", ret, aclGetRecentErrMsg());
              return ret);

    // 5. Wait for stream 2 (which waited for stream 1).
    ret = aclrtSynchronizeStream(stream2);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSynchronizeStream failed. ERROR: %d\n", ret); return ret);

    // 6. Copy the results back and print them.
    auto size = GetShapeSize(shape);
    std::vector<float> lossData(size, 0);
    std::vector<float> gradData(size, 0);
    ret = aclrtMemcpy(lossData.data(), size * sizeof(float), lossDeviceAddr, size * sizeof(float),
                      ACL_MEMCPY_DEVICE_TO_HOST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("copy result from device to host failed. ERROR: %d\n", ret); return ret);
    ret = aclrtMemcpy(gradData.data(), size * sizeof(float), gradInputDeviceAddr, size * sizeof(float),
                      ACL_MEMCPY_DEVICE_TO_HOST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("copy result from device to host failed. ERROR: %d\n", ret); return ret);
    for (int64_t i = 0; i < size; i++) {
        LOG_PRINT("loss[%ld] is: %f\n", i, lossData[i]);
    }
    for (int64_t i = 0; i < size; i++) {
        LOG_PRINT("gradient[%ld] is: %f\n", i, gradData[i]);
    }

    // 7. Release everything.
    aclDestroyTensor(self);
    aclDestroyTensor(target);
    aclDestroyTensor(loss);
    aclDestroyTensor(gradInput);
    aclrtFree(selfDeviceAddr);
    aclrtFree(targetDeviceAddr);
    aclrtFree(lossDeviceAddr);
    aclrtFree(gradInputDeviceAddr);
    if (workspaceSize > 0) {
        aclrtFree(workspaceAddr);
    }
    if (backwardWorkspaceSize > 0) {
        aclrtFree(backwardWorkspaceAddr);
    }
    aclrtDestroyEvent(lossReady);
    aclrtDestroyStream(stream1);
    aclrtDestroyStream(stream2);
    aclrtResetDevice(deviceId);
    aclFinalize();
    return 0;
}
