/*
 * aclnnSmoothL1Loss then aclnnSmoothL1LossBackward on the same tensors -- a regression step's loss and its
 * gradient, with the operator's scalar parameter beta -- written the way CANN's aclnn samples are written: it
 * builds unchanged against CANN on an Ascend NPU and against aclnn-cpu on any machine.
 *
 * self = [[0, 0.5], [2, -3]], target = [[0.25, 0], [0, 0]], beta = 0.5, reduction = 1 (mean); d = self - target:
 *   loss = mean(|d| < beta ? 0.5 * d^2 / beta : |d| - 0.5 * beta) = (0.0625 + 0.25 + 1.75 + 2.75) / 4;
 *   gradient = d loss / d self (gradOutput = 1) = (|d| < beta ? d / beta : sign(d)) / 4.
 */
#include <iostream>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_smooth_l1_loss.h"
#include "aclnnop/aclnn_smooth_l1_loss_backward.h"

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
    // 1. Device and stream.
    int32_t deviceId = 0;
    aclrtStream stream;
    auto ret = Init(deviceId, &stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("Init acl failed. ERROR: %d\n", ret); return ret);

    // 2. Inputs and outputs: the loss is 0-d (mean), the gradient has self's shape.
    std::vector<int64_t> selfShape = {2, 2};
    std::vector<int64_t> targetShape = {2, 2};
    std::vector<int64_t> lossShape = {};
    std::vector<int64_t> gradOutputShape = {};
    std::vector<int64_t> gradInputShape = {2, 2};
    void* selfDeviceAddr = nullptr;
    void* targetDeviceAddr = nullptr;
    void* lossDeviceAddr = nullptr;
    void* gradOutputDeviceAddr = nullptr;
    void* gradInputDeviceAddr = nullptr;
    aclTensor* self = nullptr;
    aclTensor* target = nullptr;
    aclTensor* loss = nullptr;
    aclTensor* gradOutput = nullptr;
    aclTensor* gradInput = nullptr;
    std::vector<float> selfHostData = {0, 0.5, 2, -3};
    std::vector<float> targetHostData = {0.25, 0, 0, 0};
    std::vector<float> lossHostData = {0};
    std::vector<float> gradOutputHostData = {1};
    std::vector<float> gradInputHostData = {0, 0, 0, 0};
    int64_t reduction = 1;
    float beta = 0.5f;

    ret = CreateAclTensor(selfHostData, selfShape, &selfDeviceAddr, aclDataType::ACL_FLOAT, &self);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    ret = CreateAclTensor(targetHostData, targetShape, &targetDeviceAddr, aclDataType::ACL_FLOAT, &target);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    ret = CreateAclTensor(lossHostData, lossShape, &lossDeviceAddr, aclDataType::ACL_FLOAT, &loss);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    ret = CreateAclTensor(gradOutputHostData, gradOutputShape, &gradOutputDeviceAddr, aclDataType::ACL_FLOAT,
                          &gradOutput);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    ret = CreateAclTensor(gradInputHostData, gradInputShape, &gradInputDeviceAddr, aclDataType::ACL_FLOAT,
                          &gradInput);
    CHECK_RET(ret == ACL_SUCCESS, return ret);

    // 3. The loss: aclnnSmoothL1Loss, both phases.
    uint64_t workspaceSize = 0;
    aclOpExecutor* executor;
    ret = aclnnSmoothL1LossGetWorkspaceSize(self, target, reduction, beta, loss, &workspaceSize, &executor);
    CHECK_RET(ret == ACL_SUCCESS,
              LOG_PRINT("aclnnSmoothL1LossGetWorkspaceSize failed. ERROR: %d, %s\n", ret, aclGetRecentErrMsg());
              return ret);
    void* workspaceAddr = nullptr;
    ret = AllocWorkspace(workspaceSize, &workspaceAddr);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    ret = aclnnSmoothL1Loss(workspaceAddr, workspaceSize, executor, stream);
    CHECK_RET(ret == ACL_SUCCESS,
              LOG_PRINT("aclnnSmoothL1Loss failed. ERROR: %d, %s\n", ret, aclGetRecentErrMsg()); return ret);

    // 4. Its gradient: aclnnSmoothL1LossBackward on the same stream, so it runs after the loss.
    uint64_t backwardWorkspaceSize = 0;
    aclOpExecutor* backwardExecutor;
    ret = aclnnSmoothL1LossBackwardGetWorkspaceSize(gradOutput, self, target, reduction, beta, gradInput,
                                                    &backwardWorkspaceSize, &backwardExecutor);
    CHECK_RET(ret == ACL_SUCCESS,
              LOG_PRINT("aclnnSmoothL1LossBackwardGetWorkspaceSize failed. ERROR: %d, %s\n", ret,
                        aclGetRecentErrMsg());
              return ret);
    void* backwardWorkspaceAddr = nullptr;
    ret = AllocWorkspace(backwardWorkspaceSize, &backwardWorkspaceAddr);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    ret = aclnnSmoothL1LossBackward(backwardWorkspaceAddr, backwardWorkspaceSize, backwardExecutor, stream);
    CHECK_RET(ret == ACL_SUCCESS,
              LOG_PRINT("aclnnSmoothL1LossBackward failed. ERROR: %d, %s\n", ret, aclGetRecentErrMsg());
              return ret);

    // 5. Wait for the stream.
    ret = aclrtSynchronizeStream(stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSynchronizeStream failed. ERROR: %d\n", ret); return ret);

    // 6. Copy the results back and print them.
    float lossResult = 0;
    ret = aclrtMemcpy(&lossResult, sizeof(lossResult), lossDeviceAddr, sizeof(lossResult),
                      ACL_MEMCPY_DEVICE_TO_HOST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("copy result from device to host failed. ERROR: %d\n", ret); return ret);
    LOG_PRINT("loss is: %f\n", lossResult);
    auto size = GetShapeSize(gradInputShape);
    std::vector<float> resultData(size, 0);
    ret = aclrtMemcpy(resultData.data(), resultData.size() * sizeof(resultData[0]), gradInputDeviceAddr,
                      size * sizeof(resultData[0]), ACL_MEMCPY_DEVICE_TO_HOST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("copy result from device to host failed. ERROR: %d\n", ret); return ret);
    for (int64_t i = 0; i < size; i++) {
        LOG_PRINT("gradient[%ld] is: %f\n", i, resultData[i]);
    }

    // 7. Release everything.
    aclDestroyTensor(self);
    aclDestroyTensor(target);
    aclDestroyTensor(loss);
    aclDestroyTensor(gradOutput);
    aclDestroyTensor(gradInput);
    aclrtFree(selfDeviceAddr);
    aclrtFree(targetDeviceAddr);
    aclrtFree(lossDeviceAddr);
    aclrtFree(gradOutputDeviceAddr);
    aclrtFree(gradInputDeviceAddr);
    if (workspaceSize > 0) {
        aclrtFree(workspaceAddr);
    }
    if (backwardWorkspaceSize > 0) {
        aclrtFree(backwardWorkspaceAddr);
    }
    aclrtDestroyStream(stream);
    aclrtResetDevice(deviceId);
    aclFinalize();
    return 0;
}
