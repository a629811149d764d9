// Bad-argument tests of phase 1: tensor arguments each created over its own device block filled with a known
// pattern, and the check that a rejected call returned the exact status, wrote neither *workspaceSize nor
// *executor, left out's block bitwise unchanged, and set a recent error message naming the argument and rule.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"

namespace test_support {

// One tensor argument: its description, created over its own 4 KiB device block.
struct TensorArg {
    std::vector<int64_t> dims = {2, 3};
    std::vector<int64_t> strides;  // empty: contiguous
    int64_t offset = 0;
    aclDataType type = ACL_FLOAT;
    aclFormat format = ACL_FORMAT_ND;
    bool null_tensor = false;
    enum class Data { kDevice, kHost, kNull, kEndOfBlock } data = Data::kDevice;
};

// A contiguous tensor argument of dims and type, and a null one.
TensorArg Arg(std::vector<int64_t> dims, aclDataType type = ACL_FLOAT);
TensorArg Null();

class ArgumentFixture {
public:
    static constexpr size_t kBlockBytes = 4096;
    // What CANN's aclrtMalloc adds behind a block of kBlockBytes (a multiple of 32): addressable padding.
    static constexpr size_t kPaddingBytes = 32;
    explicit ArgumentFixture(const std::vector<TensorArg>& args);
    ~ArgumentFixture();
    ArgumentFixture(const ArgumentFixture&) = delete;
    ArgumentFixture& operator=(const ArgumentFixture&) = delete;

    aclTensor* tensor(size_t i) const { return tensors_[i]; }
    size_t size() const { return blocks_.size(); }
    std::vector<uint8_t> Block(size_t i) const;

private:
    std::vector<aclTensor*> tensors_;
    std::vector<void*> blocks_;
    std::vector<std::vector<float>> host_;
};

struct Rejection {
    const char* name;
    aclnnStatus status;
    std::vector<std::string> message_parts;  // all must appear in aclGetRecentErrMsg()
};

// A row of an operator's table of bad arguments: how to spoil a default scenario, and what phase 1 must say.
template <class Scenario>
struct ScenarioRow {
    const char* name;
    std::function<void(Scenario&)> setup;
    aclnnStatus status;
    std::vector<std::string> message_parts;  // all must appear in aclGetRecentErrMsg()
};

// Runs phase1(workspaceSize, executor) -- with null pointers where asked -- and checks the rejection; out is
// the fixture's last tensor.
void ExpectRejection(const Rejection& expected, const ArgumentFixture& fixture, bool null_workspace_size,
                     bool null_executor, const std::function<aclnnStatus(uint64_t*, aclOpExecutor**)>& phase1);

}  // namespace test_support
