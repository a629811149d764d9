/*
 * The logistic losses of one small batch -- a classifier's step on its logits and on its probabilities, and the
 * KL divergence's gradient -- written the way CANN's aclnn samples are written: it builds unchanged against CANN
 * on an Ascend NPU and against aclnn-cpu on any machine.
 *
 * logits x = [-2, -0.5, 0.5, 3], labels y = [0, 1, 1, 0], reduction = 1 (mean) throughout:
 *   aclnnBinaryCrossEntropyWithLogits, posWeight = [2] (broadcast over the last dim), no weight:
 *     loss = mean((1 - y) * x - log(sigmoid(x)) * ((posWeight - 1) * y + 1));
 *   aclnnBinaryCrossEntropyWithLogitsBackward, gradOutput = 1:
 *     gradient = ((posWeight * y + 1 - y) * sigmoid(x) - posWeight * y) / 4;
 * probabilities p = [0.1, 0.25, 0.75, 0.9], weight w = [1, 2, 2, 1]:
 *   aclnnBinaryCrossEntropy: loss = mean(-w * (y * log(p) + (1 - y) * log(1 - p)));
 *   aclnnBinaryCrossEntropyBackward, gradOutput = 1: gradient = w * (p - y) / (p * (1 - p)) / 4;
 * aclnnKlDivBackward, gradOutput = 1, target t = [0.1, 0.2, 0.3, 0.4] (probabilities, logTarget = false):
 *   gradient = -t / 4 (self gives the shape; its values do not enter the gradient).
 */
#include <iostream>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_binary_cross_entropy.h"
#include "aclnnop/aclnn_binary_cross_entropy_backward.h"
#include "aclnnop/aclnn_binary_cross_entropy_with_logits.h"
#include "aclnnop/aclnn_binary_cross_entropy_with_logits_backward.h"
#include "aclnnop/aclnn_kl_div_backward.h"

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

// A device tensor of shape holding hostData, fp32, contiguous; its memory is remembered in deviceAddrs.
int CreateAclTensor(const std::vector<float>& hostData, const std::vector<int64_t>& shape,
                    std::vector<void*>* deviceAddrs, aclTensor** tensor)
{
    auto size = GetShapeSize(shape) * sizeof(float);
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
    *tensor = aclCreateTensor(shape.data(), shape.size(), aclDataType::ACL_FLOAT, strides.data(), 0,
                              aclFormat::ACL_FORMAT_ND, shape.data(), shape.size(), deviceAddr);
    return 0;
}

