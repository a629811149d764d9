// Phase 1 of aclnnSoftMarginLossBackward on bad arguments, one row per check of docs/contract.md section 3 (in order):
// the exact status, *executor and *workspaceSize untouched, out's storage bitwise unchanged, and a recent
// error message that names the argument and the rule.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_soft_margin_loss_backward.h"
#include "argument_fixture.h"

namespace {

using test_support::TensorArg;

struct Scenario {
    TensorArg grad, self, target, out;
    int64_t reduction = 0;
    bool null_workspace_size = false;
    bool null_executor = false;
};

using ScenarioRow = test_support::ScenarioRow<Scenario>;

// The four tensors of a scenario, each over its own device block.
class Fixture : public test_support::ArgumentFixture {
public:
    explicit Fixture(const Scenario& s)
        : ArgumentFixture({s.grad, s.self, s.target, s.out}),
          grad_(tensor(0)), self_(tensor(1)), target_(tensor(2)), out_(tensor(3)) {}
    aclTensor *grad_, *self_, *target_, *out_;
};

void ExpectRejected(const ScenarioRow& row) {
    Scenario scenario;
    row.setup(scenario);
    Fixture fixture(scenario);
    test_support::ExpectRejection({row.name, row.status, row.message_parts}, fixture, scenario.null_workspace_size,
                                  scenario.null_executor, [&](uint64_t* workspace_size, aclOpExecutor** executor) {
                                      return aclnnSoftMarginLossBackwardGetWorkspaceSize(
                                          fixture.grad_, fixture.self_, fixture.target_, scenario.reduction,
                                          fixture.out_, workspace_size, executor);
                                  });
}

const std::vector<ScenarioRow>& Rows() {
    static const std::vector<ScenarioRow> rows = {
        // 1. output pointers
        {"null executor before null tensor", [](Scenario& s) { s.null_executor = true; s.self.null_tensor = true; },
         ACLNN_ERR_PARAM_NULLPTR, {"executor"}},
        // 2. tensors, in order
        {"null self before bad dtype", [](Scenario& s) { s.self.null_tensor = true; s.grad.type = ACL_DOUBLE; },
         ACLNN_ERR_PARAM_NULLPTR, {"self"}},
        // 3. dtypes
        {"INT32 self", [](Scenario& s) { s.self.type = ACL_INT32; }, ACLNN_ERR_PARAM_INVALID, {"self", "INT32"}},
        {"INT64 target", [](Scenario& s) { s.target.type = ACL_INT64; }, ACLNN_ERR_PARAM_INVALID, {"target"}},
        {"undefined dtype number", [](Scenario& s) { s.self.type = static_cast<aclDataType>(5); },
         ACLNN_ERR_PARAM_INVALID, {"self", "aclDataType 5"}},
        {"bad dtype before bad rank",
         [](Scenario& s) { s.target.type = ACL_BOOL; s.self.dims = std::vector<int64_t>(9, 1); },
         ACLNN_ERR_PARAM_INVALID, {"target", "BOOL"}},
        // 4. ranks
        {"rank 9 out", [](Scenario& s) { s.out.dims = {1, 1, 1, 1, 1, 1, 1, 2, 3}; }, ACLNN_ERR_PARAM_INVALID,
         {"out", "cannot be larger than 8 dimensions"}},
        // 5. layouts
        {"negative dim", [](Scenario& s) { s.target.dims = {2, -3}; s.target.strides = {3, 1}; },
         ACLNN_ERR_PARAM_INVALID, {"target", "negative dim"}},
        {"negative offset", [](Scenario& s) { s.self.offset = -1; }, ACLNN_ERR_PARAM_INVALID,
         {"self", "negative offset"}},
        {"element count overflow",
         [](Scenario& s) { s.self.dims = {int64_t{1} << 40, int64_t{1} << 40}; s.self.strides = {0, 0}; },
         ACLNN_ERR_PARAM_INVALID, {"self", "element count"}},
        {"byte span overflow", [](Scenario& s) { s.out.strides = {int64_t{1} << 62, 1}; }, ACLNN_ERR_PARAM_INVALID,
         {"out", "byte span"}},
        {"huge offset", [](Scenario& s) { s.grad.offset = INT64_MAX - 1; }, ACLNN_ERR_PARAM_INVALID,
         {"gradOutput", "overflows"}},
        // Found by the fuzzer: the last element at INT64_MAX made "one past it" overflow.
        {"last element at INT64_MAX", [](Scenario& s) { s.grad.dims = {1}; s.grad.offset = INT64_MAX; },
         ACLNN_ERR_PARAM_INVALID, {"gradOutput", "byte span"}},
        // 6. broadcast
        {"zero against two", [](Scenario& s) { s.self.dims = {0, 3}; }, ACLNN_ERR_PARAM_INVALID,
         {"gradOutput", "self", "[0, 3]"}},
        // 7. out's shape
        {"out with an extra leading 1", [](Scenario& s) { s.out.dims = {1, 2, 3}; }, ACLNN_ERR_PARAM_INVALID,
         {"out", "[1, 2, 3]"}},
        {"out of the unbroadcast size", [](Scenario& s) { s.self.dims = {4, 2, 3}; }, ACLNN_ERR_PARAM_INVALID,
         {"out", "[4, 2, 3]"}},
        // 8. reduction
        // 9. out maps two elements to one address
        {"out overlapping strides", [](Scenario& s) { s.out.strides = {1, 1}; }, ACLNN_ERR_PARAM_INVALID,
         {"out", "same address"}},
        // 10. strict memory
        {"self in host memory", [](Scenario& s) { s.self.data = TensorArg::Data::kHost; }, ACLNN_ERR_PARAM_INVALID,
         {"self", "aclrtMalloc", "ACLNN_CPU_STRICT_MEMORY"}},
        {"out runs past its block's padding", [](Scenario& s) { s.out.data = TensorArg::Data::kEndOfBlock; },
         ACLNN_ERR_PARAM_INVALID, {"out", "aclrtMalloc"}},
        {"out offset past its block's padding", [](Scenario& s) { s.out.offset = 1028; }, ACLNN_ERR_PARAM_INVALID,
         {"out"}},
        {"target data null", [](Scenario& s) { s.target.data = TensorArg::Data::kNull; }, ACLNN_ERR_PARAM_INVALID,
         {"target", "null"}},
    };
    return rows;
}

TEST(SoftMarginLossBackwardErrors, EveryCheckInOrder) {
    for (const ScenarioRow& row : Rows()) {
        SCOPED_TRACE(row.name);
        ExpectRejected(row);
    }
}

TEST(SoftMarginLossBackwardErrors, NullDataIsRejectedEvenWithoutStrictChecks) {
    setenv("ACLNN_CPU_STRICT_MEMORY", "0", 1);
    ExpectRejected({"null data, strict off", [](Scenario& s) { s.grad.data = TensorArg::Data::kNull; },
                    ACLNN_ERR_PARAM_INVALID, {"gradOutput", "null"}});
    unsetenv("ACLNN_CPU_STRICT_MEMORY");
}

TEST(SoftMarginLossBackwardErrors, HostBuffersAreAcceptedWithoutStrictChecks) {
    setenv("ACLNN_CPU_STRICT_MEMORY", "0", 1);
    std::vector<float> grad = {1, 1, 1, 1}, self = {0, 1, 2, 3}, target = {1, -1, 1, -1}, out(4, 7.0f);
    const int64_t dims[] = {4};
    const int64_t strides[] = {1};
    aclTensor* tensors[4];
    float* data[4] = {grad.data(), self.data(), target.data(), out.data()};
    for (int i = 0; i < 4; ++i)
        tensors[i] = aclCreateTensor(dims, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, dims, 1, data[i]);
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnSoftMarginLossBackwardGetWorkspaceSize(tensors[0], tensors[1], tensors[2], 0, tensors[3],
                                                          &workspace_size, &executor),
              0);
    ASSERT_EQ(aclnnSoftMarginLossBackward(nullptr, workspace_size, executor, nullptr), 0);
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), 0);
    EXPECT_FLOAT_EQ(out[0], -0.5f);
    EXPECT_NE(out[3], 7.0f);
    for (aclTensor* t : tensors) aclDestroyTensor(t);
    unsetenv("ACLNN_CPU_STRICT_MEMORY");
}

