// The NLL losses: aclnnNLLLoss, aclnnNLLLoss2d, aclnnNLLLossBackward and aclnnNLLLoss2dBackward. Phase 1's checks
// in each op_api's order with CANN's statuses and messages (nothing written on a rejection), the targets refused
// in phase 2 (outside [0, C), not ignoreIndex), CANN's empty-tensor fills, CANN's sample programs' values, each
// SoC's arithmetic (the kernel's dtype, Ascend 950's 1-D kernel, the older chips' INT32 targets) against a
// long-double reference, and the same bits for any thread count and layout.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn_cpu/aclnn_cpu.h"
#include "ops/operator_table.h"
#include "support/argument_fixture.h"
#include "support/device_tensor.h"
#include "support/reference.h"
#include "support/soc_scope.h"

namespace {

using aclnn_cpu::OperatorDescription;
using test_support::DeviceTensor;
using test_support::Arg;
using test_support::Null;
using test_support::TensorArg;
using test_support::TensorSpec;

constexpr aclnnStatus kNull = ACLNN_ERR_PARAM_NULLPTR;
constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;

const OperatorDescription& Row(const char* name) {
    const OperatorDescription* row = aclnn_cpu::FindOperator(name);
    if (row == nullptr) std::abort();
    return *row;
}

using Soc = test_support::SocScope;

constexpr const char* kAtlasA2 = "Ascend910B1";
constexpr const char* kAscend950 = nullptr;

bool IsForward(const OperatorDescription& row) { return row.output_count == 2; }

// A call's tensors: the inputs in the row's order, then out, then (forwards) totalWeightOut.
struct Call {
    std::vector<std::unique_ptr<DeviceTensor>> tensors;
    aclTensor* at(size_t i) const { return tensors[i]->tensor(); }
};

std::unique_ptr<DeviceTensor> Tensor(const TensorSpec& spec, const std::vector<double>& values) {
    return test_support::TensorOfValues(spec, values);
}

TensorSpec Spec(std::vector<int64_t> dims, aclDataType type = ACL_FLOAT) { return test_support::Dense(dims, type); }

// Phase 1, phase 2 and the stream's sync; the first failing status.
aclnnStatus RunCall(const OperatorDescription& row, const Call& call, int64_t reduction, int64_t ignore_index = -100) {
    std::vector<const aclTensor*> inputs;
    for (int k = 0; k < row.input_count; ++k) inputs.push_back(call.at(static_cast<size_t>(k)));
    aclTensor* outs[2] = {call.at(static_cast<size_t>(row.input_count)),
                          IsForward(row) ? call.at(static_cast<size_t>(row.input_count) + 1) : nullptr};
    const double parameters[] = {static_cast<double>(reduction), static_cast<double>(ignore_index)};
    uint64_t size = 0;
    aclOpExecutor* executor = nullptr;
    aclnnStatus status = row.get_workspace_size(inputs.data(), parameters, outs, &size, &executor);
    if (status != ACLNN_SUCCESS) return status;
    void* workspace = nullptr;
    if (size > 0 && aclrtMalloc(&workspace, size, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return ACLNN_ERR_INNER;
    status = row.run(workspace, size, executor, nullptr);
    const aclError synced = aclrtSynchronizeStream(nullptr);
    if (workspace != nullptr) aclrtFree(workspace);
    return status != ACLNN_SUCCESS ? status : static_cast<aclnnStatus>(synced);
}

std::vector<double> Values(const DeviceTensor& t) { return test_support::ViewValues(t); }

bool SameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0 || (std::isnan(a) && std::isnan(b)); }

// ---- CANN's sample programs (ops-nn loss/nll_loss*/examples) ------------------------------------------------------

TEST(Samples, NllLossNone) {
    const OperatorDescription& row = Row("nll_loss");
    Call call;
    call.tensors.push_back(Tensor(Spec({2, 3}), {0, 1, 2, 3, 4, 5}));
    call.tensors.push_back(Tensor(Spec({2}, ACL_INT32), {0, 2}));
    call.tensors.push_back(Tensor(Spec({3}), {1.1, 1.2, 1.3}));
    call.tensors.push_back(Tensor(Spec({2}), {9, 9}));
    call.tensors.push_back(Tensor(Spec({1}), {9}));
    ASSERT_EQ(RunCall(row, call, 0), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    const std::vector<double> out = Values(*call.tensors[3]);
    EXPECT_TRUE(out[0] == 0 && std::signbit(out[0])) << "-(1.1 * 0) prints -0.000000, as on the NPU";
    EXPECT_EQ(out[1], static_cast<double>(-(1.3f * 5.0f)));
    EXPECT_EQ(Values(*call.tensors[4])[0], 9) << "totalWeightOut is not written for none";
}

TEST(Samples, NllLossBackwardNone) {
    const OperatorDescription& row = Row("nll_loss_backward");
    Call call;
    call.tensors.push_back(Tensor(Spec({2}), {3.1, 6.5}));
    call.tensors.push_back(Tensor(Spec({2, 3}), {0, 1, 2, 3, 4, 5}));
    call.tensors.push_back(Tensor(Spec({2}, ACL_INT32), {0, 2}));
    call.tensors.push_back(Tensor(Spec({3}), {1.1, 1.2, 1.3}));
    call.tensors.push_back(Tensor(Spec({1}), {0}));
    call.tensors.push_back(Tensor(Spec({2, 3}), {9, 9, 9, 9, 9, 9}));
    ASSERT_EQ(RunCall(row, call, 0), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    const std::vector<double> out = Values(*call.tensors[5]);
    const std::vector<double> expected = {-(3.1f * 1.1f), 0, 0, 0, 0, -(6.5f * 1.3f)};
    for (size_t i = 0; i < out.size(); ++i) EXPECT_TRUE(SameBits(out[i], expected[i])) << i << ": " << out[i];
}

TEST(Samples, NllLoss2dBackwardNone) {
    const OperatorDescription& row = Row("nll_loss2d_backward");
    Call call;
    call.tensors.push_back(Tensor(Spec({3, 1, 1}), {2.7, 2.6, 2.5}));
    call.tensors.push_back(Tensor(Spec({3, 5, 1, 1}), {4.1, 4.2, 4.3, 4.4, 4.5, 4.6, 4.7, 4.8, 4.9, 5.0, 5.1,
                                                       5.2, 5.3, 5.4, 5.5}));
    call.tensors.push_back(Tensor(Spec({3, 1, 1}, ACL_INT64), {2, 3, 1}));
    call.tensors.push_back(Tensor(Spec({5}), {1, 1, 1, 1, 1}));
    call.tensors.push_back(Tensor(Spec({1}), {1}));
    call.tensors.push_back(Tensor(Spec({3, 5, 1, 1}), std::vector<double>(15, 9)));
    ASSERT_EQ(RunCall(row, call, 0), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    const std::vector<double> out = Values(*call.tensors[5]);
    for (int i = 0; i < 15; ++i) {
        const double expected = i == 2 ? -2.7f : i == 8 ? -2.6f : i == 11 ? -2.5f : 0.0;
        EXPECT_TRUE(SameBits(out[static_cast<size_t>(i)], expected)) << i << ": " << out[static_cast<size_t>(i)];
    }
}

// CANN's aclnnNLLLoss2d sample passes the target 2 for C = 2: the kernel fails before writing anything, and the
// stream's synchronisation returns 161002.
TEST(Samples, NllLoss2dSampleTargetOutOfRange) {
    const OperatorDescription& row = Row("nll_loss2d");
    Call call;
    std::vector<double> self;
    for (int i = 0; i < 12; ++i) self.push_back(i + 0.1);
    call.tensors.push_back(Tensor(Spec({1, 2, 3, 2}), self));
    call.tensors.push_back(Tensor(Spec({1, 3, 2}, ACL_INT32), {1, 0, 1, 1, 2, 1}));
    call.tensors.push_back(Tensor(Spec({2}), {1.1, 1.2}));
    call.tensors.push_back(Tensor(Spec({1, 3, 2}), std::vector<double>(6, 9)));
    call.tensors.push_back(Tensor(Spec({1}), {9}));
    const std::vector<uint8_t> before = call.tensors[3]->Download();
    EXPECT_EQ(RunCall(row, call, 0), kInvalid);
    const std::string message = aclGetRecentErrMsg();
    EXPECT_NE(message.find("aclnnNLLLoss2d: Target 2 at [0, 2, 0] of target is out of bounds"), std::string::npos)
        << message;
    EXPECT_EQ(call.tensors[3]->Download(), before) << "nothing is written";
}

// ---- targets outside [0, C) ------------------------------------------------------------------------------------

TEST(Targets, OutOfRangeIsRefusedBeforeAnythingIsWritten) {
    for (const char* name : {"nll_loss", "nll_loss_backward"}) {
        for (double bad : {3.0, -1.0, 1e12}) {
            const OperatorDescription& row = Row(name);
            Call call;
            if (!IsForward(row)) call.tensors.push_back(Tensor(Spec({}), {1}));
            call.tensors.push_back(Tensor(Spec({4, 3}), std::vector<double>(12, -1)));
            call.tensors.push_back(Tensor(Spec({4}, ACL_INT64), {0, 1, bad, 2}));
            call.tensors.push_back(Tensor(Spec({3}), {1, 1, 1}));
            if (!IsForward(row)) call.tensors.push_back(Tensor(Spec({1}), {4}));
            call.tensors.push_back(Tensor(Spec(IsForward(row) ? std::vector<int64_t>{} : std::vector<int64_t>{4, 3}),
                                          std::vector<double>(12, 9)));
            if (IsForward(row)) call.tensors.push_back(Tensor(Spec({1}), {9}));
            std::vector<std::vector<uint8_t>> before;
            for (const auto& t : call.tensors) before.push_back(t->Download());
            EXPECT_EQ(RunCall(row, call, 2), kInvalid) << name << " " << bad;
            const std::string message = aclGetRecentErrMsg();
            EXPECT_NE(message.find("at [2] of target is out of bounds"), std::string::npos) << message;
            EXPECT_NE(message.find(std::to_string(static_cast<long long>(bad))), std::string::npos) << message;
            for (size_t i = 0; i < call.tensors.size(); ++i)
                EXPECT_EQ(call.tensors[i]->Download(), before[i]) << name << ": tensor " << i << " changed";
        }
    }
}

// Targets an asynchronous copy queued before the operator writes are the ones the kernel reads (phase 2 itself
// reads none: on the NPU the copy may not have run yet either).
TEST(Targets, WrittenByQueuedWorkAreReadWhenTheKernelRuns) {
    const OperatorDescription& row = Row("nll_loss");
    Call call;
    call.tensors.push_back(Tensor(Spec({3, 4}), {-1, -2, -3, -4, -5, -6, -7, -8, -9, -10, -11, -12}));
    call.tensors.push_back(Tensor(Spec({3}, ACL_INT64), {99, -7, 1234}));  // out of bounds until the copy runs
    call.tensors.push_back(Tensor(Spec({4}), {1, 1, 1, 1}));
    call.tensors.push_back(Tensor(Spec({}), {0}));
    call.tensors.push_back(Tensor(Spec({1}), {0}));
    static const int64_t targets[3] = {3, 0, 2};
    ASSERT_EQ(aclrtMemcpyAsync(call.tensors[1]->device(), sizeof targets, targets, sizeof targets,
                               ACL_MEMCPY_HOST_TO_DEVICE, nullptr),
              ACL_SUCCESS);
    ASSERT_EQ(RunCall(row, call, 2), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(Values(*call.tensors[3])[0], 4 + 5 + 11);
}

TEST(Targets, IgnoreIndexMayBeAnyValueAndUint8TargetsRead) {
    const OperatorDescription& row = Row("nll_loss");
    for (int64_t ignore : {int64_t{-100}, int64_t{1}, int64_t{255}, int64_t{1} << 40}) {
        Call call;
        call.tensors.push_back(Tensor(Spec({3, 3}), {-1, -2, -3, -4, -5, -6, -7, -8, -9}));
        const aclDataType type = ignore == 255 ? ACL_UINT8 : ACL_INT64;
        const double third = ignore == -100 ? 0 : static_cast<double>(ignore);
        call.tensors.push_back(Tensor(Spec({3}, type), {0, 1, third}));
        call.tensors.push_back(Tensor(Spec({3}), {1, 2, 4}));
        call.tensors.push_back(Tensor(Spec({}), {0}));
        call.tensors.push_back(Tensor(Spec({}), {0}));
        ASSERT_EQ(RunCall(row, call, 2, ignore), ACLNN_SUCCESS) << ignore << ": " << aclGetRecentErrMsg();
        // 1*1 + 2*5 (+ 1*7 where the third target 0 is not ignored; ignore == 1 drops the second).
        const double sum = ignore == -100 ? 1 + 10 + 7 : ignore == 1 ? 1 : 1 + 10;
        const double weights = ignore == -100 ? 4 : ignore == 1 ? 1 : 3;
        EXPECT_EQ(Values(*call.tensors[3])[0], sum) << ignore;
        EXPECT_EQ(Values(*call.tensors[4])[0], weights) << ignore;
    }
}

// ---- empty tensors ----------------------------------------------------------------------------------------------

TEST(Empty, ForwardFillsAsCann) {
    for (const char* name : {"nll_loss", "nll_loss2d"}) {
        const OperatorDescription& row = Row(name);
        const bool two_d = std::string(name) == "nll_loss2d";
        for (int64_t reduction : {0, 1, 2}) {
            Call call;
            call.tensors.push_back(Tensor(Spec(two_d ? std::vector<int64_t>{0, 3, 2, 2} : std::vector<int64_t>{0, 3}), {}));
            call.tensors.push_back(Tensor(Spec(two_d ? std::vector<int64_t>{0, 2, 2} : std::vector<int64_t>{0}, ACL_INT64), {}));
            call.tensors.push_back(Tensor(Spec({3}), {1, 1, 1}));
            const std::vector<int64_t> out_dims = reduction != 0 ? std::vector<int64_t>{}
                                                  : two_d        ? std::vector<int64_t>{0, 2, 2}
                                                                 : std::vector<int64_t>{0};
            call.tensors.push_back(Tensor(Spec(out_dims), {}));
            call.tensors.push_back(Tensor(Spec({1}), {9}));
            ASSERT_EQ(RunCall(row, call, reduction), ACLNN_SUCCESS) << name << ": " << aclGetRecentErrMsg();
            if (reduction == 0) {
                EXPECT_EQ(Values(*call.tensors[4])[0], 9) << name;
                continue;
            }
            const double out = Values(*call.tensors[3])[0];
            EXPECT_TRUE(reduction == 1 ? std::isnan(out) : out == 0) << name << " " << reduction << ": " << out;
            EXPECT_EQ(Values(*call.tensors[4])[0], 0) << name;
        }
    }
}

TEST(Empty, BackwardWritesNothing) {
    const OperatorDescription& row = Row("nll_loss_backward");
    Call call;
    call.tensors.push_back(Tensor(Spec({}), {1}));
    call.tensors.push_back(Tensor(Spec({0, 3}), {}));
    call.tensors.push_back(Tensor(Spec({0}, ACL_INT64), {}));
    call.tensors.push_back(Tensor(Spec({3}), {1, 1, 1}));
    call.tensors.push_back(Tensor(Spec({1}), {1}));
    call.tensors.push_back(Tensor(Spec({0, 3}), {}));
    EXPECT_EQ(RunCall(row, call, 1), ACLNN_SUCCESS) << aclGetRecentErrMsg();
}

// ---- each SoC's arithmetic against a long-double reference --------------------------------------------------------

// A random call: self [N, C] (or [C]) of dtype `type`, targets of `target_type` with about a tenth ignored.
struct Problem {
    std::vector<int64_t> self_dims;
    std::vector<double> self, weight, grad;
    std::vector<int64_t> target;
    double total_weight = 0;
};

Problem RandomProblem(std::vector<int64_t> self_dims, aclDataType type, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> logit(-12, 0), weight(0.25, 2), grad(-2, 2);
    Problem p;
    p.self_dims = self_dims;
    const int64_t classes = self_dims.size() == 1 ? self_dims[0] : self_dims[1];
    int64_t samples = self_dims.size() == 1 ? 1 : self_dims[0];
    for (size_t d = 2; d < self_dims.size(); ++d) samples *= self_dims[d];
    for (int64_t i = 0; i < test_support::NumElements(self_dims); ++i)
        p.self.push_back(test_support::RoundToType(logit(rng), type));
    for (int64_t c = 0; c < classes; ++c) p.weight.push_back(test_support::RoundToType(weight(rng), type));
    for (int64_t s = 0; s < samples; ++s) {
        p.target.push_back(rng() % 10 == 0 ? -100 : static_cast<int64_t>(rng() % static_cast<uint64_t>(classes)));
        p.grad.push_back(test_support::RoundToType(grad(rng), type));
    }
    p.total_weight = test_support::RoundToType(weight(rng) * static_cast<double>(samples), type);
    return p;
}

// The score of sample s at class c in self's row-major values.
double Score(const Problem& p, int64_t s, int64_t c) {
    if (p.self_dims.size() == 1) return p.self[static_cast<size_t>(c)];
    int64_t per_batch = 1;
    for (size_t d = 2; d < p.self_dims.size(); ++d) per_batch *= p.self_dims[d];
    const int64_t n = s / per_batch, rest = s % per_batch;
    return p.self[static_cast<size_t>((n * p.self_dims[1] + c) * per_batch + rest)];
}

struct Case {
    const char* soc;
    aclDataType type;
    aclDataType kernel_type;  // the dtype CANN's kernel computes in on that SoC
};

const Case kCases[] = {{kAtlasA2, ACL_FLOAT, ACL_FLOAT},     {kAtlasA2, ACL_FLOAT16, ACL_FLOAT},
                       {kAtlasA2, ACL_BF16, ACL_BF16},       {kAscend950, ACL_FLOAT, ACL_FLOAT},
                       {kAscend950, ACL_FLOAT16, ACL_FLOAT16}, {kAscend950, ACL_BF16, ACL_BF16},
                       {"Ascend910A", ACL_FLOAT16, ACL_FLOAT}};

TEST(Numerics, ForwardAgainstLongDouble) {
    for (const Case& c : kCases) {
        const Soc soc(c.soc);
        for (const char* name : {"nll_loss", "nll_loss2d"}) {
            const bool two_d = std::string(name) == "nll_loss2d";
            const std::vector<int64_t> dims = two_d ? std::vector<int64_t>{3, 7, 5, 4} : std::vector<int64_t>{300, 17};
            const Problem p = RandomProblem(dims, c.type, 7);
            std::vector<int64_t> target_dims = {dims[0]};
            if (two_d) target_dims = {dims[0], dims[2], dims[3]};
            for (int64_t reduction : {0, 1, 2}) {
                for (aclDataType target_type : {ACL_INT64, ACL_INT32}) {
                    const std::string label = std::string(name) + " " + (c.soc ? c.soc : "Ascend950") + " type " +
                                              std::to_string(c.type) + " reduction " + std::to_string(reduction);
                    Call call;
                    call.tensors.push_back(Tensor(Spec(dims, c.type), p.self));
                    std::vector<double> targets(p.target.begin(), p.target.end());
                    call.tensors.push_back(Tensor(Spec(target_dims, target_type), targets));
                    call.tensors.push_back(Tensor(Spec({dims[1]}, c.type), p.weight));
                    // out in FLOAT: the kernel's rounding shows through the cast.
                    call.tensors.push_back(Tensor(Spec(reduction == 0 ? target_dims : std::vector<int64_t>{}),
                                                  std::vector<double>(p.target.size(), 9)));
                    call.tensors.push_back(Tensor(Spec({1}), {9}));
                    ASSERT_EQ(RunCall(Row(name), call, reduction), ACLNN_SUCCESS) << label << aclGetRecentErrMsg();
                    long double sum = 0, weights = 0;
                    const std::vector<double> out = Values(*call.tensors[3]);
                    for (size_t s = 0; s < p.target.size(); ++s) {
                        const int64_t t = p.target[s];
                        const double w = t < 0 ? 0 : p.weight[static_cast<size_t>(t)];
                        const double x = t < 0 ? 0 : Score(p, static_cast<int64_t>(s), t);
                        sum -= static_cast<long double>(w) * x;
                        weights += w;
                        if (reduction == 0) {
                            const double expected =
                                t < 0 ? 0.0 : -test_support::RoundToType(static_cast<float>(w * x), c.kernel_type);
                            ASSERT_TRUE(SameBits(out[s], expected)) << label << " sample " << s << ": " << out[s]
                                                                    << " vs " << expected;
                        }
                    }
                    if (reduction == 0) continue;
                    const double exact = reduction == 1 ? static_cast<double>(sum / weights) : static_cast<double>(sum);
                    const double bound =
                        test_support::UlpOf(exact, c.kernel_type) * (c.kernel_type == ACL_FLOAT ? 2 : 1);
                    EXPECT_LE(std::fabs(out[0] - exact), bound) << label << ": " << out[0] << " vs " << exact;
                    const double total = Values(*call.tensors[4])[0];
                    EXPECT_LE(std::fabs(total - static_cast<double>(weights)),
                              test_support::UlpOf(static_cast<double>(weights), c.kernel_type))
                        << label;
                }
            }
        }
    }
}

TEST(Numerics, BackwardAgainstTheKernelsSteps) {
    for (const Case& c : kCases) {
        const Soc soc(c.soc);
        for (const char* name : {"nll_loss_backward", "nll_loss2d_backward"}) {
            const bool two_d = std::string(name) == "nll_loss2d_backward";
            const std::vector<int64_t> dims = two_d ? std::vector<int64_t>{2, 6, 3, 5} : std::vector<int64_t>{64, 33};
            const Problem p = RandomProblem(dims, c.type, 11);
            std::vector<int64_t> target_dims = {dims[0]};
            if (two_d) target_dims = {dims[0], dims[2], dims[3]};
            for (int64_t reduction : {0, 1, 2}) {
                const std::string label = std::string(name) + " " + (c.soc ? c.soc : "Ascend950") + " type " +
                                          std::to_string(c.type) + " reduction " + std::to_string(reduction);
                Call call;
                call.tensors.push_back(reduction == 0 ? Tensor(Spec(target_dims, c.type), p.grad)
                                                      : Tensor(Spec({}, c.type), {p.grad[0]}));
                call.tensors.push_back(Tensor(Spec(dims, c.type), p.self));
                call.tensors.push_back(
                    Tensor(Spec(target_dims, ACL_INT64), std::vector<double>(p.target.begin(), p.target.end())));
                call.tensors.push_back(Tensor(Spec({dims[1]}, c.type), p.weight));
                call.tensors.push_back(Tensor(Spec({1}, c.type), {p.total_weight}));
                call.tensors.push_back(Tensor(Spec(dims, c.type), std::vector<double>(p.self.size(), 9)));
                ASSERT_EQ(RunCall(Row(name), call, reduction), ACLNN_SUCCESS) << label << aclGetRecentErrMsg();
                const std::vector<double> out = Values(*call.tensors[5]);
                std::vector<double> expected(out.size(), 0.0);
                int64_t per_batch = 1;
                for (size_t d = 2; d < dims.size(); ++d) per_batch *= dims[d];
                for (size_t s = 0; s < p.target.size(); ++s) {
                    const int64_t t = p.target[s];
                    if (t < 0) continue;
                    const double w = p.weight[static_cast<size_t>(t)];
                    float scale = static_cast<float>(reduction == 0 ? p.grad[s] : p.grad[0]);
                    if (reduction == 1) scale = static_cast<float>(scale / p.total_weight);
                    const int64_t n = static_cast<int64_t>(s) / per_batch, rest = static_cast<int64_t>(s) % per_batch;
                    // The kernel's product, rounded to its dtype, then to out's (self's).
                    expected[static_cast<size_t>((n * dims[1] + t) * per_batch + rest)] = test_support::RoundToType(
                        -test_support::RoundToType(static_cast<float>(scale * w), c.kernel_type), c.type);
                }
                for (size_t i = 0; i < out.size(); ++i)
                    ASSERT_TRUE(SameBits(out[i], expected[i])) << label << " element " << i << ": " << out[i]
                                                               << " vs " << expected[i];
            }
        }
    }
}

// Ascend 950's kernel of a 1-D self: the mean is -self[t] (the weight cancels; NaN for a zero weight) and an
// ignored target gives 0; the older chips compute [1, C] (weight * self / weight; an ignored target: 0 / 0).
TEST(Numerics, OneDimensionalSelfPerSoc) {
    const OperatorDescription& row = Row("nll_loss");
    struct Expectation {
        const char* soc;
        int64_t target;
        double weight;
        bool nan;
        double value;
    };
    const float x = 0.3f, w = 3.0f;
    const Expectation cases[] = {{kAscend950, 1, w, false, -x},
                                 {kAscend950, -100, w, false, 0.0},
                                 {kAscend950, 1, 0.0, true, 0},
                                 {kAtlasA2, 1, w, false, static_cast<float>(-(w * x) / w)},
                                 {kAtlasA2, -100, w, true, 0}};
    for (const Expectation& e : cases) {
        const Soc soc(e.soc);
        Call call;
        call.tensors.push_back(Tensor(Spec({3}), {-1, x, -2}));
        call.tensors.push_back(Tensor(Spec({}, ACL_INT64), {static_cast<double>(e.target)}));
        call.tensors.push_back(Tensor(Spec({3}), {1, e.weight, 1}));
        call.tensors.push_back(Tensor(Spec({}), {9}));
        call.tensors.push_back(Tensor(Spec({1}), {9}));
        ASSERT_EQ(RunCall(row, call, 1), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        const double out = Values(*call.tensors[3])[0];
        const std::string label = std::string(e.soc ? e.soc : "950") + " target " + std::to_string(e.target);
        if (e.nan) {
            EXPECT_TRUE(std::isnan(out)) << label << ": " << out;
        } else {
            EXPECT_EQ(out, e.value) << label;
        }
    }
}

// The hard cases: scores of +-1e4 and -inf (a masked class), one class, every sample ignored (a mean of 0/0).
TEST(Numerics, HardCases) {
    const OperatorDescription& row = Row("nll_loss");
    const double inf = HUGE_VAL;
    struct Case {
        const char* what;
        std::vector<int64_t> dims;
        std::vector<double> self, target, weight;
        double sum, mean;  // NaN: NaN expected
    };
    const Case cases[] = {
        {"+-1e4", {2, 2}, {1e4, -1e4, -1e4, 1e4}, {1, 0}, {1, 2}, 1e4 + 2e4, (1e4 + 2e4) / 3},
        {"a masked class", {2, 3}, {-inf, -1, -2, -3, -inf, -4}, {0, 2}, {1, 1, 1}, inf, inf},
        {"one class", {3, 1}, {-0.5, -1.5, -2.5}, {0, 0, 0}, {2}, 9, 1.5},
        {"every sample ignored", {2, 3}, {-1, -2, -3, -4, -5, -6}, {-100, -100}, {1, 1, 1}, 0, std::nan("")},
    };
    for (const Case& c : cases) {
        for (int64_t reduction : {1, 2}) {
            Call call;
            call.tensors.push_back(Tensor(Spec(c.dims), c.self));
            call.tensors.push_back(Tensor(Spec({c.dims[0]}, ACL_INT64), c.target));
            call.tensors.push_back(Tensor(Spec({c.dims[1]}), c.weight));
            call.tensors.push_back(Tensor(Spec({}), {9}));
            call.tensors.push_back(Tensor(Spec({1}), {9}));
            ASSERT_EQ(RunCall(row, call, reduction), ACLNN_SUCCESS) << c.what << ": " << aclGetRecentErrMsg();
            const double expected = reduction == 1 ? c.mean : c.sum;
            const double got = Values(*call.tensors[3])[0];
            if (std::isnan(expected)) {
                EXPECT_TRUE(std::isnan(got)) << c.what << ": " << got;
            } else {
                EXPECT_EQ(got, static_cast<double>(static_cast<float>(expected))) << c.what << " reduction "
                                                                                   << reduction;
            }
        }
    }
}

// The older chips' backward casts the target to INT32 first: an INT64 target of 2^32 + 1 is class 1 there, and
// out of bounds on Ascend 950.
TEST(Numerics, OlderChipsNarrowTheGradientsTargets) {
    const OperatorDescription& row = Row("nll_loss_backward");
    for (const char* name : {kAtlasA2, kAscend950}) {
        const Soc soc(name);
        Call call;
        call.tensors.push_back(Tensor(Spec({}), {1}));
        call.tensors.push_back(Tensor(Spec({1, 3}), {0, 0, 0}));
        call.tensors.push_back(Tensor(Spec({1}, ACL_INT64), {4294967297.0}));
        call.tensors.push_back(Tensor(Spec({3}), {1, 2, 3}));
        call.tensors.push_back(Tensor(Spec({1}), {1}));
        call.tensors.push_back(Tensor(Spec({1, 3}), {9, 9, 9}));
        const aclnnStatus status = RunCall(row, call, 2);
        if (name == kAtlasA2) {
            ASSERT_EQ(status, ACLNN_SUCCESS) << aclGetRecentErrMsg();
            EXPECT_EQ(Values(*call.tensors[5]), (std::vector<double>{0, -2, 0}));
        } else {
            EXPECT_EQ(status, kInvalid);
        }
    }
}

// ---- the same bits for any thread count and layout ----------------------------------------------------------------

TEST(Determinism, SumsAreTheSameForAnyThreadCountAndLayout) {
    const OperatorDescription& row = Row("nll_loss");
    const Problem p = RandomProblem({20000, 5}, ACL_FLOAT, 3);
    std::vector<double> results;
    for (int threads : {1, 2, 3}) {
        for (bool transposed : {false, true}) {
            aclnnCpuSetThreadCount(threads);
            Call call;
            TensorSpec self = Spec({20000, 5});
            std::vector<double> values = p.self;
            if (transposed) {
                // The same logical [20000, 5] stored column-major.
                self.strides = {1, 20000};
            }
            call.tensors.push_back(Tensor(self, values));
            call.tensors.push_back(Tensor(Spec({20000}, ACL_INT64), std::vector<double>(p.target.begin(), p.target.end())));
            call.tensors.push_back(Tensor(Spec({5}), p.weight));
            call.tensors.push_back(Tensor(Spec({}), {0}));
            call.tensors.push_back(Tensor(Spec({}), {0}));
            ASSERT_EQ(RunCall(row, call, 1), ACLNN_SUCCESS) << aclGetRecentErrMsg();
            results.push_back(Values(*call.tensors[3])[0]);
            aclnnCpuSetThreadCount(0);
        }
    }
    for (double r : results) EXPECT_TRUE(SameBits(r, results[0])) << r << " vs " << results[0];
}

// The gradient of 20000 samples (threads share its scatter) into a dense and a column-major out: the same values.
TEST(Determinism, GradientsAreTheSameForAnyThreadCountAndLayout) {
    const OperatorDescription& row = Row("nll_loss_backward");
    const Problem p = RandomProblem({20000, 5}, ACL_FLOAT, 5);
    std::vector<std::vector<double>> results;
    for (int threads : {1, 2, 3}) {
        for (bool transposed : {false, true}) {
            aclnnCpuSetThreadCount(threads);
            Call call;
            call.tensors.push_back(Tensor(Spec({20000}), p.grad));
            call.tensors.push_back(Tensor(Spec({20000, 5}), p.self));
            call.tensors.push_back(Tensor(Spec({20000}, ACL_INT64), std::vector<double>(p.target.begin(), p.target.end())));
            call.tensors.push_back(Tensor(Spec({5}), p.weight));
            call.tensors.push_back(Tensor(Spec({1}), {p.total_weight}));
            TensorSpec out = Spec({20000, 5});
            if (transposed) out.strides = {1, 20000};
            call.tensors.push_back(Tensor(out, std::vector<double>(100000, 9)));
            ASSERT_EQ(RunCall(row, call, 0), ACLNN_SUCCESS) << aclGetRecentErrMsg();
            results.push_back(Values(*call.tensors[5]));
            aclnnCpuSetThreadCount(0);
        }
    }
    for (const std::vector<double>& r : results) EXPECT_EQ(r, results[0]);
    int64_t written = 0;
    for (double v : results[0]) written += v != 0 ? 1 : 0;
    EXPECT_GT(written, 15000) << "about nine samples in ten are not ignored";
}

// ---- phase 1's checks, in each op_api's order ---------------------------------------------------------------------

struct Check {
    const char* what;
    std::vector<TensorArg> args;  // the inputs, then (forwards) totalWeightOut, then out
    int64_t reduction;
    const char* soc;
    aclnnStatus status;
    std::vector<std::string> message_parts;
};

void ExpectChecks(const char* name, const std::vector<Check>& checks) {
    const OperatorDescription& r = Row(name);
    for (const Check& c : checks) {
        const Soc soc(c.soc);
        test_support::ArgumentFixture fixture(c.args);
        auto phase1 = [&](uint64_t* size, aclOpExecutor** executor) {
            std::vector<const aclTensor*> inputs;
            for (int k = 0; k < r.input_count; ++k) inputs.push_back(fixture.tensor(static_cast<size_t>(k)));
            aclTensor* outs[2] = {fixture.tensor(fixture.size() - 1),
                                  IsForward(r) ? fixture.tensor(fixture.size() - 2) : nullptr};
            const double parameters[] = {static_cast<double>(c.reduction), -100};
            return r.get_workspace_size(inputs.data(), parameters, outs, size, executor);
        };
        const std::string label = std::string(r.api_name) + ": " + c.what;
        if (c.status == ACLNN_SUCCESS) {
            uint64_t size = 0;
            aclOpExecutor* executor = nullptr;
            EXPECT_EQ(phase1(&size, &executor), ACLNN_SUCCESS) << label << ": " << aclGetRecentErrMsg();
            if (executor != nullptr) {
                aclSetAclOpExecutorRepeatable(executor);
                aclDestroyAclOpExecutor(executor);
            }
            continue;
        }
        const std::vector<uint8_t> total_before = IsForward(r) ? fixture.Block(fixture.size() - 2)
                                                                : std::vector<uint8_t>{};
        test_support::ExpectRejection({label.c_str(), c.status, c.message_parts}, fixture, false, false, phase1);
        if (IsForward(r)) {
            EXPECT_EQ(fixture.Block(fixture.size() - 2), total_before) << label << ": totalWeightOut changed";
        }
    }
}

TEST(Checks, NllLoss) {
    const TensorArg self = Arg({2, 3}), target = Arg({2}, ACL_INT64), weight = Arg({3}), total = Arg({1});
    ExpectChecks("nll_loss", {
        {"fine", {self, target, weight, total, Arg({})}, 1, nullptr, ACLNN_SUCCESS, {}},
        {"null weight", {self, target, Null(), total, Arg({})}, 1, nullptr, kNull, {"argument weight."}},
        // out before lossTotalWeightOut, which the message names by the op_api's parameter.
        {"null out and total", {self, target, weight, Null(), Null()}, 1, nullptr, kNull, {"argument out."}},
        {"null total", {self, target, weight, Null(), Arg({})}, 1, nullptr, kNull, {"argument lossTotalWeightOut."}},
        {"FLOAT16 weight", {self, target, Arg({3}, ACL_FLOAT16), total, Arg({})}, 1, nullptr, kInvalid,
         {"Tensor weight expected dtype is DT_FLOAT but found DT_FLOAT16."}},
        {"INT32 out", {self, target, weight, total, Arg({}, ACL_INT32)}, 1, nullptr, kInvalid,
         {"Result type DT_FLOAT can't be cast to the desired output type DT_INT32."}},
        {"INT64 total", {self, target, weight, Arg({1}, ACL_INT64), Arg({})}, 1, nullptr, kInvalid,
         {"Result type DT_FLOAT can't be cast to the desired output type DT_INT64."}},
        {"BF16 on Atlas 910", {Arg({2, 3}, ACL_BF16), target, Arg({3}, ACL_BF16), total, Arg({})}, 1, "Ascend910A",
         kInvalid, {"Tensor self not implemented for DT_BFLOAT16, should be in dtype support list "
                    "[DT_FLOAT,DT_FLOAT16,]."}},
        {"BF16 on Atlas A2", {Arg({2, 3}, ACL_BF16), target, Arg({3}, ACL_BF16), total, Arg({})}, 1, kAtlasA2,
         ACLNN_SUCCESS, {}},
        {"INT16 target", {self, Arg({2}, ACL_INT16), weight, total, Arg({})}, 1, nullptr, kInvalid,
         {"Tensor target not implemented for DT_INT16, should be in dtype support list "
          "[DT_INT64,DT_UINT8,DT_INT32,]."}},
        {"reduction 3", {self, target, weight, total, Arg({})}, 3, nullptr, kInvalid,
         {"Reduction should be between 0 and 2, but current is 3."}},
        {"3-D self", {Arg({2, 3, 1}), target, weight, total, Arg({})}, 1, nullptr, kInvalid,
         {"Input tensor should be 1D or 2D."}},
        {"2-D target", {self, Arg({2, 1}, ACL_INT64), weight, total, Arg({})}, 1, nullptr, kInvalid,
         {"0D or 1D target tensor expected, multi-target not supported."}},
        {"target of another batch", {self, Arg({3}, ACL_INT64), weight, total, Arg({})}, 1, nullptr, kInvalid,
         {"but (got self: [2, 3], target: [3])"}},
        {"weight [2]", {self, target, Arg({2}), total, Arg({})}, 1, nullptr, kInvalid,
         {"Weight tensor should be defined for all 3 classes but got weight tensor of shape: [2]"}},
        {"none, out []", {self, target, weight, total, Arg({})}, 0, nullptr, kInvalid,
         {"Expect out shape [2], but got: []."}},
        {"mean, out [2]", {self, target, weight, total, Arg({2})}, 1, nullptr, kInvalid,
         {"Expected a single element out tensor, but got: [2]"}},
        {"total [2]", {self, target, weight, Arg({2}), Arg({})}, 1, nullptr, kInvalid,
         {"Shape of totalWeightOut tensor should be [1], but current is [2]."}},
        {"no classes", {Arg({2, 0}), target, Arg({0}), total, Arg({})}, 1, nullptr, kInvalid,
         {"Target is out of bounds"}},
    });
}

TEST(Checks, NllLoss2d) {
    const TensorArg self = Arg({2, 3, 2, 2}), target = Arg({2, 2, 2}, ACL_INT32), weight = Arg({3}),
                    total = Arg({1});
    ExpectChecks("nll_loss2d", {
        {"fine", {self, target, weight, total, Arg({2, 2, 2})}, 0, nullptr, ACLNN_SUCCESS, {}},
        // The list before self against weight, which names self.
        {"INT32 self and FLOAT16 weight", {Arg({2, 3, 2, 2}, ACL_INT32), target, Arg({3}, ACL_FLOAT16), total,
         Arg({})}, 1, nullptr, kInvalid, {"Tensor self not implemented for DT_INT32"}},
        {"FLOAT16 weight", {self, target, Arg({3}, ACL_FLOAT16), total, Arg({})}, 1, nullptr, kInvalid,
         {"Tensor self expected dtype is DT_FLOAT16 but found DT_FLOAT."}},
        {"reduction -1", {self, target, weight, total, Arg({})}, -1, nullptr, kInvalid,
         {"Reduction should be between 0 and 2, but current is [-1]."}},
        {"3-D self", {Arg({2, 3, 4}), target, weight, total, Arg({})}, 1, nullptr, kInvalid,
         {"Input tensor dim should be 4D, other dim not supported."}},
        {"weight [4]", {self, target, Arg({4}), total, Arg({})}, 1, nullptr, kInvalid,
         {"Input tensor x[1] should be equal to weight[0]."}},
        {"2-D target", {self, Arg({2, 2}, ACL_INT32), weight, total, Arg({})}, 1, nullptr, kInvalid,
         {"target tensor dim should be 3D, other dim not supported."}},
        {"target [2, 2, 3]", {self, Arg({2, 2, 3}, ACL_INT32), weight, total, Arg({})}, 1, nullptr, kInvalid,
         {"size mismatch got input: [[2, 3, 2, 2]], target: [[2, 2, 3]]."}},
        {"none, out []", {self, target, weight, total, Arg({})}, 0, nullptr, kInvalid,
         {"Expected tensor for out to have same size as tensor for target"}},
        {"sum, out [2]", {self, target, weight, total, Arg({2})}, 2, nullptr, kInvalid,
         {"Shape of out tensor should be [1], but current is [2]."}},
    });
}

TEST(Checks, NllLossBackward) {
    const TensorArg grad = Arg({}), self = Arg({2, 3}), target = Arg({2}, ACL_INT64), weight = Arg({3}),
                    total = Arg({1});
    ExpectChecks("nll_loss_backward", {
        {"fine", {grad, self, target, weight, total, Arg({2, 3})}, 1, nullptr, ACLNN_SUCCESS, {}},
        {"null totalWeight", {grad, self, target, weight, Null(), Arg({2, 3})}, 1, nullptr, kNull,
         {"argument totalWeight."}},
        {"FLOAT16 gradOutput", {Arg({}, ACL_FLOAT16), self, target, weight, total, Arg({2, 3})}, 1, nullptr,
         kInvalid, {"Tensor gradOutput expected dtype is DT_FLOAT but found DT_FLOAT16."}},
        {"FLOAT16 out", {grad, self, target, weight, total, Arg({2, 3}, ACL_FLOAT16)}, 1, nullptr, ACLNN_SUCCESS,
         {}},
        {"self [C], target [C]", {grad, Arg({3}), Arg({3}, ACL_INT64), weight, total, Arg({3})}, 1, nullptr,
         ACLNN_SUCCESS, {}},
        {"target of another batch", {grad, self, Arg({3}, ACL_INT64), weight, total, Arg({2, 3})}, 1, nullptr,
         kInvalid, {"Size mismatch (got input: [2, 3], target: [3]) "}},
        {"total [2]", {grad, self, target, weight, Arg({2}), Arg({2, 3})}, 1, nullptr, kInvalid,
         {"Expected totalWeight to be a single element tensor, but current is [2]."}},
        {"none, gradOutput []", {grad, self, target, weight, total, Arg({2, 3})}, 0, nullptr, kInvalid,
         {"Expect gradOutput shape [2], but got: []."}},
        {"out [3, 2]", {grad, self, target, weight, total, Arg({3, 2})}, 1, nullptr, kInvalid,
         {"Expected tensor for self to have same size as tensor for out"}},
    });
}

TEST(Checks, NllLoss2dBackward) {
    const TensorArg grad = Arg({}), self = Arg({2, 3, 2, 2}), target = Arg({2, 2, 2}, ACL_UINT8), weight = Arg({3}),
                    total = Arg({1});
    ExpectChecks("nll_loss2d_backward", {
        {"fine", {grad, self, target, weight, total, Arg({2, 3, 2, 2})}, 2, nullptr, ACLNN_SUCCESS, {}},
        {"FLOAT16 out", {grad, self, target, weight, total, Arg({2, 3, 2, 2}, ACL_FLOAT16)}, 1, nullptr, kInvalid,
         {"Tensor self expected dtype is DT_FLOAT16 but found DT_FLOAT."}},
        // The shapes before the reduction.
        {"3-D self, reduction 7", {grad, Arg({2, 3, 2}), target, weight, total, Arg({2, 3, 2})}, 7, nullptr,
         kInvalid, {"Input tensor should be 4D."}},
        {"reduction 7", {grad, self, target, weight, total, Arg({2, 3, 2, 2})}, 7, nullptr, kInvalid,
         {"Reduction should be between 0 and 2, but current is 7."}},
        {"weight [3, 1]", {grad, self, target, Arg({3, 1}), total, Arg({2, 3, 2, 2})}, 1, nullptr, ACLNN_SUCCESS,
         {}},
        {"out [2, 3, 2, 1]", {grad, self, target, weight, total, Arg({2, 3, 2, 1})}, 1, nullptr, kInvalid,
         {"Shape of Out tensor should be [2, 3, 2, 2], but current is [2, 3, 2, 1]."}},
    });
}

}  // namespace
