/*
 * The NLL losses on small inputs -- a classifier's log-probabilities scored at their class labels, and the
 * gradients -- written the way CANN's aclnn samples are written: it builds unchanged against CANN on an Ascend
 * NPU and against aclnn-cpu on any machine. The inputs are those of CANN's own samples for these functions:
 *   aclnnNLLLoss, self [2, 3] = [0, 1, ..., 5], target [0, 2] (INT32), weight [1.1, 1.2, 1.3]:
 *     out[n] = -weight[t] * self[n, t] (none), and the mean -(1.1 * 0 + 1.3 * 5) / (1.1 + 1.3) with its total
 *     weight;
 *   aclnnNLLLossBackward, gradOutput [3.1, 6.5], the same self, target and weight, none:
 *     out[n, t] = -weight[t] * gradOutput[n], 0 elsewhere;
 *   aclnnNLLLoss2d, self [1, 2, 3, 2] = [0.1, 1.1, ..., 11.1], target [1, 3, 2] = [1, 0, 1, 1, 2, 1], weight
 *     [1.1, 1.2]: CANN's sample passes the target 2 with two classes, which fails the kernel (161002);
 *   aclnnNLLLoss2dBackward, gradOutput [3, 1, 1] = [2.7, 2.6, 2.5], self [3, 5, 1, 1], target [2, 3, 1]
 *     (INT64), weight 1, none: out[n, t] = -gradOutput[n].
 */
