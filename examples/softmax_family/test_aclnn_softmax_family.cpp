/*
 * The softmax family on small inputs -- a classifier's probabilities, their logarithms, and the gradients of both
 * -- written the way CANN's aclnn samples are written: it builds unchanged against CANN on an Ascend NPU and
 * against aclnn-cpu on any machine. The inputs are those of CANN's own samples for these functions:
 *   aclnnSoftmax, self [4, 2] = [0, 1, ..., 7], dim 0 (each column): out = exp(x - max) / sum(exp(x - max));
 *   aclnnLogSoftmax, self [3, 3] = [1, 2, ..., 9], dim 1 (each row): out = (x - max) - log(sum(exp(x - max)));
 *   aclnnSoftmaxBackward, gradOutput g [4, 2] = [0, 1, ..., 7], output y = [1, 1, 1, 2, 2, 2, 3, 3], dim 0:
 *     out = y * g - y * sum(y * g) (the column sums 28 and 38);
 *   aclnnLogSoftmaxBackward, the same g and y, dim 0: out = g - exp(y) * sum(g) (the column sums 12 and 16).
 */
#include <iostream>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_logsoftmax.h"
#include "aclnnop/aclnn_logsoftmax_backward.h"
#include "aclnnop/aclnn_softmax.h"
#include "aclnnop/aclnn_softmax_backward.h"

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

    // 2. Inputs and outputs (fp32, contiguous); each out has its inputs' shape.
    std::vector<void*> deviceAddrs;  // every device allocation, freed at the end
    std::vector<int64_t> columnShape = {4, 2};
    std::vector<int64_t> rowShape = {3, 3};
    aclTensor* logits = nullptr;
    aclTensor* rows = nullptr;
    aclTensor* gradOutput = nullptr;
    aclTensor* output = nullptr;
    aclTensor* probabilities = nullptr;
    aclTensor* logProbabilities = nullptr;
    aclTensor* softmaxGradient = nullptr;
    aclTensor* logSoftmaxGradient = nullptr;
    CHECK_RET(CreateAclTensor({0, 1, 2, 3, 4, 5, 6, 7}, columnShape, &deviceAddrs, &logits) == 0, return 1);
    CHECK_RET(CreateAclTensor({1, 2, 3, 4, 5, 6, 7, 8, 9}, rowShape, &deviceAddrs, &rows) == 0, return 1);
    CHECK_RET(CreateAclTensor({0, 1, 2, 3, 4, 5, 6, 7}, columnShape, &deviceAddrs, &gradOutput) == 0, return 1);
    CHECK_RET(CreateAclTensor({1, 1, 1, 2, 2, 2, 3, 3}, columnShape, &deviceAddrs, &output) == 0, return 1);
    CHECK_RET(CreateAclTensor(std::vector<float>(8, 0), columnShape, &deviceAddrs, &probabilities) == 0, return 1);
    void* probabilitiesAddr = deviceAddrs.back();
    CHECK_RET(CreateAclTensor(std::vector<float>(9, 0), rowShape, &deviceAddrs, &logProbabilities) == 0, return 1);
    void* logProbabilitiesAddr = deviceAddrs.back();
    CHECK_RET(CreateAclTensor(std::vector<float>(8, 0), columnShape, &deviceAddrs, &softmaxGradient) == 0, return 1);
    void* softmaxGradientAddr = deviceAddrs.back();
    CHECK_RET(CreateAclTensor(std::vector<float>(8, 0), columnShape, &deviceAddrs, &logSoftmaxGradient) == 0,
              return 1);
    void* logSoftmaxGradientAddr = deviceAddrs.back();

    // 3. The four operators, both phases each, in order on one stream.
    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    ret = aclnnSoftmaxGetWorkspaceSize(logits, 0, probabilities, &workspaceSize, &executor);
    ret = RunPhase2("aclnnSoftmax", ret, workspaceSize, executor, stream, aclnnSoftmax, &deviceAddrs);
    CHECK_RET(ret == 0, return ret);
    ret = aclnnLogSoftmaxGetWorkspaceSize(rows, 1, logProbabilities, &workspaceSize, &executor);
    ret = RunPhase2("aclnnLogSoftmax", ret, workspaceSize, executor, stream, aclnnLogSoftmax, &deviceAddrs);
    CHECK_RET(ret == 0, return ret);
    ret = aclnnSoftmaxBackwardGetWorkspaceSize(gradOutput, output, 0, softmaxGradient, &workspaceSize, &executor);
    ret = RunPhase2("aclnnSoftmaxBackward", ret, workspaceSize, executor, stream, aclnnSoftmaxBackward, &deviceAddrs);
    CHECK_RET(ret == 0, return ret);
    ret = aclnnLogSoftmaxBackwardGetWorkspaceSize(gradOutput, output, 0, logSoftmaxGradient, &workspaceSize,
                                                  &executor);
    ret = RunPhase2("aclnnLogSoftmaxBackward", ret, workspaceSize, executor, stream, aclnnLogSoftmaxBackward,
                    &deviceAddrs);
    CHECK_RET(ret == 0, return ret);
    ret = aclrtSynchronizeStream(stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSynchronizeStream failed. ERROR: %d\n", ret); return ret);

    // 4. The results.
    CHECK_RET(PrintResult("softmax", probabilitiesAddr, 8) == 0, return 1);
    CHECK_RET(PrintResult("log softmax", logProbabilitiesAddr, 9) == 0, return 1);
    CHECK_RET(PrintResult("softmax gradient", softmaxGradientAddr, 8) == 0, return 1);
    CHECK_RET(PrintResult("log softmax gradient", logSoftmaxGradientAddr, 8) == 0, return 1);

    // 5. Release everything.
    for (aclTensor* tensor : {logits, rows, gradOutput, output, probabilities, logProbabilities, softmaxGradient,
                              logSoftmaxGradient}) {
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
