/*
 * The fused cross-entropy on small inputs -- a classifier's logits scored at their class labels, and the gradient
 * from the log-probabilities it wrote -- written the way CANN's aclnn samples are written: it builds unchanged
 * against CANN on an Ascend NPU and against aclnn-cpu on any machine. The inputs are those of CANN's own samples:
 *   aclnnCrossEntropyLoss, input [2, 5] = [5, 0, 3, 3, 7, 9, 3, 5, 2, 4], target [0, 0] (INT64), no weight,
 *     "mean": logProb = input - logsumexp(row), the loss -(logProb[0, 0] + logProb[1, 0]) / 2;
 *   aclnnCrossEntropyLossGrad, gradLoss 0.1 (0-d), logProb [2, 3] all -0.2, target [0, 0], weight 1, "mean":
 *     out[n, c] = exp(-0.2) * 0.05, less 0.05 at the target (CANN's sample fills FLOAT data into BFLOAT16 tensors
 *     and two INT64 targets from a float array; here the tensors are FLOAT and the targets int64_t, as meant).
 */
#include <cstdint>
#include <iostream>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_cross_entropy_loss.h"
#include "aclnnop/aclnn_cross_entropy_loss_grad.h"

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

// A device tensor of shape holding hostData (of dataType: float, int32_t or int64_t), contiguous; its memory is
// remembered in deviceAddrs.
template <typename T>
int CreateAclTensor(const std::vector<T>& hostData, const std::vector<int64_t>& shape, aclDataType dataType,
                    std::vector<void*>* deviceAddrs, aclTensor** tensor)
{
    auto size = GetShapeSize(shape) * sizeof(T);
    void* deviceAddr = nullptr;
    auto ret = aclrtMalloc(&deviceAddr, size, ACL_MEM_MALLOC_HUGE_FIRST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMalloc failed. ERROR: %d\n", ret); return ret);
    deviceAddrs->push_back(deviceAddr);
    ret = aclrtMemcpy(deviceAddr, size, hostData.data(), size, ACL_MEMCPY_HOST_TO_DEVICE);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMemcpy failed. ERROR: %d\n", ret); return ret);
    std::vector<int64_t> strides(shape.size(), 1);
    for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; i--) {
        strides[i] = shape[i + 1] * strides[i + 1];
    }
    *tensor = aclCreateTensor(shape.data(), shape.size(), dataType, strides.data(), 0, aclFormat::ACL_FORMAT_ND,
                              shape.data(), shape.size(), deviceAddr);
    return 0;
}

// Phase 2 of an operator whose phase 1 returned ret: the workspace it asked for, then the launch on stream.
template <typename Launch>
int RunPhase2(const char* name, aclnnStatus ret, uint64_t workspaceSize, aclOpExecutor* executor,
              aclrtStream stream, Launch launch, std::vector<void*>* deviceAddrs)
{
    CHECK_RET(ret == ACL_SUCCESS,
              LOG_PRINT("%sGetWorkspaceSize failed. ERROR: %d, %s\n", name, ret, aclGetRecentErrMsg()); return ret);
    void* workspaceAddr = nullptr;
    if (workspaceSize > 0) {
        ret = aclrtMalloc(&workspaceAddr, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
        CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("allocate workspace failed. ERROR: %d\n", ret); return ret);
        deviceAddrs->push_back(workspaceAddr);
    }
    return launch(workspaceAddr, workspaceSize, executor, stream);
}