#include <cstdint>
#include <iostream>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_nll_loss.h"
#include "aclnnop/aclnn_nll_loss2d.h"
#include "aclnnop/aclnn_nll_loss2d_backward.h"
#include "aclnnop/aclnn_nll_loss_backward.h"

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
    aclTensor* self = nullptr;
    aclTensor* target = nullptr;
    aclTensor* weight = nullptr;
    aclTensor* losses = nullptr;
    aclTensor* meanLoss = nullptr;
    aclTensor* totalWeight = nullptr;
    aclTensor* gradOutput = nullptr;
    aclTensor* gradient = nullptr;
    CHECK_RET(CreateAclTensor(std::vector<float>{0, 1, 2, 3, 4, 5}, {2, 3}, ACL_FLOAT, &deviceAddrs, &self) == 0,
              return 1);
    CHECK_RET(CreateAclTensor(std::vector<int32_t>{0, 2}, {2}, ACL_INT32, &deviceAddrs, &target) == 0, return 1);
    CHECK_RET(CreateAclTensor(std::vector<float>{1.1f, 1.2f, 1.3f}, {3}, ACL_FLOAT, &deviceAddrs, &weight) == 0,
              return 1);
    CHECK_RET(CreateAclTensor(std::vector<float>(2, 0), {2}, ACL_FLOAT, &deviceAddrs, &losses) == 0, return 1);
    void* lossesAddr = deviceAddrs.back();
    CHECK_RET(CreateAclTensor(std::vector<float>(1, 0), {}, ACL_FLOAT, &deviceAddrs, &meanLoss) == 0, return 1);
    void* meanLossAddr = deviceAddrs.back();
    CHECK_RET(CreateAclTensor(std::vector<float>(1, 0), {1}, ACL_FLOAT, &deviceAddrs, &totalWeight) == 0, return 1);
    void* totalWeightAddr = deviceAddrs.back();
    CHECK_RET(CreateAclTensor(std::vector<float>{3.1f, 6.5f}, {2}, ACL_FLOAT, &deviceAddrs, &gradOutput) == 0,
              return 1);
    CHECK_RET(CreateAclTensor(std::vector<float>(6, 0), {2, 3}, ACL_FLOAT, &deviceAddrs, &gradient) == 0, return 1);
    void* gradientAddr = deviceAddrs.back();

    std::vector<float> image;
    for (int i = 0; i < 12; ++i) {
        image.push_back(i + 0.1f);
    }
    aclTensor* image2d = nullptr;
    aclTensor* target2d = nullptr;
    aclTensor* weight2d = nullptr;
    aclTensor* losses2d = nullptr;
    aclTensor* totalWeight2d = nullptr;
    CHECK_RET(CreateAclTensor(image, {1, 2, 3, 2}, ACL_FLOAT, &deviceAddrs, &image2d) == 0, return 1);
    CHECK_RET(CreateAclTensor(std::vector<int32_t>{1, 0, 1, 1, 2, 1}, {1, 3, 2}, ACL_INT32, &deviceAddrs,
                              &target2d) == 0, return 1);
    CHECK_RET(CreateAclTensor(std::vector<float>{1.1f, 1.2f}, {2}, ACL_FLOAT, &deviceAddrs, &weight2d) == 0,
              return 1);
    CHECK_RET(CreateAclTensor(std::vector<float>(6, 0), {1, 3, 2}, ACL_FLOAT, &deviceAddrs, &losses2d) == 0,
              return 1);
    CHECK_RET(CreateAclTensor(std::vector<float>(1, 0), {1}, ACL_FLOAT, &deviceAddrs, &totalWeight2d) == 0,
              return 1);

    aclTensor* grad2d = nullptr;
    aclTensor* self2d = nullptr;
    aclTensor* targetInt64 = nullptr;
    aclTensor* ones = nullptr;
    aclTensor* one = nullptr;
    aclTensor* gradient2d = nullptr;
    CHECK_RET(CreateAclTensor(std::vector<float>{2.7f, 2.6f, 2.5f}, {3, 1, 1}, ACL_FLOAT, &deviceAddrs, &grad2d) == 0,
              return 1);
    CHECK_RET(CreateAclTensor(std::vector<float>(15, 4.1f), {3, 5, 1, 1}, ACL_FLOAT, &deviceAddrs, &self2d) == 0,
              return 1);
    CHECK_RET(CreateAclTensor(std::vector<int64_t>{2, 3, 1}, {3, 1, 1}, ACL_INT64, &deviceAddrs, &targetInt64) == 0,
              return 1);
    CHECK_RET(CreateAclTensor(std::vector<float>(5, 1), {5}, ACL_FLOAT, &deviceAddrs, &ones) == 0, return 1);
    CHECK_RET(CreateAclTensor(std::vector<float>(1, 1), {1}, ACL_FLOAT, &deviceAddrs, &one) == 0, return 1);
    CHECK_RET(CreateAclTensor(std::vector<float>(15, 0), {3, 5, 1, 1}, ACL_FLOAT, &deviceAddrs, &gradient2d) == 0,
              return 1);
    void* gradient2dAddr = deviceAddrs.back();

    // 3. The operators, both phases each, in order on one stream.
    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    ret = aclnnNLLLossGetWorkspaceSize(self, target, weight, 0, -100, losses, totalWeight, &workspaceSize, &executor);
    ret = RunPhase2("aclnnNLLLoss", ret, workspaceSize, executor, stream, aclnnNLLLoss, &deviceAddrs);
    CHECK_RET(ret == 0, LOG_PRINT("aclnnNLLLoss failed. ERROR: %d, %s\n", ret, aclGetRecentErrMsg()); return ret);
    ret = aclnnNLLLossGetWorkspaceSize(self, target, weight, 1, -100, meanLoss, totalWeight, &workspaceSize,
                                       &executor);
    ret = RunPhase2("aclnnNLLLoss", ret, workspaceSize, executor, stream, aclnnNLLLoss, &deviceAddrs);
    CHECK_RET(ret == 0, LOG_PRINT("aclnnNLLLoss failed. ERROR: %d, %s\n", ret, aclGetRecentErrMsg()); return ret);
    ret = aclnnNLLLossBackwardGetWorkspaceSize(gradOutput, self, target, weight, 0, -100, totalWeight, gradient,
                                               &workspaceSize, &executor);
    ret = RunPhase2("aclnnNLLLossBackward", ret, workspaceSize, executor, stream, aclnnNLLLossBackward,
                    &deviceAddrs);
    CHECK_RET(ret == 0, LOG_PRINT("aclnnNLLLossBackward failed. ERROR: %d, %s\n", ret, aclGetRecentErrMsg());
              return ret);
    // CANN's sample's target 2 is not a class of two: the kernel fails, before writing anything, and the stream's
    // synchronisation says so.
    ret = aclnnNLLLoss2dGetWorkspaceSize(image2d, target2d, weight2d, 0, -100, losses2d, totalWeight2d,
                                         &workspaceSize, &executor);
    ret = RunPhase2("aclnnNLLLoss2d", ret, workspaceSize, executor, stream, aclnnNLLLoss2d, &deviceAddrs);
    CHECK_RET(ret == 0, LOG_PRINT("aclnnNLLLoss2d failed. ERROR: %d, %s\n", ret, aclGetRecentErrMsg()); return ret);
    LOG_PRINT("nll loss 2d synchronisation status is: %d\n", aclrtSynchronizeStream(stream));
    ret = aclnnNLLLoss2dBackwardGetWorkspaceSize(grad2d, self2d, targetInt64, ones, 0, -100, one, gradient2d,
                                                 &workspaceSize, &executor);
    ret = RunPhase2("aclnnNLLLoss2dBackward", ret, workspaceSize, executor, stream, aclnnNLLLoss2dBackward,
                    &deviceAddrs);
    CHECK_RET(ret == 0, LOG_PRINT("aclnnNLLLoss2dBackward failed. ERROR: %d, %s\n", ret, aclGetRecentErrMsg());
              return ret);
    ret = aclrtSynchronizeStream(stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSynchronizeStream failed. ERROR: %d\n", ret); return ret);

    // 4. The results.
    PrintResult("nll loss", lossesAddr, 2);
    PrintResult("mean nll loss", meanLossAddr, 1);
    PrintResult("total weight", totalWeightAddr, 1);
    PrintResult("nll loss gradient", gradientAddr, 6);
    PrintResult("nll loss 2d gradient", gradient2dAddr, 15);

    // 5. Release everything.
    for (aclTensor* tensor : {self, target, weight, losses, meanLoss, totalWeight, gradOutput, gradient, image2d,
                              target2d, weight2d, losses2d, totalWeight2d, grad2d, self2d, targetInt64, ones, one,
                              gradient2d}) {
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
