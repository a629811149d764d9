// Executor lifetime (docs/contract.md section 2): single use, repeatable, address rebinding (read when phase 2 runs),
// destroy, and reuse of a consumed or destroyed executor, which gives a status instead of a crash.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "acl/acl.h"
#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_soft_margin_loss_backward.h"
#include "random_cases.h"
#include "operator_harness.h"

namespace {

using namespace test_support;

class Executors : public ::testing::Test {
protected:
    Executors()
        : rng_(42),
          grad_(Dense({3, 5}, ACL_FLOAT), rng_, Uniform{4}),
          self_(Dense({3, 5}, ACL_FLOAT), rng_, Uniform{4}),
          self2_(Dense({3, 5}, ACL_FLOAT), rng_, Uniform{4}),
          target_(Dense({5}, ACL_FLOAT16), rng_, Uniform{4}),
          out_(Dense({3, 5}, ACL_FLOAT), rng_, Uniform{4}),
          out2_(Dense({3, 5}, ACL_FLOAT), rng_, Uniform{4}) {}

    aclOpExecutor* Plan(uint64_t* workspace_size = nullptr) {
        uint64_t size = 0;
        aclOpExecutor* executor = nullptr;
        EXPECT_EQ(aclnnSoftMarginLossBackwardGetWorkspaceSize(grad_.tensor(), self_.tensor(), target_.tensor(), 0,
                                                              out_.tensor(), &size, &executor),
                  0);
        if (workspace_size != nullptr) *workspace_size = size;
        return executor;
    }

    std::string Verify(const DeviceTensor& self, const DeviceTensor& out) {
        return VerifyAgainstReference({&grad_, &self, &target_}, 0, out.spec(), out.Download(), out.host());
    }

    std::mt19937_64 rng_;
    DeviceTensor grad_, self_, self2_, target_, out_, out2_;
};

TEST_F(Executors, SingleUseExecutorIsConsumedByPhase2) {
    aclOpExecutor* executor = Plan();
    ASSERT_EQ(aclnnSoftMarginLossBackward(nullptr, 0, executor, nullptr), 0);
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), 0);
    EXPECT_TRUE(Verify(self_, out_).empty());
    EXPECT_EQ(aclnnSoftMarginLossBackward(nullptr, 0, executor, nullptr), ACLNN_ERR_PARAM_INVALID);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("not live"), std::string::npos);
    EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_ERR_PARAM_INVALID) << "already freed by phase 2";
}

TEST_F(Executors, RepeatableExecutorRunsManyTimesWithRebinding) {
    aclOpExecutor* executor = Plan();
    ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), 0);
    ASSERT_EQ(aclnnSoftMarginLossBackward(nullptr, 0, executor, nullptr), 0);
    // Rebind self (input 1) and out (output 0): the next run reads the new addresses.
    ASSERT_EQ(aclSetInputTensorAddr(executor, 1, self_.tensor(), self2_.device()), 0);
    ASSERT_EQ(aclSetOutputTensorAddr(executor, 0, out_.tensor(), out2_.device()), 0);
    ASSERT_EQ(aclnnSoftMarginLossBackward(nullptr, 0, executor, nullptr), 0);
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), 0);
    EXPECT_TRUE(Verify(self_, out_).empty()) << "first run, original addresses";
    EXPECT_TRUE(Verify(self2_, out2_).empty()) << "second run, rebound addresses";
    // aclSetTensorAddr indexes inputs then outputs: 3 is out.
    ASSERT_EQ(aclSetTensorAddr(executor, 3, out_.tensor(), out_.device()), 0);
    ASSERT_EQ(aclSetTensorAddr(executor, 1, self_.tensor(), self_.device()), 0);
    ASSERT_EQ(aclnnSoftMarginLossBackward(nullptr, 0, executor, nullptr), 0);
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), 0);
    EXPECT_TRUE(Verify(self_, out_).empty());
    EXPECT_EQ(aclDestroyAclOpExecutor(executor), 0);
    EXPECT_EQ(aclnnSoftMarginLossBackward(nullptr, 0, executor, nullptr), ACLNN_ERR_PARAM_INVALID)
        << "a destroyed executor cannot run";
    EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_ERR_PARAM_INVALID) << "nor be destroyed twice";
}

TEST_F(Executors, RawAddressChangeBetweenRunsIsSeen) {
    aclOpExecutor* executor = Plan();
    ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), 0);
    ASSERT_EQ(aclSetRawTensorAddr(out_.tensor(), out2_.device()), 0);
    ASSERT_EQ(aclnnSoftMarginLossBackward(nullptr, 0, executor, nullptr), 0);
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), 0);
    EXPECT_TRUE(Verify(self_, out2_).empty());
    EXPECT_EQ(out_.Download(), out_.host()) << "the old address was not written";
    EXPECT_EQ(aclDestroyAclOpExecutor(executor), 0);
}

