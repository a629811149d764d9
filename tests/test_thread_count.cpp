// aclnnCpuSetThreadCount: a per-thread thread count for the operators, over ACLNN_CPU_NUM_THREADS, as the
// PyTorch integration uses it to follow torch.get_num_threads(). The count the engine reads at phase 2 is
// aclnn_cpu::ConfiguredThreadCount(), checked here directly: the operators' bits do not depend on it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <thread>

#include "acl/acl.h"
#include "aclnn_cpu/aclnn_cpu.h"
#include "common/config.h"

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

}  // namespace
