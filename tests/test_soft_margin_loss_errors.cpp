// Phase 1 of aclnnSoftMarginLoss on bad arguments, one row per check in CANN's order (docs/contract.md
// section 3): the exact status, *executor and *workspaceSize untouched, out's storage bitwise unchanged, and a recent
// error message that names the argument and the rule. Also what CANN accepts: any reduction value (0 none,
// 1 mean, anything else sum) with the out shape it implies, and a FRACTAL_NZ self with a logged warning.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_soft_margin_loss.h"
#include "argument_fixture.h"

namespace {

using test_support::TensorArg;

struct Scenario {
    TensorArg self, target, out;
    int64_t reduction = 0;
    bool null_workspace_size = false;
    bool null_executor = false;
};

using ScenarioRow = test_support::ScenarioRow<Scenario>;

class Fixture : public test_support::ArgumentFixture {
public:
    explicit Fixture(const Scenario& s) : ArgumentFixture({s.self, s.target, s.out}) {}
    aclnnStatus Phase1(int64_t reduction, uint64_t* workspace_size, aclOpExecutor** executor) const {
        return aclnnSoftMarginLossGetWorkspaceSize(tensor(0), tensor(1), reduction, tensor(2), workspace_size,
                                                   executor);
    }
};

void ExpectRejected(const ScenarioRow& row) {
    Scenario scenario;
    row.setup(scenario);
    Fixture fixture(scenario);
    test_support::ExpectRejection({row.name, row.status, row.message_parts}, fixture, scenario.null_workspace_size,
                                  scenario.null_executor, [&](uint64_t* workspace_size, aclOpExecutor** executor) {
                                      return fixture.Phase1(scenario.reduction, workspace_size, executor);
                                  });
}

void Scalar(Scenario& s, int64_t reduction) {
    s.reduction = reduction;
    s.out.dims = {};
}

const std::vector<ScenarioRow>& Rows() {
    static const std::vector<ScenarioRow> rows = {
        // 1. output pointers, before everything
        {"null executor before null self", [](Scenario& s) { s.null_executor = true; s.self.null_tensor = true; },
         ACLNN_ERR_PARAM_NULLPTR, {"executor"}},
        // 2. tensors, in order
        {"null target before bad dtype", [](Scenario& s) { s.target.null_tensor = true; s.self.type = ACL_DOUBLE; },
         ACLNN_ERR_PARAM_NULLPTR, {"target"}},
        // 3. dtypes
        {"INT32 target", [](Scenario& s) { s.target.type = ACL_INT32; }, ACLNN_ERR_PARAM_INVALID, {"target", "INT32"}},
        {"bad dtype before bad rank",
         [](Scenario& s) { s.out.type = ACL_BOOL; s.self.dims = std::vector<int64_t>(9, 1); },
         ACLNN_ERR_PARAM_INVALID, {"out", "BOOL"}},
        // 4. ranks
        {"rank 9 target", [](Scenario& s) { s.target.dims = {1, 1, 1, 1, 1, 1, 1, 2, 3}; }, ACLNN_ERR_PARAM_INVALID,
         {"target", "cannot be larger than 8 dimensions"}},
        // 5. layouts
        {"negative offset of a 0-d out", [](Scenario& s) { Scalar(s, 2); s.out.offset = -2; },
         ACLNN_ERR_PARAM_INVALID, {"out", "negative offset"}},
        {"element count overflow",
         [](Scenario& s) { s.self.dims = {int64_t{1} << 40, int64_t{1} << 40}; s.self.strides = {0, 0}; },
         ACLNN_ERR_PARAM_INVALID, {"self", "element count"}},
        // 6. broadcast
        {"broadcast before out's shape", [](Scenario& s) { s.target.dims = {5}; s.out.dims = {7}; },
         ACLNN_ERR_PARAM_INVALID, {"must match the size"}},
        // A 0-d out does not bound the broadcast shape; 2^80 elements cannot be addressed.
        {"mean: broadcast shape of 2^80 elements",
         [](Scenario& s) {
             Scalar(s, 1);
             s.self.dims = {int64_t{1} << 40, 1};
             s.self.strides = {0, 0};
             s.target.dims = {1, int64_t{1} << 40};
             s.target.strides = {0, 0};
         },
         ACLNN_ERR_PARAM_INVALID, {"broadcast shape", "[1099511627776, 1099511627776]", "2^60"}},
        // 7. out's shape: the broadcast shape for none, 0-d otherwise
        {"none: 0-d out", [](Scenario& s) { s.out.dims = {}; }, ACLNN_ERR_PARAM_INVALID, {"out", "[]", "[2, 3]"}},
        {"mean: out of the broadcast shape", [](Scenario& s) { s.reduction = 1; }, ACLNN_ERR_PARAM_INVALID,
         {"0-dimensional", "out", "[2, 3]"}},
        {"sum: out of shape [1]", [](Scenario& s) { s.reduction = 2; s.out.dims = {1}; }, ACLNN_ERR_PARAM_INVALID,
         {"0-dimensional", "[1]"}},
        {"reduction 3 (sum): out not 0-d", [](Scenario& s) { s.reduction = 3; }, ACLNN_ERR_PARAM_INVALID,
         {"0-dimensional"}},
        {"reduction -4 (sum): out not 0-d", [](Scenario& s) { s.reduction = -4; }, ACLNN_ERR_PARAM_INVALID,
         {"0-dimensional"}},
        // 9. out maps two elements to one address
        // 10. strict memory
        {"self in host memory", [](Scenario& s) { s.self.data = TensorArg::Data::kHost; }, ACLNN_ERR_PARAM_INVALID,
         {"self", "aclrtMalloc", "ACLNN_CPU_STRICT_MEMORY"}},
        // 1 MiB past the block: right after it may lie another live block (sanitizer heaps pack them).
        {"0-d out past its block", [](Scenario& s) { Scalar(s, 1); s.out.offset = int64_t{1} << 18; },
         ACLNN_ERR_PARAM_INVALID, {"out", "aclrtMalloc"}},
        {"0-d out data null", [](Scenario& s) { Scalar(s, 2); s.out.data = TensorArg::Data::kNull; },
         ACLNN_ERR_PARAM_INVALID, {"out", "null"}},
    };
    return rows;
}

TEST(SoftMarginLossErrors, EveryCheckInOrder) {
    for (const ScenarioRow& row : Rows()) {
        SCOPED_TRACE(row.name);
        ExpectRejected(row);
    }
}

// An empty broadcast shape whose other dims multiply past int64 ([0,625,2^56]: each input is valid) is an
// empty sum: 0, like any empty sum (a fuzz finding: the dense order of the sum overflowed computing strides).
TEST(SoftMarginLossErrors, EmptyBroadcastWithHugeDimsSumsToZero) {
    Scenario scenario;
    Scalar(scenario, 2);
    scenario.self.dims = {0, 1, int64_t{1} << 56};
    scenario.self.strides = {0, 0, 0};
    scenario.target.dims = {625, 1};
    scenario.target.strides = {0, 0};
    Fixture fixture(scenario);
    uint64_t workspace_size = 1;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(fixture.Phase1(2, &workspace_size, &executor), 0) << aclGetRecentErrMsg();
    ASSERT_EQ(aclnnSoftMarginLoss(nullptr, workspace_size, executor, nullptr), 0);
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), 0);
    const std::vector<uint8_t> out = fixture.Block(2);
    float sum = -1.0f;
    std::memcpy(&sum, out.data(), sizeof sum);
    EXPECT_EQ(sum, 0.0f);
}

// A FRACTAL_NZ self is accepted with a warning through the logger (printed at ASCEND_GLOBAL_LOG_LEVEL <= 2).
TEST(SoftMarginLossErrors, FractalNzSelfOnlyWarns) {
    Scenario scenario;
    scenario.self.format = ACL_FORMAT_FRACTAL_NZ;
    Fixture fixture(scenario);
    setenv("ASCEND_GLOBAL_LOG_LEVEL", "2", 1);
    uint64_t workspace_size = 1;
    aclOpExecutor* executor = nullptr;
    testing::internal::CaptureStderr();
    const aclnnStatus status = fixture.Phase1(0, &workspace_size, &executor);
    const std::string err = testing::internal::GetCapturedStderr();
    unsetenv("ASCEND_GLOBAL_LOG_LEVEL");
    ASSERT_EQ(status, 0);
    EXPECT_NE(err.find("self has format FRACTAL_NZ"), std::string::npos) << err;
    EXPECT_EQ(aclnnSoftMarginLoss(nullptr, 0, executor, nullptr), 0);
    EXPECT_EQ(aclrtSynchronizeStream(nullptr), 0);
}

}  // namespace
