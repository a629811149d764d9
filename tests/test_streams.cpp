// Streams (docs/contract.md section 1): in-order execution of async copies, memsets and operators on one stream,
// several threads each driving their own stream and the default stream at once, stream destruction with
// work still queued, and the misuse statuses.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_soft_margin_loss_backward.h"
#include "random_cases.h"
#include "reference.h"
#include "operator_harness.h"

namespace {

using namespace test_support;

// Enqueues phase 2 of one operator call on stream (phase 1 runs now).
void EnqueueOperator(DeviceTensor& grad, DeviceTensor& self, DeviceTensor& target, DeviceTensor& out,
                     int64_t reduction, aclrtStream stream) {
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnSoftMarginLossBackwardGetWorkspaceSize(grad.tensor(), self.tensor(), target.tensor(), reduction,
                                                          out.tensor(), &workspace_size, &executor),
              0)
        << aclGetRecentErrMsg();
    ASSERT_EQ(workspace_size, 0u);
    ASSERT_EQ(aclnnSoftMarginLossBackward(nullptr, 0, executor, stream), 0) << aclGetRecentErrMsg();
}

// One thread's work: `iterations` rounds of new inputs copied in asynchronously, the operator, and the result
// copied out asynchronously, then a sync and a check of every element.
void DriveStream(aclrtStream stream, uint64_t seed, int iterations, int* failures) {
    std::mt19937_64 rng(seed);
    const Uniform values{6.0};
    const std::vector<int64_t> shape = {37, 29};
    DeviceTensor grad(Dense({29}, ACL_FLOAT), rng, values);
    DeviceTensor self(Dense(shape, ACL_FLOAT16), rng, values);
    DeviceTensor target(Dense(shape, ACL_BF16), rng, values);
    DeviceTensor out(Dense(shape, ACL_FLOAT), rng, values);
    std::vector<uint8_t> result(static_cast<size_t>(out.storage_bytes()));
    for (int i = 0; i < iterations; ++i) {
        // New self values: written to the host mirror, then copied in on the stream.
        for (int64_t e = 0; e < 37 * 29; ++e) self.SetStorage(e, values(rng));
        ASSERT_EQ(aclrtMemcpyAsync(self.device(), self.storage_bytes(), self.host().data(), self.storage_bytes(),
                                   ACL_MEMCPY_HOST_TO_DEVICE, stream),
                  ACL_SUCCESS);
        ASSERT_EQ(aclrtMemsetAsync(out.device(), out.storage_bytes(), 0, out.storage_bytes(), stream), ACL_SUCCESS);
        EnqueueOperator(grad, self, target, out, i % 3, stream);
        ASSERT_EQ(aclrtMemcpyAsync(result.data(), result.size(), out.device(), out.storage_bytes(),
                                   ACL_MEMCPY_DEVICE_TO_HOST, stream),
                  ACL_SUCCESS);
        ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
        const std::string failure =
            VerifyAgainstReference({&grad, &self, &target}, i % 3, out.spec(), result, result);
        if (!failure.empty()) {
            ++*failures;
            ADD_FAILURE() << "seed " << seed << " iteration " << i << ": " << failure;
        }
    }
}