// Phase 2 of an operator whose phase 1 returned ret: the workspace it asked for, then the launch on stream.
// The workspaces are freed at the end, after the stream has finished with them.
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
    ret = launch(workspaceAddr, workspaceSize, executor, stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("%s failed. ERROR: %d, %s\n", name, ret, aclGetRecentErrMsg()); return ret);
    return 0;
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

    // 2. Inputs and outputs (fp32): losses are 0-d (mean), gradients have the inputs' shape [4].
    std::vector<void*> deviceAddrs;  // every device allocation, freed at the end
    std::vector<int64_t> shape = {4};
    std::vector<int64_t> scalarShape = {};
    int64_t reduction = 1;
    aclTensor* logits = nullptr;
    aclTensor* labels = nullptr;
    aclTensor* posWeight = nullptr;
    aclTensor* probabilities = nullptr;
    aclTensor* weight = nullptr;
    aclTensor* klTarget = nullptr;
    aclTensor* gradOutput = nullptr;
    aclTensor* logitsLoss = nullptr;
    aclTensor* logitsGradient = nullptr;
    aclTensor* probabilitiesLoss = nullptr;
    aclTensor* probabilitiesGradient = nullptr;
    aclTensor* klGradient = nullptr;
    CHECK_RET(CreateAclTensor({-2, -0.5, 0.5, 3}, shape, &deviceAddrs, &logits) == 0, return 1);
    CHECK_RET(CreateAclTensor({0, 1, 1, 0}, shape, &deviceAddrs, &labels) == 0, return 1);
    CHECK_RET(CreateAclTensor({2}, {1}, &deviceAddrs, &posWeight) == 0, return 1);
    CHECK_RET(CreateAclTensor({0.1, 0.25, 0.75, 0.9}, shape, &deviceAddrs, &probabilities) == 0, return 1);
    CHECK_RET(CreateAclTensor({1, 2, 2, 1}, shape, &deviceAddrs, &weight) == 0, return 1);
    CHECK_RET(CreateAclTensor({0.1, 0.2, 0.3, 0.4}, shape, &deviceAddrs, &klTarget) == 0, return 1);
    CHECK_RET(CreateAclTensor({1}, scalarShape, &deviceAddrs, &gradOutput) == 0, return 1);
    CHECK_RET(CreateAclTensor({0}, scalarShape, &deviceAddrs, &logitsLoss) == 0, return 1);
    void* logitsLossAddr = deviceAddrs.back();
    CHECK_RET(CreateAclTensor({0, 0, 0, 0}, shape, &deviceAddrs, &logitsGradient) == 0, return 1);
    void* logitsGradientAddr = deviceAddrs.back();
    CHECK_RET(CreateAclTensor({0}, scalarShape, &deviceAddrs, &probabilitiesLoss) == 0, return 1);
    void* probabilitiesLossAddr = deviceAddrs.back();
    CHECK_RET(CreateAclTensor({0, 0, 0, 0}, shape, &deviceAddrs, &probabilitiesGradient) == 0, return 1);
    void* probabilitiesGradientAddr = deviceAddrs.back();
    CHECK_RET(CreateAclTensor({0, 0, 0, 0}, shape, &deviceAddrs, &klGradient) == 0, return 1);
    void* klGradientAddr = deviceAddrs.back();

    // 3. The five operators, both phases each, in order on one stream. An optional input left out is nullptr.
    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    ret = aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize(logits, labels, nullptr, posWeight, reduction, logitsLoss,
                                                            &workspaceSize, &executor);
    ret = RunPhase2("aclnnBinaryCrossEntropyWithLogits", ret, workspaceSize, executor, stream,
                    aclnnBinaryCrossEntropyWithLogits, &deviceAddrs);
    CHECK_RET(ret == 0, return ret);
    ret = aclnnBinaryCrossEntropyWithLogitsBackwardGetWorkspaceSize(gradOutput, logits, labels, nullptr, posWeight,
                                                                    reduction, logitsGradient, &workspaceSize,
                                                                    &executor);
    ret = RunPhase2("aclnnBinaryCrossEntropyWithLogitsBackward", ret, workspaceSize, executor, stream,
                    aclnnBinaryCrossEntropyWithLogitsBackward, &deviceAddrs);
    CHECK_RET(ret == 0, return ret);
    ret = aclnnBinaryCrossEntropyGetWorkspaceSize(probabilities, labels, weight, reduction, probabilitiesLoss,
                                                  &workspaceSize, &executor);
    ret = RunPhase2("aclnnBinaryCrossEntropy", ret, workspaceSize, executor, stream, aclnnBinaryCrossEntropy,
                    &deviceAddrs);
    CHECK_RET(ret == 0, return ret);
    ret = aclnnBinaryCrossEntropyBackwardGetWorkspaceSize(gradOutput, probabilities, labels, weight, reduction,
                                                          probabilitiesGradient, &workspaceSize, &executor);
    ret = RunPhase2("aclnnBinaryCrossEntropyBackward", ret, workspaceSize, executor, stream,
                    aclnnBinaryCrossEntropyBackward, &deviceAddrs);
    CHECK_RET(ret == 0, return ret);
    ret = aclnnKlDivBackwardGetWorkspaceSize(gradOutput, probabilities, klTarget, reduction, false, klGradient,
                                             &workspaceSize, &executor);
    ret = RunPhase2("aclnnKlDivBackward", ret, workspaceSize, executor, stream, aclnnKlDivBackward, &deviceAddrs);
    CHECK_RET(ret == 0, return ret);

    // 4. Wait for the stream, then copy the results back and print them.
    ret = aclrtSynchronizeStream(stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSynchronizeStream failed. ERROR: %d\n", ret); return ret);
    CHECK_RET(PrintResult("logits loss", logitsLossAddr, 1) == 0, return 1);
    CHECK_RET(PrintResult("logits gradient", logitsGradientAddr, 4) == 0, return 1);
    CHECK_RET(PrintResult("probabilities loss", probabilitiesLossAddr, 1) == 0, return 1);
    CHECK_RET(PrintResult("probabilities gradient", probabilitiesGradientAddr, 4) == 0, return 1);
    CHECK_RET(PrintResult("kl gradient", klGradientAddr, 4) == 0, return 1);

    // 5. Release everything.
    aclTensor* tensors[] = {logits, labels, posWeight, probabilities, weight, klTarget,
                            gradOutput, logitsLoss, logitsGradient, probabilitiesLoss, probabilitiesGradient,
                            klGradient};
    for (aclTensor* tensor : tensors) {
        aclDestroyTensor(tensor);
    }
    for (void* deviceAddr : deviceAddrs) {
        aclrtFree(deviceAddr);
    }
    aclrtDestroyStream(stream);
    aclrtResetDevice(deviceId);
    aclFinalize();
    return 0;
}
