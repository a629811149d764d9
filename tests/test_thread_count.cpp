// aclnnCpuSetThreadCount: a per-thread thread count for the operators, over ACLNN_CPU_NUM_THREADS, as the
// PyTorch integration uses it to follow torch.get_num_threads(). The count the engine reads at phase 2 is
// aclnn_cpu::ConfiguredThreadCount(), checked here directly: the operators' bits do not depend on it. And a
// process forked after a multi-threaded call computes and returns (OpenMP's pool does not survive fork).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <random>
#include <thread>

#include "acl/acl.h"
#include "aclnn_cpu/aclnn_cpu.h"
#include "common/config.h"
#include "support/device_tensor.h"
#include "support/operator_harness.h"

namespace {

class ThreadCount : public ::testing::Test {
protected:
    void SetUp() override { setenv("ACLNN_CPU_NUM_THREADS", "3", 1); }
    void TearDown() override {
        aclnnCpuSetThreadCount(0);
        unsetenv("ACLNN_CPU_NUM_THREADS");
    }
};

TEST_F(ThreadCount, TheEnvironmentUntilSet) { EXPECT_EQ(aclnn_cpu::ConfiguredThreadCount(), 3); }

TEST_F(ThreadCount, SetCountWinsOnTheCallingThreadOnly) {
    ASSERT_EQ(aclnnCpuSetThreadCount(2), ACL_SUCCESS);
    EXPECT_EQ(aclnn_cpu::ConfiguredThreadCount(), 2);
    int other = 0;
    std::thread([&other] { other = aclnn_cpu::ConfiguredThreadCount(); }).join();
    EXPECT_EQ(other, 3) << "another thread keeps the environment's count";
    ASSERT_EQ(aclnnCpuSetThreadCount(0), ACL_SUCCESS);
    EXPECT_EQ(aclnn_cpu::ConfiguredThreadCount(), 3) << "0 goes back to the environment";
}

TEST_F(ThreadCount, BadCountsAreRefusedAndChangeNothing) {
    ASSERT_EQ(aclnnCpuSetThreadCount(5), ACL_SUCCESS);
    for (int bad : {-1, 4097}) {
        EXPECT_EQ(aclnnCpuSetThreadCount(bad), ACL_ERROR_INVALID_PARAM);
        const char* message = aclGetRecentErrMsg();
        ASSERT_NE(message, nullptr);
        EXPECT_NE(std::strstr(message, "aclnnCpuSetThreadCount: count is"), nullptr) << message;
        EXPECT_EQ(aclnn_cpu::ConfiguredThreadCount(), 5);
    }
}

// The sum of a soft margin loss over 4M elements with two threads, as its bits.
std::vector<uint8_t> TwoThreadLoss(const test_support::DeviceTensor& self, const test_support::DeviceTensor& target,
                                   const test_support::DeviceTensor& out) {
    if (aclnnCpuSetThreadCount(2) != ACL_SUCCESS) return {};
    if (test_support::RunSoftMarginLoss(self.tensor(), target.tensor(), 2, out.tensor()) != ACLNN_SUCCESS) return {};
    return out.Download();
}

TEST_F(ThreadCount, AChildForkedAfterAMultiThreadedCallComputesTheSameBits) {
    using test_support::DeviceTensor;
    std::mt19937_64 rng(41);
    std::uniform_real_distribution<double> real(-4.0, 4.0);
    const int64_t n = int64_t{1} << 22;
    DeviceTensor self(test_support::Dense({n}, ACL_FLOAT), rng, [&](std::mt19937_64& r) { return real(r); });
    DeviceTensor target(test_support::Dense({n}, ACL_FLOAT), rng, [&](std::mt19937_64& r) { return real(r); });
    DeviceTensor out(test_support::Dense({}, ACL_FLOAT), rng, [](std::mt19937_64&) { return 0.0; });
    const std::vector<uint8_t> parent = TwoThreadLoss(self, target, out);
    ASSERT_FALSE(parent.empty());
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        alarm(60);  // a hang ends the child by SIGALRM, which the parent reports
        const std::vector<uint8_t> again = TwoThreadLoss(self, target, out);
        const std::vector<uint8_t> third = TwoThreadLoss(self, target, out);
        _exit(again == parent && third == parent ? 0 : 3);
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status)) << "the child ended by signal " << (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    EXPECT_EQ(WEXITSTATUS(status), 0) << "the child's bits differ from the parent's";
    EXPECT_EQ(TwoThreadLoss(self, target, out), parent) << "the parent keeps its threads";
}

}  // namespace