TEST(Streams, InOrderOnOneStream) {
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    int failures = 0;
    DriveStream(stream, 11, 10, &failures);
    EXPECT_EQ(failures, 0);
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST(Streams, LaterWorkSeesEarlierWork) {
    // Two operator calls on one stream, the second reading what the first wrote (out of call 1 is self of
    // call 2), with no sync between them: only in-order execution gives the right answer.
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    std::mt19937_64 rng(3);
    const Uniform values{3.0};
    DeviceTensor grad(Dense({1000}, ACL_FLOAT), rng, values);
    DeviceTensor self(Dense({1000}, ACL_FLOAT), rng, values);
    DeviceTensor target(Dense({1000}, ACL_FLOAT), rng, values);
    DeviceTensor middle(Dense({1000}, ACL_FLOAT), rng, values);
    DeviceTensor out(Dense({1000}, ACL_FLOAT), rng, values);
    EnqueueOperator(grad, self, target, middle, 0, stream);
    EnqueueOperator(grad, middle, target, out, 0, stream);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    // The expected second result uses the first result as self.
    const std::vector<uint8_t> first = middle.Download();
    for (int64_t i = 0; i < 1000; ++i) middle.SetStorage(i, DecodeElement(first.data() + 4 * i, ACL_FLOAT));
    const std::string failure =
        VerifyAgainstReference({&grad, &middle, &target}, 0, out.spec(), out.Download(), out.host());
    EXPECT_TRUE(failure.empty()) << failure;
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST(Streams, ManyThreadsOwnStreamsAndTheDefaultStream) {
    constexpr int kThreads = 6;
    std::vector<std::thread> threads;
    std::vector<int> failures(kThreads, 0);
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([t, &failures] {
            aclrtStream stream = nullptr;
            if (t % 3 != 0) {  // t % 3 == 0: the default stream
                ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
            }
            DriveStream(stream, 100 + t, 15, &failures[t]);
            if (stream != nullptr) {
                EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
            }
        });
    }
    for (auto& thread : threads) thread.join();
    for (int t = 0; t < kThreads; ++t) EXPECT_EQ(failures[t], 0) << "thread " << t;
}

TEST(Streams, DestroyWaitsForQueuedWork) {
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    std::mt19937_64 rng(8);
    const Uniform values{4.0};
    DeviceTensor grad(Dense({}, ACL_FLOAT), rng, values);
    DeviceTensor self(Dense({512, 512}, ACL_FLOAT), rng, values);
    DeviceTensor target(Dense({512, 512}, ACL_FLOAT), rng, values);
    DeviceTensor out(Dense({512, 512}, ACL_FLOAT), rng, values);
    for (int i = 0; i < 4; ++i) EnqueueOperator(grad, self, target, out, 2, stream);
    ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);  // no sync: destroy drains the queue first
    const std::string failure =
        VerifyAgainstReference({&grad, &self, &target}, 2, out.spec(), out.Download(), out.host());
    EXPECT_TRUE(failure.empty()) << failure;
}

TEST(Streams, FinalizeWaitsForQueuedWork) {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    std::mt19937_64 rng(9);
    const Uniform values{4.0};
    DeviceTensor grad(Dense({}, ACL_FLOAT), rng, values);
    DeviceTensor self(Dense({256, 256}, ACL_FLOAT), rng, values);
    DeviceTensor target(Dense({256, 256}, ACL_FLOAT), rng, values);
    DeviceTensor out(Dense({256, 256}, ACL_FLOAT), rng, values);
    EnqueueOperator(grad, self, target, out, 0, nullptr);
    ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
    const std::string failure =
        VerifyAgainstReference({&grad, &self, &target}, 0, out.spec(), out.Download(), out.host());
    EXPECT_TRUE(failure.empty()) << failure;
}

TEST(Streams, Misuse) {
    EXPECT_EQ(aclrtCreateStream(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtDestroyStream(nullptr), ACL_ERROR_INVALID_PARAM);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_ERROR_RT_PARAM_INVALID) << "destroyed twice";
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_PARAM_INVALID) << "sync of a destroyed stream";
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("not a live stream"), std::string::npos);
    EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS) << "the default stream always exists";
}

TEST(Streams, OperatorOnADestroyedStreamIsRejected) {
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    std::mt19937_64 rng(2);
    const Uniform values{1.0};
    DeviceTensor grad(Dense({4}, ACL_FLOAT), rng, values);
    DeviceTensor self(Dense({4}, ACL_FLOAT), rng, values);
    DeviceTensor target(Dense({4}, ACL_FLOAT), rng, values);
    DeviceTensor out(Dense({4}, ACL_FLOAT), rng, values);
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnSoftMarginLossBackwardGetWorkspaceSize(grad.tensor(), self.tensor(), target.tensor(), 0,
                                                          out.tensor(), &workspace_size, &executor),
              0);
    EXPECT_EQ(aclnnSoftMarginLossBackward(nullptr, 0, executor, stream), 161002);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("stream"), std::string::npos);
    EXPECT_EQ(out.Download(), out.host()) << "nothing was written";
}

}  // namespace