int PrintResult(const char* label, void* deviceAddr, int64_t size)
{
    std::vector<float> resultData(size, 0);
    auto ret = aclrtMemcpy(resultData.data(), resultData.size() * sizeof(float), deviceAddr, size * sizeof(float),
                           ACL_MEMCPY_DEVICE_TO_HOST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("copy result from device to host failed. ERROR: %d\n", ret); return ret);
    for (int64_t i = 0; i < size; i++) {
        if (size == 1) {
            LOG_PRINT("%s is: %f\n", label, resultData[i]);
        } else {
            LOG_PRINT("%s[%ld] is: %f\n", label, i, resultData[i]);
        }
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

    // 2. Inputs and outputs, contiguous.
    std::vector<void*> deviceAddrs;  // every device allocation, freed at the end
    aclTensor* input = nullptr;
    aclTensor* target = nullptr;
    aclTensor* loss = nullptr;
    aclTensor* logProb = nullptr;
    aclTensor* zloss = nullptr;
    aclTensor* lseForZloss = nullptr;
    CHECK_RET(CreateAclTensor(std::vector<float>{5, 0, 3, 3, 7, 9, 3, 5, 2, 4}, {2, 5}, ACL_FLOAT, &deviceAddrs,
                              &input) == 0, return 1);
    CHECK_RET(CreateAclTensor(std::vector<int64_t>{0, 0}, {2}, ACL_INT64, &deviceAddrs, &target) == 0, return 1);
    CHECK_RET(CreateAclTensor(std::vector<float>(1, 0), {1}, ACL_FLOAT, &deviceAddrs, &loss) == 0, return 1);
    void* lossAddr = deviceAddrs.back();
    CHECK_RET(CreateAclTensor(std::vector<float>(10, 0), {2, 5}, ACL_FLOAT, &deviceAddrs, &logProb) == 0, return 1);
    void* logProbAddr = deviceAddrs.back();
    CHECK_RET(CreateAclTensor(std::vector<float>(1, 0), {1}, ACL_FLOAT, &deviceAddrs, &zloss) == 0, return 1);
    CHECK_RET(CreateAclTensor(std::vector<float>(2, 0), {2}, ACL_FLOAT, &deviceAddrs, &lseForZloss) == 0, return 1);

    aclTensor* gradLoss = nullptr;
    aclTensor* gradLogProb = nullptr;
    aclTensor* gradTarget = nullptr;
    aclTensor* weight = nullptr;
    aclTensor* gradient = nullptr;
    CHECK_RET(CreateAclTensor(std::vector<float>{0.1f}, {}, ACL_FLOAT, &deviceAddrs, &gradLoss) == 0, return 1);
    CHECK_RET(CreateAclTensor(std::vector<float>(6, -0.2f), {2, 3}, ACL_FLOAT, &deviceAddrs, &gradLogProb) == 0,
              return 1);
    CHECK_RET(CreateAclTensor(std::vector<int64_t>{0, 0}, {2}, ACL_INT64, &deviceAddrs, &gradTarget) == 0,
              return 1);
    CHECK_RET(CreateAclTensor(std::vector<float>(3, 1), {3}, ACL_FLOAT, &deviceAddrs, &weight) == 0, return 1);
    CHECK_RET(CreateAclTensor(std::vector<float>(6, 0), {2, 3}, ACL_FLOAT, &deviceAddrs, &gradient) == 0, return 1);
    void* gradientAddr = deviceAddrs.back();

    // 3. The operators, both phases each, in order on one stream.
    char reduction[] = "mean";
    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    ret = aclnnCrossEntropyLossGetWorkspaceSize(input, target, nullptr, reduction, -100, 0.0, 0.0, false, loss,
                                                logProb, zloss, lseForZloss, &workspaceSize, &executor);
    ret = RunPhase2("aclnnCrossEntropyLoss", ret, workspaceSize, executor, stream, aclnnCrossEntropyLoss,
                    &deviceAddrs);
    CHECK_RET(ret == 0, LOG_PRINT("aclnnCrossEntropyLoss failed. ERROR: %d, %s\n", ret, aclGetRecentErrMsg());
              return ret);
    ret = aclnnCrossEntropyLossGradGetWorkspaceSize(gradLoss, gradLogProb, gradTarget, weight, nullptr, nullptr,
                                                    reduction, -100, 0.0, 0.0, gradient, &workspaceSize, &executor);
    ret = RunPhase2("aclnnCrossEntropyLossGrad", ret, workspaceSize, executor, stream, aclnnCrossEntropyLossGrad,
                    &deviceAddrs);
    CHECK_RET(ret == 0, LOG_PRINT("aclnnCrossEntropyLossGrad failed. ERROR: %d, %s\n", ret, aclGetRecentErrMsg());
              return ret);
    ret = aclrtSynchronizeStream(stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSynchronizeStream failed. ERROR: %d\n", ret); return ret);

    // 4. The results.
    PrintResult("loss", lossAddr, 1);
    PrintResult("log prob", logProbAddr, 10);
    PrintResult("gradient", gradientAddr, 6);

    // 5. Release everything.
    for (aclTensor* tensor : {input, target, loss, logProb, zloss, lseForZloss, gradLoss, gradLogProb, gradTarget,
                              weight, gradient}) {
        aclDestroyTensor(tensor);
    }
    for (void* addr : deviceAddrs) {
        aclrtFree(addr);
    }
    aclrtDestroyStream(stream);
    aclrtResetDevice(deviceId);
    aclFinalize();
    return 0;
}
