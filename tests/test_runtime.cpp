// The AscendCL runtime subset (docs/contract.md section 1): init/finalize, devices, memory, copies and memsets, with
// the status every misuse returns and a message that names the argument.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_soft_margin_loss.h"

namespace {

struct MisuseRow {
    const char* name;
    std::function<aclError()> call;
    aclError status;
    const char* message_part;  // must appear in aclGetRecentErrMsg(); nullptr when success is expected
};

void ExpectRows(const std::vector<MisuseRow>& rows) {
    for (const MisuseRow& row : rows) {
        EXPECT_EQ(row.call(), row.status) << row.name;
        if (row.message_part == nullptr) continue;
        const char* message = aclGetRecentErrMsg();
        ASSERT_NE(message, nullptr) << row.name;
        EXPECT_NE(std::string(message).find(row.message_part), std::string::npos)
            << row.name << ": \"" << message << "\" lacks \"" << row.message_part << "\"";
    }
}

TEST(Runtime, InitAndFinalize) {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ExpectRows({{"aclInit twice", [] { return aclInit(nullptr); }, ACL_ERROR_REPEAT_INITIALIZE, "aclInit"}});
    ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
    ExpectRows({{"aclFinalize twice", [] { return aclFinalize(); }, ACL_ERROR_REPEAT_FINALIZE, "aclFinalize"},
                {"aclInit with a missing config file", [] { return aclInit("/nonexistent/acl.json"); },
                 ACL_ERROR_INVALID_FILE, "configPath"}});
    // Initialising again after finalizing is allowed.
    EXPECT_EQ(aclInit(""), ACL_SUCCESS);
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(Runtime, Devices) {
    uint32_t count = 0;
    ASSERT_EQ(aclrtGetDeviceCount(&count), ACL_SUCCESS);
    EXPECT_EQ(count, 1u);
    EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    int32_t device = -1;
    EXPECT_EQ(aclrtGetDevice(&device), ACL_SUCCESS);
    EXPECT_EQ(device, 0);
    aclrtRunMode mode;
    EXPECT_EQ(aclrtGetRunMode(&mode), ACL_SUCCESS);
    EXPECT_EQ(mode, ACL_HOST);
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    ExpectRows({
        {"SetDevice(1)", [] { return aclrtSetDevice(1); }, ACL_ERROR_RT_INVALID_DEVICEID, "deviceId 1"},
        {"SetDevice(-1)", [] { return aclrtSetDevice(-1); }, ACL_ERROR_RT_INVALID_DEVICEID, "deviceId -1"},
        {"ResetDevice(3)", [] { return aclrtResetDevice(3); }, ACL_ERROR_RT_INVALID_DEVICEID, "deviceId 3"},
        {"GetDevice(null)", [] { return aclrtGetDevice(nullptr); }, ACL_ERROR_INVALID_PARAM, "deviceId"},
        {"GetDeviceCount(null)", [] { return aclrtGetDeviceCount(nullptr); }, ACL_ERROR_INVALID_PARAM, "count"},
        {"SynchronizeDevice", [] { return aclrtSynchronizeDevice(); }, ACL_SUCCESS, nullptr},
    });
}

TEST(Runtime, MallocAndFree) {
    void* block = nullptr;
    ASSERT_EQ(aclrtMalloc(&block, 1000, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(block) % 64, 0u) << "64-byte aligned";
    void* big = nullptr;
    ASSERT_EQ(aclrtMalloc(&big, size_t{8} << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    std::memset(big, 1, size_t{8} << 20);
    void* untouched = reinterpret_cast<void*>(0x5a5a);
    ExpectRows({
        {"Malloc(null)", [] { return aclrtMalloc(nullptr, 16, ACL_MEM_MALLOC_HUGE_FIRST); }, ACL_ERROR_INVALID_PARAM,
         "devPtr"},
        {"Malloc size 0", [&] { return aclrtMalloc(&untouched, 0, ACL_MEM_MALLOC_HUGE_FIRST); },
         ACL_ERROR_INVALID_PARAM, "size is 0"},
        {"Malloc 2^62 bytes", [&] { return aclrtMalloc(&untouched, size_t{1} << 62, ACL_MEM_MALLOC_HUGE_FIRST); },
         ACL_ERROR_RT_MEMORY_ALLOCATION, "cannot allocate"},
        {"Free(null)", [] { return aclrtFree(nullptr); }, ACL_ERROR_INVALID_PARAM, "devPtr"},
        {"Free inside a block", [&] { return aclrtFree(static_cast<char*>(block) + 8); }, ACL_ERROR_RT_PARAM_INVALID,
         "not the start"},
        {"Free", [&] { return aclrtFree(block); }, ACL_SUCCESS, nullptr},
        {"Free twice", [&] { return aclrtFree(block); }, ACL_ERROR_RT_PARAM_INVALID, "double free"},
        {"Free", [&] { return aclrtFree(big); }, ACL_SUCCESS, nullptr},
    });
    EXPECT_EQ(untouched, reinterpret_cast<void*>(0x5a5a)) << "failed mallocs leave *devPtr alone";
}

TEST(Runtime, MallocHostAndFreeHost) {
    void* host = nullptr;
    ASSERT_EQ(aclrtMallocHost(&host, 256), ACL_SUCCESS);
    ExpectRows({
        {"MallocHost(null)", [] { return aclrtMallocHost(nullptr, 16); }, ACL_ERROR_INVALID_PARAM, "hostPtr"},
        {"MallocHost size 0", [&] { return aclrtMallocHost(&host, 0); }, ACL_ERROR_INVALID_PARAM, "size"},
        {"FreeHost(null)", [] { return aclrtFreeHost(nullptr); }, ACL_ERROR_INVALID_PARAM, "hostPtr"},
        {"FreeHost", [&] { return aclrtFreeHost(host); }, ACL_SUCCESS, nullptr},
        {"FreeHost twice", [&] { return aclrtFreeHost(host); }, ACL_ERROR_RT_PARAM_INVALID, "aclrtMallocHost"},
    });
}

// aclrtHostRegister: host memory that copies and operators accept under the strict memory checks, in place.
TEST(Runtime, HostRegisterAndUnregister) {
    std::vector<float> host(64, 1.0f);
    std::vector<float> other(64, 2.0f);
    void* device = nullptr;
    ASSERT_EQ(aclrtMalloc(&device, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    void* mapped = nullptr;
    ExpectRows({
        {"Register(null)", [&] { return aclrtHostRegister(nullptr, 16, ACL_HOST_REGISTER_MAPPED, &mapped); },
         ACL_ERROR_INVALID_PARAM, "ptr"},
        {"Register devPtr null", [&] { return aclrtHostRegister(host.data(), 16, ACL_HOST_REGISTER_MAPPED, nullptr); },
         ACL_ERROR_INVALID_PARAM, "devPtr"},
        {"Register size 0", [&] { return aclrtHostRegister(host.data(), 0, ACL_HOST_REGISTER_MAPPED, &mapped); },
         ACL_ERROR_INVALID_PARAM, "size"},
        {"Register type 3",
         [&] { return aclrtHostRegister(host.data(), 16, static_cast<aclrtHostRegisterType>(3), &mapped); },
         ACL_ERROR_INVALID_PARAM, "type 3"},
        {"Register device memory", [&] { return aclrtHostRegister(device, 16, ACL_HOST_REGISTER_MAPPED, &mapped); },
         ACL_ERROR_RT_PARAM_INVALID, "aclrtMalloc"},
        {"Unregister(null)", [] { return aclrtHostUnregister(nullptr); }, ACL_ERROR_INVALID_PARAM, "ptr"},
        {"Unregister never registered", [&] { return aclrtHostUnregister(host.data()); }, ACL_ERROR_RT_PARAM_INVALID,
         "aclrtHostRegister"},
        {"GetDevicePointer unregistered", [&] { return aclrtHostGetDevicePointer(host.data(), &mapped, 0); },
         ACL_ERROR_RT_PARAM_INVALID, "aclrtHostRegister"},
    });
    EXPECT_EQ(mapped, nullptr);  // no failed call wrote it
    // Unregistered host memory is refused as a copy's device side; registered, it is accepted.
    EXPECT_EQ(aclrtMemcpy(host.data(), 256, device, 256, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_EQ(aclrtHostRegister(host.data(), 256, ACL_HOST_REGISTER_MAPPED, &mapped), ACL_SUCCESS);
    EXPECT_EQ(mapped, host.data());
    void* inside = nullptr;
    ASSERT_EQ(aclrtHostGetDevicePointer(host.data() + 3, &inside, 0), ACL_SUCCESS);
    EXPECT_EQ(inside, host.data() + 3);
    EXPECT_EQ(aclrtHostGetDevicePointer(host.data(), &inside, 1), ACL_ERROR_INVALID_PARAM);
    ASSERT_EQ(aclrtMemcpy(device, 256, other.data(), 256, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(mapped, 256, device, 256, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
    EXPECT_EQ(host[63], 2.0f);
    // One byte past the registered range is refused.
    EXPECT_EQ(aclrtMemcpy(host.data() + 1, 256, device, 256, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
    // Overlapping registrations are counted: the range stays registered until the last one goes.
    void* again = nullptr;
    ASSERT_EQ(aclrtHostRegister(host.data(), 128, ACL_HOST_REGISTER_READONLY, &again), ACL_SUCCESS);
    ASSERT_EQ(aclrtHostUnregister(host.data()), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(mapped, 128, device, 128, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
    ASSERT_EQ(aclrtHostUnregister(host.data()), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(mapped, 128, device, 128, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_EQ(aclrtHostUnregister(host.data()), ACL_ERROR_RT_PARAM_INVALID);
    aclrtFree(device);
}

// The strict memory checks of an operator accept host memory while it is registered, and only then.
TEST(Runtime, OperatorsAcceptRegisteredHostMemory) {
    std::vector<float> self(8, 1.0f), target(8, 1.0f), out(1, -1.0f);
    const int64_t shape[1] = {8};
    const int64_t strides[1] = {1};
    aclTensor* self_tensor = aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, self.data());
    aclTensor* target_tensor =
        aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, target.data());
    aclTensor* out_tensor = aclCreateTensor(nullptr, 0, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 0, out.data());
    auto run = [&]() -> aclnnStatus {
        uint64_t workspace_size = 0;
        aclOpExecutor* executor = nullptr;
        const aclnnStatus status = aclnnSoftMarginLossGetWorkspaceSize(self_tensor, target_tensor, 2, out_tensor,
                                                                       &workspace_size, &executor);
        if (status != 0) return status;
        EXPECT_EQ(aclnnSoftMarginLoss(nullptr, workspace_size, executor, nullptr), 0);
        EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
        return 0;
    };
    EXPECT_EQ(run(), ACLNN_ERR_PARAM_INVALID);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("aclrtMalloc"), std::string::npos);
    EXPECT_EQ(out[0], -1.0f);
    void* mapped = nullptr;
    for (std::vector<float>* buffer : {&self, &target, &out})
        ASSERT_EQ(aclrtHostRegister(buffer->data(), buffer->size() * sizeof(float), ACL_HOST_REGISTER_MAPPED, &mapped),
                  ACL_SUCCESS);
    ASSERT_EQ(run(), 0) << aclGetRecentErrMsg();
    EXPECT_NEAR(out[0], 8.0 * std::log1p(std::exp(-1.0)), 1e-5);
    for (std::vector<float>* buffer : {&self, &target, &out}) ASSERT_EQ(aclrtHostUnregister(buffer->data()), ACL_SUCCESS);
    out[0] = -1.0f;
    EXPECT_EQ(run(), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(out[0], -1.0f);
    aclDestroyTensor(self_tensor);
    aclDestroyTensor(target_tensor);
    aclDestroyTensor(out_tensor);
}

class Copies : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_EQ(aclrtMalloc(&device_, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        ASSERT_EQ(aclrtMalloc(&device2_, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    }
    void TearDown() override {
        aclrtFree(device_);
        aclrtFree(device2_);
    }
    void* device_ = nullptr;
    void* device2_ = nullptr;
    char host_[128] = {};
};

TEST_F(Copies, RoundTrip) {
    for (int i = 0; i < 64; ++i) host_[i] = static_cast<char>(i);
    ASSERT_EQ(aclrtMemcpy(device_, 64, host_, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(device2_, 64, device_, 64, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
    char back[64] = {};
    ASSERT_EQ(aclrtMemcpy(back, 64, device2_, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(std::memcmp(back, host_, 64), 0);
    ASSERT_EQ(aclrtMemset(device_, 64, 0xab, 64), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(back, 64, device_, 64, ACL_MEMCPY_DEFAULT), ACL_SUCCESS);
    EXPECT_EQ(static_cast<unsigned char>(back[63]), 0xab);
}

TEST_F(Copies, MisuseStatuses) {
    ExpectRows({
        {"count 0 with null pointers", [] { return aclrtMemcpy(nullptr, 0, nullptr, 0, ACL_MEMCPY_HOST_TO_DEVICE); },
         ACL_SUCCESS, nullptr},
        {"null dst", [&] { return aclrtMemcpy(nullptr, 64, host_, 8, ACL_MEMCPY_HOST_TO_DEVICE); },
         ACL_ERROR_INVALID_PARAM, "dst"},
        {"null src", [&] { return aclrtMemcpy(device_, 64, nullptr, 8, ACL_MEMCPY_HOST_TO_DEVICE); },
         ACL_ERROR_INVALID_PARAM, "src"},
        {"kind 7", [&] { return aclrtMemcpy(device_, 64, host_, 8, static_cast<aclrtMemcpyKind>(7)); },
         ACL_ERROR_INVALID_PARAM, "kind"},
        {"kind -1", [&] { return aclrtMemcpy(device_, 64, host_, 8, static_cast<aclrtMemcpyKind>(-1)); },
         ACL_ERROR_INVALID_PARAM, "kind"},
        {"count > destMax", [&] { return aclrtMemcpy(device_, 8, host_, 16, ACL_MEMCPY_HOST_TO_DEVICE); },
         ACL_ERROR_RT_PARAM_INVALID, "destMax"},
        {"destMax 0", [&] { return aclrtMemcpy(device_, 0, host_, 16, ACL_MEMCPY_HOST_TO_DEVICE); },
         ACL_ERROR_RT_PARAM_INVALID, "destMax"},
        {"H2D into host memory", [&] { return aclrtMemcpy(host_, 128, host_ + 64, 16, ACL_MEMCPY_HOST_TO_DEVICE); },
         ACL_ERROR_RT_PARAM_INVALID, "dst"},
        // The 64-byte block has 96 usable bytes with CANN's padding (test_allocation_padding.cpp).
        {"H2D past the block's padding",
         [&] { return aclrtMemcpy(device_, 128, host_, 97, ACL_MEMCPY_HOST_TO_DEVICE); }, ACL_ERROR_RT_PARAM_INVALID,
         "aclrtMalloc"},
        {"D2H from host memory", [&] { return aclrtMemcpy(host_, 64, host_ + 64, 16, ACL_MEMCPY_DEVICE_TO_HOST); },
         ACL_ERROR_RT_PARAM_INVALID, "src"},
        {"D2D across two blocks",
         [&] { return aclrtMemcpy(device_, 64, static_cast<char*>(device2_) + 64, 64, ACL_MEMCPY_DEVICE_TO_DEVICE); },
         ACL_ERROR_RT_PARAM_INVALID, "src"},
        {"H2H is not checked", [&] { return aclrtMemcpy(host_, 64, host_ + 64, 64, ACL_MEMCPY_HOST_TO_HOST); },
         ACL_SUCCESS, nullptr},
        {"dst == src", [&] { return aclrtMemcpy(device_, 64, device_, 64, ACL_MEMCPY_DEVICE_TO_DEVICE); },
         ACL_SUCCESS, nullptr},
        {"async count > destMax",
         [&] { return aclrtMemcpyAsync(device_, 8, host_, 16, ACL_MEMCPY_HOST_TO_DEVICE, nullptr); },
         ACL_ERROR_RT_PARAM_INVALID, "destMax"},
        {"async on a made-up stream",
         [&] {
             return aclrtMemcpyAsync(device_, 64, host_, 16, ACL_MEMCPY_HOST_TO_DEVICE,
                                     reinterpret_cast<aclrtStream>(0x1000));
         },
         ACL_ERROR_INVALID_PARAM, "stream"},
        {"memset count 0", [] { return aclrtMemset(nullptr, 0, 0, 0); }, ACL_SUCCESS, nullptr},
        {"memset null", [] { return aclrtMemset(nullptr, 8, 0, 8); }, ACL_ERROR_INVALID_PARAM, "devPtr"},
        {"memset count > maxCount", [&] { return aclrtMemset(device_, 8, 0, 16); }, ACL_ERROR_RT_PARAM_INVALID,
         "maxCount"},
        {"memset past the block", [&] { return aclrtMemset(device_, 128, 0, 97); }, ACL_ERROR_RT_PARAM_INVALID,
         "past the end"},
        {"memsetAsync count > maxCount", [&] { return aclrtMemsetAsync(device_, 8, 0, 16, nullptr); },
         ACL_ERROR_RT_PARAM_INVALID, "maxCount"},
    });
}

TEST_F(Copies, StrictChecksCanBeTurnedOff) {
    setenv("ACLNN_CPU_STRICT_MEMORY", "0", 1);
    EXPECT_EQ(aclrtMemcpy(host_, 128, host_ + 64, 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    unsetenv("ACLNN_CPU_STRICT_MEMORY");
    EXPECT_EQ(aclrtMemcpy(host_, 128, host_ + 64, 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID);
}

TEST(Runtime, RecentErrorIsPerThreadAndNullWithoutOne) {
    std::thread fresh([] { EXPECT_EQ(aclGetRecentErrMsg(), nullptr); });
    fresh.join();
    EXPECT_EQ(aclrtSetDevice(5), ACL_ERROR_RT_INVALID_DEVICEID);
    ASSERT_NE(aclGetRecentErrMsg(), nullptr);
    std::thread other([] { EXPECT_EQ(aclGetRecentErrMsg(), nullptr) << "messages are thread-local"; });
    other.join();
}

TEST(Runtime, Version) {
    int32_t major = -1, minor = -1, patch = -1;
    EXPECT_EQ(aclrtGetVersion(&major, &minor, &patch), ACL_SUCCESS);
    EXPECT_GE(major, 1);
    EXPECT_EQ(aclrtGetVersion(nullptr, &minor, &patch), ACL_ERROR_INVALID_PARAM);
}

}  // namespace