// CANN accepts a FRACTAL_NZ gradOutput with a warning through its logger: printed at ASCEND_GLOBAL_LOG_LEVEL 2
// (warning) or below, not at the default level 3 (error).
TEST(SoftMarginLossBackwardErrors, FractalNzGradOutputOnlyWarns) {
    Scenario scenario;
    scenario.grad.format = ACL_FORMAT_FRACTAL_NZ;
    Fixture fixture(scenario);
    for (const char* level : {"2", "3"}) {
        setenv("ASCEND_GLOBAL_LOG_LEVEL", level, 1);
        uint64_t workspace_size = 1;
        aclOpExecutor* executor = nullptr;
        testing::internal::CaptureStderr();
        const aclnnStatus status = aclnnSoftMarginLossBackwardGetWorkspaceSize(
            fixture.grad_, fixture.self_, fixture.target_, 0, fixture.out_, &workspace_size, &executor);
        const std::string err = testing::internal::GetCapturedStderr();
        unsetenv("ASCEND_GLOBAL_LOG_LEVEL");
        ASSERT_EQ(status, 0);
        if (std::string(level) == "2") {
            EXPECT_NE(err.find("[WARNING]"), std::string::npos) << err;
            EXPECT_NE(err.find("gradOutput has format FRACTAL_NZ"), std::string::npos) << err;
        } else {
            EXPECT_EQ(err, "");
        }
        EXPECT_EQ(workspace_size, 0u);
        EXPECT_EQ(aclnnSoftMarginLossBackward(nullptr, 0, executor, nullptr), 0);
        EXPECT_EQ(aclrtSynchronizeStream(nullptr), 0);
    }
}

}  // namespace
