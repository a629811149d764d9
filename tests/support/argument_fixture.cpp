#include "argument_fixture.h"

#include <gtest/gtest.h>

namespace test_support {

TensorArg Arg(std::vector<int64_t> dims, aclDataType type) {
    TensorArg arg;
    arg.dims = std::move(dims);
    arg.type = type;
    return arg;
}

TensorArg Null() {
    TensorArg arg;
    arg.null_tensor = true;
    return arg;
}

namespace {

std::vector<int64_t> Contiguous(const std::vector<int64_t>& dims) {
    std::vector<int64_t> strides(dims.size(), 1);
    for (int d = static_cast<int>(dims.size()) - 2; d >= 0; --d) strides[d] = strides[d + 1] * dims[d + 1];
    return strides;
}

}  // namespace

ArgumentFixture::ArgumentFixture(const std::vector<TensorArg>& args) : host_(args.size(), std::vector<float>(64)) {
    for (size_t slot = 0; slot < args.size(); ++slot) {
        const TensorArg& arg = args[slot];
        void* block = nullptr;
        EXPECT_EQ(aclrtMalloc(&block, kBlockBytes, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
        std::vector<uint8_t> pattern(kBlockBytes);
        for (size_t i = 0; i < kBlockBytes; ++i) pattern[i] = static_cast<uint8_t>(i * 7 + slot);
        aclrtMemcpy(block, kBlockBytes, pattern.data(), kBlockBytes, ACL_MEMCPY_HOST_TO_DEVICE);
        blocks_.push_back(block);
        if (arg.null_tensor) {
            tensors_.push_back(nullptr);
            continue;
        }
        void* data = block;
        if (arg.data == TensorArg::Data::kHost) data = host_[slot].data();
        if (arg.data == TensorArg::Data::kNull) data = nullptr;
        if (arg.data == TensorArg::Data::kEndOfBlock) data = static_cast<char*>(block) + kBlockBytes + kPaddingBytes - 8;
        const std::vector<int64_t> strides = arg.strides.empty() ? Contiguous(arg.dims) : arg.strides;
        tensors_.push_back(aclCreateTensor(arg.dims.data(), arg.dims.size(), arg.type, strides.data(), arg.offset,
                                           arg.format, arg.dims.data(), arg.dims.size(), data));
    }
}

ArgumentFixture::~ArgumentFixture() {
    for (aclTensor* t : tensors_) aclDestroyTensor(t);
    for (void* block : blocks_) aclrtFree(block);
}

std::vector<uint8_t> ArgumentFixture::Block(size_t i) const {
    std::vector<uint8_t> bytes(kBlockBytes);
    aclrtMemcpy(bytes.data(), kBlockBytes, blocks_[i], kBlockBytes, ACL_MEMCPY_DEVICE_TO_HOST);
    return bytes;
}

void ExpectRejection(const Rejection& expected, const ArgumentFixture& fixture, bool null_workspace_size,
                     bool null_executor, const std::function<aclnnStatus(uint64_t*, aclOpExecutor**)>& phase1) {
    const size_t out = fixture.size() - 1;
    const std::vector<uint8_t> out_before = fixture.Block(out);
    uint64_t workspace_size = 777;
    aclOpExecutor* const sentinel = reinterpret_cast<aclOpExecutor*>(0x1234);
    aclOpExecutor* executor = sentinel;
    const aclnnStatus status =
        phase1(null_workspace_size ? nullptr : &workspace_size, null_executor ? nullptr : &executor);
    EXPECT_EQ(status, expected.status) << expected.name;
    EXPECT_EQ(executor, sentinel) << expected.name << ": *executor was written";
    EXPECT_EQ(workspace_size, 777u) << expected.name << ": *workspaceSize was written";
    EXPECT_EQ(fixture.Block(out), out_before) << expected.name << ": out's storage changed";
    const char* message = aclGetRecentErrMsg();
    ASSERT_NE(message, nullptr) << expected.name;
    // CANN's shape: the error code, then the API, then what is wrong with which argument.
    EXPECT_EQ(std::string(message).rfind("EZ1001: aclnn", 0), 0u) << expected.name << ": \"" << message << "\"";
    for (const std::string& part : expected.message_parts)
        EXPECT_NE(std::string(message).find(part), std::string::npos)
            << expected.name << ": message \"" << message << "\" lacks \"" << part << "\"";
}

}  // namespace test_support
