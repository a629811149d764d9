// CANN's allocation padding as real programs meet it: aclrtMalloc rounds a request up to 32 bytes and adds 32,
// aclrtMallocAlign32 only rounds, and copies, memsets and operator operands may address exactly those bytes
// (with a warning in the log) and not one more, whatever ACLNN_CPU_STRICT_MEMORY says. Also the SoC name
// programs check, and how a program learns it runs on aclnn-cpu.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn_cpu/aclnn_cpu.h"
#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_soft_margin_loss.h"

namespace {

std::string RecentMessage() {
    const char* message = aclGetRecentErrMsg();
    return message == nullptr ? std::string() : std::string(message);
}

std::string Hex(const void* pointer) {
    char text[32];
    std::snprintf(text, sizeof text, "%p", pointer);
    return text;
}

// Sets an environment variable for one scope.
class ScopedEnv {
public:
    ScopedEnv(const char* name, const char* value) : name_(name) {
        const char* old = std::getenv(name);
        if (old != nullptr) old_ = old;
        had_ = old != nullptr;
        setenv(name, value, 1);
    }
    ~ScopedEnv() {
        if (had_) setenv(name_, old_.c_str(), 1);
        else unsetenv(name_);
    }

private:
    const char* name_;
    std::string old_;
    bool had_ = false;
};

struct PaddingCase {
    size_t size;
    size_t usable_malloc;     // round up to 32, plus 32
    size_t usable_align32;    // round up to 32
};

const std::vector<PaddingCase>& Cases() {
    static const std::vector<PaddingCase> cases = {
        {1, 64, 32}, {31, 64, 32}, {32, 64, 32}, {33, 96, 64}, {64, 96, 64}, {1000, 1056, 1024}, {65536, 65568, 65536},
    };
    return cases;
}

// Copies usable bytes out of the block (the last valid byte of the padding) and usable + 1 (one past it).
void ExpectBoundaryAt(void* block, size_t size, size_t usable) {
    std::vector<unsigned char> host(usable + 64, 0xEE);
    EXPECT_EQ(aclrtMemcpy(host.data(), host.size(), block, size, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS) << size;
    EXPECT_EQ(aclrtMemcpy(host.data(), host.size(), block, usable, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS)
        << size << ": the last byte of the padding is addressable";
    for (size_t i = size; i < usable; ++i) ASSERT_EQ(host[i], 0) << "padding byte " << i << " reads as zero";
    EXPECT_EQ(aclrtMemcpy(host.data(), host.size(), block, usable + 1, ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_ERROR_RT_PARAM_INVALID) << size << ": one byte past the padding";
    EXPECT_EQ(host[usable], 0xEE) << "a refused copy writes nothing";
    EXPECT_EQ(aclrtMemcpy(block, usable, host.data(), usable, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS) << size;
    EXPECT_EQ(aclrtMemcpy(block, usable + 1, host.data(), usable + 1, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_ERROR_RT_PARAM_INVALID) << size;
    EXPECT_EQ(aclrtMemset(block, usable, 0, usable), ACL_SUCCESS) << size;
    EXPECT_EQ(aclrtMemset(block, usable + 1, 0, usable + 1), ACL_ERROR_RT_PARAM_INVALID) << size;
    // A range starting inside the padding is the block's too.
    EXPECT_EQ(aclrtMemcpy(host.data(), host.size(), static_cast<char*>(block) + usable - 1, 1,
                          ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS) << size;
    EXPECT_EQ(aclrtMemcpy(host.data(), host.size(), static_cast<char*>(block) + usable - 1, 2,
                          ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID) << size;
}

TEST(AllocationPadding, MallocAddsThirtyTwoBytesAfterRounding) {
    for (const PaddingCase& c : Cases()) {
        void* block = nullptr;
        ASSERT_EQ(aclrtMalloc(&block, c.size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        EXPECT_EQ(reinterpret_cast<uintptr_t>(block) % 64, 0u);
        ExpectBoundaryAt(block, c.size, c.usable_malloc);
        EXPECT_EQ(aclrtFree(block), ACL_SUCCESS);
    }
}

TEST(AllocationPadding, MallocAlign32OnlyRounds) {
    for (const PaddingCase& c : Cases()) {
        void* block = nullptr;
        ASSERT_EQ(aclrtMallocAlign32(&block, c.size, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
        EXPECT_EQ(reinterpret_cast<uintptr_t>(block) % 64, 0u);
        ExpectBoundaryAt(block, c.size, c.usable_align32);
        EXPECT_EQ(aclrtFree(block), ACL_SUCCESS) << "aclrtFree releases aclrtMallocAlign32 blocks";
    }
}

TEST(AllocationPadding, GigaHugePagesAreOnlyRounded) {
    // CANN saves 1 GiB huge pages the extra 32 bytes.
    void* block = nullptr;
    ASSERT_EQ(aclrtMalloc(&block, 33, ACL_MEM_MALLOC_HUGE1G_ONLY), ACL_SUCCESS);
    ExpectBoundaryAt(block, 33, 64);
    EXPECT_EQ(aclrtFree(block), ACL_SUCCESS);
}

TEST(AllocationPadding, Align32Misuse) {
    void* untouched = reinterpret_cast<void*>(0x5a5a);
    EXPECT_EQ(aclrtMallocAlign32(nullptr, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(RecentMessage().find("devPtr"), std::string::npos) << RecentMessage();
    EXPECT_EQ(aclrtMallocAlign32(&untouched, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(RecentMessage().find("size"), std::string::npos) << RecentMessage();
    EXPECT_EQ(aclrtMallocAlign32(&untouched, SIZE_MAX - 8, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
    EXPECT_EQ(untouched, reinterpret_cast<void*>(0x5a5a)) << "a failed allocation writes nothing";
}

TEST(AllocationPadding, PaddingUseIsLoggedAsAWarning) {
    void* block = nullptr;
    ASSERT_EQ(aclrtMalloc(&block, 100, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);  // 160 usable
    char host[160] = {};
    {
        ScopedEnv level("ASCEND_GLOBAL_LOG_LEVEL", "2");
        testing::internal::CaptureStderr();
        EXPECT_EQ(aclrtMemcpy(host, sizeof host, block, 100, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
        EXPECT_EQ(testing::internal::GetCapturedStderr(), "") << "inside the request: no warning";
        testing::internal::CaptureStderr();
        EXPECT_EQ(aclrtMemcpy(host, sizeof host, block, 130, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
        const std::string log = testing::internal::GetCapturedStderr();
        for (const std::string& part : {std::string("WARNING"), std::string("aclrtMemcpy"), std::string("src"),
                                       std::string("30 bytes past the 100 bytes requested"), Hex(block),
                                       std::string("160 usable")}) {
            EXPECT_NE(log.find(part), std::string::npos) << "\"" << log << "\" lacks \"" << part << "\"";
        }
    }
    {
        ScopedEnv level("ASCEND_GLOBAL_LOG_LEVEL", "3");  // errors only, CANN's default
        testing::internal::CaptureStderr();
        EXPECT_EQ(aclrtMemcpy(host, sizeof host, block, 130, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
        EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
    }
    EXPECT_EQ(aclrtFree(block), ACL_SUCCESS);
}

TEST(AllocationPadding, OverrunMessageNamesTheBlockAndTheRange) {
    void* block = nullptr;
    ASSERT_EQ(aclrtMalloc(&block, 65536, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    std::vector<char> host(131072);
    EXPECT_EQ(aclrtMemcpy(host.data(), host.size(), block, host.size(), ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_ERROR_RT_PARAM_INVALID);
    const std::string message = RecentMessage();
    for (const std::string& part : {std::string("aclrtMemcpy"), std::string("src"), "[" + Hex(block) +
                                   ", +131072 bytes)", std::string("65504 bytes past the end"),
                                   "aclrtMalloc block at " + Hex(block) + " of 65536 bytes",
                                   std::string("65568 usable")}) {
        EXPECT_NE(message.find(part), std::string::npos) << "\"" << message << "\" lacks \"" << part << "\"";
    }
    EXPECT_EQ(aclrtFree(block), ACL_SUCCESS);
}

// ACLNN_CPU_STRICT_MEMORY=0 admits memory the library does not know; a range that starts in a known block
// and runs past its padding stays an error (here it used to read past the block and crash).
TEST(AllocationPadding, StrictOffStillRefusesOverruns) {
    ScopedEnv strict("ACLNN_CPU_STRICT_MEMORY", "0");
    void* block = nullptr;
    ASSERT_EQ(aclrtMalloc(&block, 65536, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    std::vector<char> host(131072, 1), other(131072, 2);
    EXPECT_EQ(aclrtMemcpy(host.data(), host.size(), block, host.size(), ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_NE(RecentMessage().find("past the end"), std::string::npos) << RecentMessage();
    EXPECT_EQ(aclrtMemcpy(block, host.size(), host.data(), host.size(), ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_EQ(aclrtMemcpyAsync(host.data(), host.size(), block, host.size(), ACL_MEMCPY_DEVICE_TO_HOST, nullptr),
              ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_EQ(aclrtMemset(block, host.size(), 0, host.size()), ACL_ERROR_RT_PARAM_INVALID);
    // A mislabelled kind does not hide it: the "host" side starts in the block too.
    EXPECT_EQ(aclrtMemcpy(host.data(), host.size(), block, host.size(), ACL_MEMCPY_HOST_TO_HOST),
              ACL_ERROR_RT_PARAM_INVALID);
    // What strict off is for: host buffers as device memory.
    EXPECT_EQ(aclrtMemcpy(host.data(), host.size(), other.data(), other.size(), ACL_MEMCPY_DEVICE_TO_DEVICE),
              ACL_SUCCESS);
    EXPECT_EQ(host[131071], 2);
    EXPECT_EQ(aclrtMemcpy(host.data(), host.size(), block, 65568, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(block), ACL_SUCCESS);
}

// The loss over a float view whose last element is the last 4 bytes of the padding, then one element further.
class OperandPadding : public testing::Test {
protected:
    void SetUp() override {
        ASSERT_EQ(aclrtMalloc(&self_block_, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);  // 96 usable
        ASSERT_EQ(aclrtMalloc(&target_block_, 96, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        ASSERT_EQ(aclrtMalloc(&out_block_, 96, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        std::vector<float> ones(24, 1.0f);
        ASSERT_EQ(aclrtMemcpy(target_block_, 96, ones.data(), 96, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
        std::vector<float> self(24, 0.0f);  // the 16 requested floats and 8 of padding: loss log(2) each
        ASSERT_EQ(aclrtMemcpy(self_block_, 96, self.data(), 96, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    }
    void TearDown() override {
        aclrtFree(self_block_);
        aclrtFree(target_block_);
        aclrtFree(out_block_);
    }
    // Runs the loss (reduction none) over 8 floats of self starting at element offset.
    aclnnStatus RunWithSelfOffset(int64_t offset) {
        const int64_t dims[] = {8};
        const int64_t strides[] = {1};
        aclTensor* self = aclCreateTensor(dims, 1, ACL_FLOAT, strides, offset, ACL_FORMAT_ND, dims, 1, self_block_);
        aclTensor* target = aclCreateTensor(dims, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, dims, 1, target_block_);
        aclTensor* out = aclCreateTensor(dims, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, dims, 1, out_block_);
        uint64_t workspace_size = 0;
        aclOpExecutor* executor = nullptr;
        aclnnStatus status = aclnnSoftMarginLossGetWorkspaceSize(self, target, 0, out, &workspace_size, &executor);
        if (status == ACLNN_SUCCESS) status = aclnnSoftMarginLoss(nullptr, 0, executor, nullptr);
        if (status == ACLNN_SUCCESS) status = aclrtSynchronizeStream(nullptr);
        aclDestroyTensor(self);
        aclDestroyTensor(target);
        aclDestroyTensor(out);
        return status;
    }
    void* self_block_ = nullptr;
    void* target_block_ = nullptr;
    void* out_block_ = nullptr;
};

TEST_F(OperandPadding, AViewEndingInThePaddingRuns) {
    std::vector<float> expected(8, 0.0f);
    ASSERT_EQ(aclrtMemcpy(out_block_, 32, expected.data(), 32, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    EXPECT_EQ(RunWithSelfOffset(16), ACLNN_SUCCESS) << RecentMessage();  // elements 16..23: bytes 64..95
    std::vector<float> out(8);
    ASSERT_EQ(aclrtMemcpy(out.data(), 32, out_block_, 32, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    for (float value : out) EXPECT_FLOAT_EQ(value, 0.69314718f);
}

TEST_F(OperandPadding, OneElementPastThePaddingIsRefusedStrictOrNot) {
    for (const char* strict : {"1", "0"}) {
        ScopedEnv setting("ACLNN_CPU_STRICT_MEMORY", strict);
        EXPECT_EQ(RunWithSelfOffset(17), ACLNN_ERR_PARAM_INVALID) << "strict " << strict;
        const std::string message = RecentMessage();
        for (const char* part : {"self", "4 bytes past the end", "aclrtMalloc block"}) {
            EXPECT_NE(message.find(part), std::string::npos) << "\"" << message << "\" lacks \"" << part << "\"";
        }
        EXPECT_EQ(message.find("ACLNN_CPU_STRICT_MEMORY"), std::string::npos)
            << "turning strictness off would not help, so the message does not suggest it";
    }
}

TEST(SocName, DefaultsToTheSocWhoseKernelsWeFollow) {
    ASSERT_EQ(std::getenv("ACLNN_CPU_SOC_NAME"), nullptr);
    EXPECT_STREQ(aclrtGetSocName(), "Ascend950PR_9599");
    // What CANN's example programs test before they run a 950-only operator.
    EXPECT_NE(std::strstr(aclrtGetSocName(), "Ascend950"), nullptr);
}

TEST(SocName, SettableAndStable) {
    const char* name = nullptr;
    {
        ScopedEnv soc("ACLNN_CPU_SOC_NAME", "Ascend910B1");
        name = aclrtGetSocName();
        EXPECT_STREQ(name, "Ascend910B1");
    }
    EXPECT_STREQ(name, "Ascend910B1") << "the returned string outlives the environment variable";
    ScopedEnv empty("ACLNN_CPU_SOC_NAME", "");
    EXPECT_STREQ(aclrtGetSocName(), "Ascend950PR_9599") << "an empty setting is the default";
}

TEST(SocName, AProgramCanTellItRunsOnAclnnCpu) {
    EXPECT_STREQ(aclnnCpuGetVersion(), ACLNN_CPU_TEST_VERSION);
    using VersionFunction = const char* (*)(void);
    const auto looked_up = reinterpret_cast<VersionFunction>(dlsym(RTLD_DEFAULT, "aclnnCpuGetVersion"));
    ASSERT_NE(looked_up, nullptr) << "the run-time check a program also built for CANN uses";
    EXPECT_STREQ(looked_up(), ACLNN_CPU_TEST_VERSION);
}

}  // namespace
