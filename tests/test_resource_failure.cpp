// Resource failures: allocations that fail give statuses, never an abort. This test replaces the global
// operator new (for the whole process, the libraries included) with one that can be told to fail after a
// given number of allocations, and sweeps that number across every allocation a two-phase call makes.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_soft_margin_loss_backward.h"

namespace {

std::atomic<long> g_allocations_left{-1};  // -1: never fail

}  // namespace

void* operator new(std::size_t size) {
    const long left = g_allocations_left.load();
    if (left == 0) throw std::bad_alloc();
    if (left > 0) g_allocations_left.fetch_sub(1);
    if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
    throw std::bad_alloc();
}

void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
    try {
        return operator new(size);
    } catch (const std::bad_alloc&) {
        return nullptr;
    }
}

void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace {

struct Buffers {
    Buffers() {
        const int64_t dims[] = {3, 70000};  // large enough to go to the stream's worker thread
        for (int k = 0; k < 4; ++k) {
            EXPECT_EQ(aclrtMalloc(&device[k], sizeof(float) * 210000, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
            aclrtMemset(device[k], sizeof(float) * 210000, 0, sizeof(float) * 210000);
            tensors[k] = aclCreateTensor(dims, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 2, device[k]);
        }
    }
    ~Buffers() {
        for (int k = 0; k < 4; ++k) {
            aclDestroyTensor(tensors[k]);
            aclrtFree(device[k]);
        }
    }
    void* device[4];
    aclTensor* tensors[4];
};

// Runs first, while the default stream does not exist yet: synchronising it creates it, and when that fails
// the call returns a status instead of letting the exception cross the C boundary.
TEST(ResourceFailure, DefaultStreamCreationFailureIsAStatus) {
    int failures = 0;
    for (long allowed = 0; allowed < 20; ++allowed) {
        g_allocations_left.store(allowed);
        const aclError synced = aclrtSynchronizeStream(nullptr);
        g_allocations_left.store(-1);
        EXPECT_TRUE(synced == ACL_SUCCESS || synced == ACL_ERROR_RT_NO_STREAM_RESOURCE) << synced;
        if (synced != ACL_SUCCESS) {
            ++failures;
            ASSERT_NE(aclGetRecentErrMsg(), nullptr);
            EXPECT_NE(std::string(aclGetRecentErrMsg()).find("aclrtSynchronizeStream"), std::string::npos);
        }
    }
    EXPECT_GT(failures, 0) << "creating the default stream never failed";
    EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
}

TEST(ResourceFailure, HugeDeviceAllocationReturnsStatus) {
    void* p = reinterpret_cast<void*>(0x77);
    EXPECT_EQ(aclrtMalloc(&p, size_t{1} << 62, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
    EXPECT_EQ(p, reinterpret_cast<void*>(0x77));
    EXPECT_EQ(aclrtMallocHost(&p, size_t{1} << 62), ACL_ERROR_RT_MEMORY_ALLOCATION);
}

// Every allocation of a whole call, in turn, fails: the call returns a status (or succeeds when the failed
// allocation had a fallback), the process goes on, and a later call works.
TEST(ResourceFailure, EveryAllocationOfACallMayFail) {
    Buffers buffers;
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    int failed_calls = 0;
    for (long allowed = 0; allowed < 200; ++allowed) {
        g_allocations_left.store(allowed);
        uint64_t workspace_size = 0;
        aclOpExecutor* executor = nullptr;
        aclnnStatus status = aclnnSoftMarginLossBackwardGetWorkspaceSize(
            buffers.tensors[0], buffers.tensors[1], buffers.tensors[2], 0, buffers.tensors[3], &workspace_size,
            &executor);
        if (status == 0) status = aclnnSoftMarginLossBackward(nullptr, workspace_size, executor, stream);
        g_allocations_left.store(-1);
        const aclError sync = aclrtSynchronizeStream(stream);
        if (status != 0 || sync != 0) ++failed_calls;
        EXPECT_TRUE(status == 0 || status == 561000 || status == 561101 || status == 161002)
            << "allowed " << allowed << ": status " << status;
        EXPECT_TRUE(sync == ACL_SUCCESS || sync == ACL_ERROR_RT_MEMORY_ALLOCATION ||
                    sync == ACL_ERROR_RT_INTERNAL_ERROR)
            << "allowed " << allowed << ": sync " << sync;
    }
    EXPECT_GT(failed_calls, 0) << "the sweep never hit an allocation";
    // Everything still works afterwards.
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnSoftMarginLossBackwardGetWorkspaceSize(buffers.tensors[0], buffers.tensors[1], buffers.tensors[2],
                                                          0, buffers.tensors[3], &workspace_size, &executor),
              0);
    ASSERT_EQ(aclnnSoftMarginLossBackward(nullptr, 0, executor, stream), 0);
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST(ResourceFailure, RuntimeCallsSurviveFailingAllocations) {
    for (long allowed = 0; allowed < 40; ++allowed) {
        g_allocations_left.store(allowed);
        aclrtStream stream = nullptr;
        const aclError created = aclrtCreateStream(&stream);
        void* block = nullptr;
        const aclError malloced = aclrtMalloc(&block, 256, ACL_MEM_MALLOC_HUGE_FIRST);
        char host[256] = {};
        aclError copied = ACL_SUCCESS;
        if (malloced == ACL_SUCCESS) {
            copied = aclrtMemcpyAsync(block, 256, host, 256, ACL_MEMCPY_HOST_TO_DEVICE, created == 0 ? stream : nullptr);
        }
        const int64_t dims[] = {2};
        aclTensor* tensor = aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, block);
        g_allocations_left.store(-1);
        EXPECT_TRUE(created == ACL_SUCCESS || created == ACL_ERROR_RT_NO_STREAM_RESOURCE) << created;
        EXPECT_TRUE(malloced == ACL_SUCCESS || malloced == ACL_ERROR_RT_MEMORY_ALLOCATION) << malloced;
        EXPECT_TRUE(copied == ACL_SUCCESS || copied == ACL_ERROR_RT_MEMORY_ALLOCATION) << copied;
        aclDestroyTensor(tensor);
        if (created == ACL_SUCCESS) {
            EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
        }
        aclrtSynchronizeStream(nullptr);
        if (malloced == ACL_SUCCESS) {
            EXPECT_EQ(aclrtFree(block), ACL_SUCCESS);
        }
    }
}

}  // namespace