TEST_F(Executors, RebindingIsCheckedWhenPhase2Runs) {
    aclOpExecutor* executor = Plan();
    ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), 0);
    float host[15];
    ASSERT_EQ(aclSetOutputTensorAddr(executor, 0, out_.tensor(), host), 0);
    EXPECT_EQ(aclnnSoftMarginLossBackward(nullptr, 0, executor, nullptr), ACLNN_ERR_PARAM_INVALID)
        << "strict memory checks apply to rebound addresses";
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("out"), std::string::npos);
    EXPECT_EQ(aclDestroyAclOpExecutor(executor), 0);
}

TEST_F(Executors, AddressSettersReportMisuse) {
    aclOpExecutor* executor = Plan();
    ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), 0);
    EXPECT_EQ(aclSetInputTensorAddr(nullptr, 0, self_.tensor(), self_.device()), ACLNN_ERR_INNER_NULLPTR);
    EXPECT_EQ(aclSetInputTensorAddr(executor, 0, nullptr, self_.device()), ACLNN_ERR_INNER_NULLPTR);
    EXPECT_EQ(aclSetInputTensorAddr(executor, 3, self_.tensor(), self_.device()), ACLNN_ERR_PARAM_INVALID);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("index 3"), std::string::npos);
    EXPECT_EQ(aclSetOutputTensorAddr(executor, 1, out_.tensor(), out_.device()), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(aclSetInputTensorAddr(executor, 0, self_.tensor(), self_.device()), ACLNN_ERR_PARAM_INVALID)
        << "self is input 1, not 0";
    EXPECT_EQ(AclSetInputTensorAddr(executor, 1, self_.tensor(), self_.device()), 0) << "the reserved alias";
    EXPECT_EQ(aclSetDynamicInputTensorAddr(executor, 0, 0, nullptr, nullptr), ACLNN_ERR_INNER_NULLPTR);
    EXPECT_EQ(aclSetAclOpExecutorRepeatable(nullptr), ACLNN_ERR_INNER_NULLPTR);
    EXPECT_EQ(aclDestroyAclOpExecutor(nullptr), ACLNN_ERR_INNER_NULLPTR);
    EXPECT_EQ(aclDestroyAclOpExecutor(executor), 0);
}

TEST_F(Executors, Phase2ArgumentChecks) {
    EXPECT_EQ(aclnnSoftMarginLossBackward(nullptr, 0, nullptr, nullptr), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("executor"), std::string::npos);
    aclOpExecutor* executor = Plan();
    EXPECT_EQ(aclnnSoftMarginLossBackward(nullptr, 64, executor, nullptr), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("workspace"), std::string::npos);
    EXPECT_EQ(out_.Download(), out_.host()) << "nothing ran";
    EXPECT_EQ(aclnnSoftMarginLossBackward(nullptr, 0, executor, nullptr), ACLNN_ERR_PARAM_INVALID)
        << "the failed run consumed the single-use executor, as in CANN";
}

TEST_F(Executors, WorkspaceSmallerThanPlannedIsRejected) {
    // out overlapping self in a shifted way needs a staging workspace.
    const int64_t dims[] = {3, 5};
    const int64_t small_dims[] = {2, 5};
    aclTensor* self_rows = aclCreateTensor(small_dims, 2, ACL_FLOAT, nullptr, 5, ACL_FORMAT_ND, dims, 2,
                                           self_.device());
    aclTensor* out_rows = aclCreateTensor(small_dims, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 2,
                                          self_.device());
    uint64_t size = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnSoftMarginLossBackwardGetWorkspaceSize(grad_.tensor(), self_rows, target_.tensor(), 0, out_rows,
                                                          &size, &executor),
              ACLNN_ERR_PARAM_INVALID)
        << "grad [3,5] does not broadcast to [2,5]";
    const int64_t one_row[] = {5};
    aclTensor* grad_row = aclCreateTensor(one_row, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, one_row, 1,
                                          grad_.device());
    ASSERT_EQ(aclnnSoftMarginLossBackwardGetWorkspaceSize(grad_row, self_rows, target_.tensor(), 0, out_rows, &size,
                                                          &executor),
              0);
    EXPECT_GE(size, 2u * 5 * 4) << "staging space for the whole out";
    void* workspace = nullptr;
    ASSERT_EQ(aclrtMalloc(&workspace, size, ACL_MEM_MALLOC_HUGE_FIRST), 0);
    EXPECT_EQ(aclnnSoftMarginLossBackward(workspace, size - 1, executor, nullptr), ACLNN_ERR_PARAM_INVALID);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("smaller"), std::string::npos);
    aclrtFree(workspace);
    for (aclTensor* t : {self_rows, out_rows, grad_row}) aclDestroyTensor(t);
}

TEST_F(Executors, DestroyedTensorIsRejectedInPhase2) {
    const int64_t dims[] = {3, 5};
    aclTensor* out = aclCreateTensor(dims, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 2, out2_.device());
    uint64_t size = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnSoftMarginLossBackwardGetWorkspaceSize(grad_.tensor(), self_.tensor(), target_.tensor(), 0, out,
                                                          &size, &executor),
              0);
    aclDestroyTensor(out);
    EXPECT_EQ(aclnnSoftMarginLossBackward(nullptr, 0, executor, nullptr), ACLNN_ERR_PARAM_INVALID);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("destroyed"), std::string::npos);
    EXPECT_EQ(out2_.Download(), out2_.host());
}

}  // namespace
