// Phase 1 of every operator of the table (ops/operator_table.h) on bad arguments: the exact status, *executor and
// *workspaceSize untouched, out's storage bitwise unchanged, and a message naming the argument and the rule in
// CANN's words. First the checks every row has, generated from the row (null arguments, an unsupported dtype,
// the SoC's dtype list, ranks, broadcasting, out's shape, the reduction's and the parameters' ranges); then each
// operator's own order of checks, where CANN's op_api files differ (which check wins when two arguments are bad).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn/opdev/op_errno.h"
#include "argument_fixture.h"
#include "ops/operator_table.h"

namespace {

using aclnn_cpu::OperatorDescription;
using test_support::TensorArg;

// A call of a row: its inputs, then out (index input_count), and its parameters.
struct Scenario {
    std::vector<TensorArg> args;
    std::vector<double> parameters;
    bool null_workspace_size = false;
    bool null_executor = false;
    const char* soc = nullptr;  // ACLNN_CPU_SOC_NAME for the call
};

// A valid call of the row: every input [2, 3], out of the shape its rule gives, the row's default parameters
// (reduction none where the row has one).
Scenario ValidCall(const OperatorDescription& row) {
    Scenario s;
    s.args.assign(static_cast<size_t>(row.input_count) + 1, TensorArg{});
    for (int p = 0; p < row.parameter_count; ++p) s.parameters.push_back(row.parameters[p].default_value);
    aclnn_cpu::SetReductionValue(row, s.parameters.data(), 0);
    return s;
}

TensorArg& Out(Scenario& s) { return s.args.back(); }

class SocName {
public:
    explicit SocName(const char* name) {
        if (name != nullptr) setenv("ACLNN_CPU_SOC_NAME", name, 1);
    }
    ~SocName() { unsetenv("ACLNN_CPU_SOC_NAME"); }
};

aclnnStatus Phase1(const OperatorDescription& row, const test_support::ArgumentFixture& fixture,
                   const Scenario& s, uint64_t* workspace_size, aclOpExecutor** executor) {
    const aclTensor* inputs[aclnn_cpu::kMaxOperatorInputs] = {};
    for (int k = 0; k < row.input_count; ++k) inputs[k] = fixture.tensor(static_cast<size_t>(k));
    return row.get_workspace_size(inputs, s.parameters.data(), fixture.tensor(static_cast<size_t>(row.input_count)),
                                  workspace_size, executor);
}

void ExpectRejected(const OperatorDescription& row, const std::string& name, const Scenario& s, aclnnStatus status,
                    std::vector<std::string> parts) {
    SocName soc(s.soc);
    test_support::ArgumentFixture fixture(s.args);
    const std::string full_name = std::string(row.api_name) + ": " + name;
    parts.insert(parts.begin(), std::string(row.api_name) + "GetWorkspaceSize");
    test_support::ExpectRejection({full_name.c_str(), status, parts}, fixture, s.null_workspace_size,
                                  s.null_executor, [&](uint64_t* size, aclOpExecutor** executor) {
                                      return Phase1(row, fixture, s, size, executor);
                                  });
}

void ExpectAccepted(const OperatorDescription& row, const std::string& name, const Scenario& s) {
    SocName soc(s.soc);
    test_support::ArgumentFixture fixture(s.args);
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(Phase1(row, fixture, s, &workspace_size, &executor), ACLNN_SUCCESS)
        << row.api_name << ": " << name << ": " << aclGetRecentErrMsg();
    aclSetAclOpExecutorRepeatable(executor);
    aclDestroyAclOpExecutor(executor);
}

class EveryRow : public ::testing::TestWithParam<int> {
protected:
    const OperatorDescription& row() const { return aclnn_cpu::kOperators[GetParam()]; }
};

TEST_P(EveryRow, NullArgumentsInOrder) {
    const OperatorDescription& r = row();
    Scenario s = ValidCall(r);
    s.null_workspace_size = true;
    s.args[0].null_tensor = true;  // the pointers are checked first
    ExpectRejected(r, "null workspaceSize", s, ACLNN_ERR_PARAM_NULLPTR, {"workspaceSize"});
    s = ValidCall(r);
    s.null_executor = true;
    ExpectRejected(r, "null executor", s, ACLNN_ERR_PARAM_NULLPTR, {"executor"});
    for (int k = 0; k <= r.input_count; ++k) {
        if (k < r.input_count && r.inputs[k].optional) continue;
        s = ValidCall(r);
        s.args[static_cast<size_t>(k)].null_tensor = true;
        if (k + 1 <= r.input_count) s.args.back().type = ACL_DOUBLE;  // a later bad argument does not win
        const std::string name = k < r.input_count ? r.inputs[k].name : "out";
        ExpectRejected(r, "null " + name, s, r.null_tensor_status, {"null for argument"});
    }
}

TEST_P(EveryRow, DtypesOutsideTheListsAreRefused) {
    const OperatorDescription& r = row();
    for (aclDataType type : {ACL_DOUBLE, ACL_INT32, ACL_INT64, ACL_BOOL}) {
        if (r.dtypes->newer_chips.Contains(type)) continue;  // aclnnL1Loss's INT64
        Scenario s = ValidCall(r);
        for (int k = 0; k < r.input_count; ++k) s.args[static_cast<size_t>(k)].type = type;
        ExpectRejected(r, "every input " + std::to_string(type), s, ACLNN_ERR_PARAM_INVALID, {"DT_"});
    }
    Scenario s = ValidCall(r);
    Out(s).type = ACL_INT8;
    ExpectRejected(r, "INT8 out", s, ACLNN_ERR_PARAM_INVALID, {"DT_INT8"});
}

// CANN's GetDtypeSupportListV2: BFLOAT16 on Atlas A2/A3 (Ascend910B1.., Ascend910_93..) and Ascend 950 only.
// Each dtype of the row's lists: every dtype of the newer chips' list accepted on each of them and refused on
// the older chips unless their list has it (the lists are the row's, validation/dtype_support.h).
TEST_P(EveryRow, DtypesDependOnTheSoc) {
    const OperatorDescription& r = row();
    const aclnn_cpu::validation::DtypeList& newer = r.dtypes->newer_chips;
    const aclnn_cpu::validation::DtypeList& older = r.dtypes->other_chips;
    for (int t = 0; t < newer.count; ++t) {
        Scenario s = ValidCall(r);
        for (TensorArg& arg : s.args) arg.type = static_cast<aclDataType>(newer.types[t]);
        const int32_t type = newer.types[t];
        const std::string dtype = aclnn_cpu::validation::CannDtypeName(type);
        for (const char* soc : {"Ascend910B1", "Ascend910B4", "Ascend910_9391", "Ascend950PR_9599", "Ascend950DT_9591",
                                static_cast<const char*>(nullptr)}) {  // nullptr: the default, Ascend950PR_9599
            s.soc = soc;
            ExpectAccepted(r, dtype + " on " + (soc ? soc : "the default SoC"), s);
        }
        for (const char* soc : {"Ascend910A", "Ascend910ProB", "Ascend910B", "Ascend310P3", "NoSuchChip"}) {
            s.soc = soc;
            if (older.Contains(newer.types[t])) {
                ExpectAccepted(r, dtype + " on " + soc, s);
            } else {
                ExpectRejected(r, dtype + " on " + soc, s, ACLNN_ERR_PARAM_INVALID, {dtype.c_str()});
            }
        }
    }
}

TEST(SocDtypeLists, TheMessageNamesTheDtypeAndTheList) {
    const OperatorDescription& row = *aclnn_cpu::FindOperator("soft_margin_loss");
    Scenario s = ValidCall(row);
    s.args[0].type = ACL_BF16;
    s.soc = "Ascend910A";
    ExpectRejected(row, "BFLOAT16 self on Ascend910A", s, ACLNN_ERR_PARAM_INVALID,
                   {"Tensor self not implemented for DT_BFLOAT16, should be in dtype support list [DT_FLOAT,DT_FLOAT16,]."});
    s.args[0].type = ACL_DOUBLE;
    s.soc = nullptr;
    ExpectRejected(row, "DOUBLE self", s, ACLNN_ERR_PARAM_INVALID,
                   {"Tensor self not implemented for DT_DOUBLE, should be in dtype support list "
                    "[DT_FLOAT,DT_FLOAT16,DT_BFLOAT16,]."});
}

TEST_P(EveryRow, ShapesRanksAndOut) {
    const OperatorDescription& r = row();
    Scenario s = ValidCall(r);
    s.args[static_cast<size_t>(r.self_input)].dims = std::vector<int64_t>(9, 1);
    if (aclnn_cpu::ShapeTiedToSelf(r)) {  // the inputs of self's exact shape, and out, have its rank too
        for (int k = 0; k < r.input_count; ++k)
            if (r.inputs[k].shape == aclnn_cpu::InputShape::kSameAsSelf) s.args[static_cast<size_t>(k)].dims = s.args[static_cast<size_t>(r.self_input)].dims;
        if (aclnn_cpu::IsGradient(r)) Out(s).dims = s.args[static_cast<size_t>(r.self_input)].dims;
    }
    ExpectRejected(r, "rank 9 self", s, ACLNN_ERR_PARAM_INVALID, {"8 dimensions"});
    s = ValidCall(r);
    s.args[static_cast<size_t>(r.self_input)].dims = {4, 3};
    ExpectRejected(r, "self that does not broadcast", s, ACLNN_ERR_PARAM_INVALID, {"[4, 3]"});
    s = ValidCall(r);
    Out(s).dims = {3, 2};
    ExpectRejected(r, "out of another shape", s, ACLNN_ERR_PARAM_INVALID, {"[3, 2]", "[2, 3]"});
    s = ValidCall(r);
    Out(s).strides = {0, 1};
    ExpectRejected(r, "out overlapping itself", s, ACLNN_ERR_PARAM_INVALID, {"overlap"});
    s = ValidCall(r);
    s.args[0].strides = {-3, 1};
    ExpectRejected(r, "a negative stride", s, ACLNN_ERR_PARAM_INVALID, {"negative stride"});
}

TEST_P(EveryRow, ReductionAndParameterRanges) {
    const OperatorDescription& r = row();
    const int reduction = aclnn_cpu::ReductionParameter(r);
    if (reduction >= 0) {
        Scenario s = ValidCall(r);
        for (double value : {3.0, -1.0, 0x1p40}) {
            s.parameters[static_cast<size_t>(reduction)] = value;
            if (!aclnn_cpu::IsGradient(r)) Out(s).dims = {};
            if (r.result == aclnn_cpu::ResultRule::kLossOverFirstDim) Out(s).dims = {3};
            if (r.parameters[reduction].maximum >= 3) {
                ExpectAccepted(r, "reduction " + std::to_string(value) + " (a sum)", s);
            } else {
                ExpectRejected(r, "reduction " + std::to_string(value), s, ACLNN_ERR_PARAM_INVALID, {"eduction"});
            }
        }
    }
    // Each float parameter's range, from the row: below its lower end and NaN refused (the message names the
    // parameter), the lower end, just above it and the upper end accepted.
    for (int p = 0; p < r.parameter_count; ++p) {
        const aclnn_cpu::ParameterDescription& parameter = r.parameters[p];
        if (parameter.type != aclnn_cpu::ParameterType::kFloat && parameter.type != aclnn_cpu::ParameterType::kDouble)
            continue;
        // An unbounded range: CANN checks nothing (NaN passes too).
        if (!std::isfinite(parameter.minimum) && !std::isfinite(parameter.maximum)) continue;
        Scenario s = ValidCall(r);
        std::vector<double> refused = {static_cast<double>(NAN)};
        if (std::isfinite(parameter.minimum)) {  // the C API takes a float: the float just below the lower end
            refused.push_back(parameter.minimum - 1.0);
            refused.push_back(static_cast<double>(std::nextafter(static_cast<float>(parameter.minimum), -INFINITY)));
        }
        for (double value : refused) {
            s.parameters[static_cast<size_t>(p)] = value;
            ExpectRejected(r, std::string(parameter.name) + " " + std::to_string(value), s, ACLNN_ERR_PARAM_INVALID,
                           {parameter.name});
        }
        for (double value : {parameter.minimum, parameter.minimum + 1e-7, parameter.maximum}) {
            if (std::isinf(value) && value < 0) continue;
            s.parameters[static_cast<size_t>(p)] = value;
            ExpectAccepted(r, std::string(parameter.name) + " " + std::to_string(value), s);
        }
    }
}

// Phase 2 with a null executor: 161001, the message naming the operator's API.
TEST_P(EveryRow, Phase2NullExecutorNamesTheApi) {
    const OperatorDescription& r = row();
    EXPECT_EQ(r.run(nullptr, 0, nullptr, nullptr), ACLNN_ERR_PARAM_NULLPTR) << r.api_name;
    ASSERT_NE(aclGetRecentErrMsg(), nullptr);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find(r.api_name), std::string::npos) << aclGetRecentErrMsg();
}

std::string RowName(const ::testing::TestParamInfo<int>& info) { return aclnn_cpu::kOperators[info.param].name; }

INSTANTIATE_TEST_SUITE_P(Table, EveryRow, ::testing::Range(0, aclnn_cpu::kOperatorCount), RowName);

// Each operator's own order, where CANN's op_api files differ: the first of two bad arguments wins.
struct OrderCase {
    const char* row;
    const char* name;
    std::function<void(const OperatorDescription&, Scenario&)> setup;
    aclnnStatus status;
    std::vector<std::string> message_parts;
};

const std::vector<OrderCase>& OrderCases() {
    static const std::vector<OrderCase> cases = {
        // aclnnMseLoss: the promoted dtype, then each dtype, then the reduction, the ranks, the shapes.
        {"mse_loss", "promoted dtype before the reduction",
         [](const OperatorDescription&, Scenario& s) { s.args[0].type = ACL_DOUBLE; s.parameters[0] = 5; },
         ACLNN_ERR_PARAM_INVALID, {"Expected self dtype [DT_DOUBLE] and target dtype [DT_FLOAT] to be promotable"}},
        {"mse_loss", "self's dtype in the list after the promoted one",
         [](const OperatorDescription&, Scenario& s) { s.args[0].type = ACL_INT32; },
         ACLNN_ERR_PARAM_INVALID, {"Tensor self not implemented for DT_INT32"}},
        {"mse_loss", "reduction before the ranks",
         [](const OperatorDescription&, Scenario& s) { s.parameters[0] = 5; s.args[0].dims = std::vector<int64_t>(9, 1); },
         ACLNN_ERR_PARAM_INVALID, {"Expected reduction to be between 0 and 2, but got 5."}},
        {"mse_loss", "mean: out must be 0-d, [1] too",
         [](const OperatorDescription&, Scenario& s) { s.parameters[0] = 1; s.args.back().dims = {1}; },
         ACLNN_ERR_PARAM_INVALID, {"Expected a 0-dimensional tensor, but Shape of out is [1]."}},
        // aclnnMseLossOut: mean and sum reduce dim 0 only.
        {"mse_loss_out", "mean: out of the broadcast shape without dim 0",
         [](const OperatorDescription&, Scenario& s) { s.parameters[0] = 1; s.args.back().dims = {}; },
         ACLNN_ERR_PARAM_INVALID, {"Expected tensor for out to have same size as [3], but got []."}},
        // aclnnMseLossBackward: gradOutput and target must have self's dtype.
        {"mse_loss_backward", "gradOutput of another dtype",
         [](const OperatorDescription&, Scenario& s) { s.args[0].type = ACL_FLOAT16; },
         ACLNN_ERR_PARAM_INVALID,
         {"Expected both tensors to have same dtype, but found gradOutput DT_FLOAT16 and self DT_FLOAT."}},
        {"mse_loss_backward", "target of another dtype",
         [](const OperatorDescription&, Scenario& s) { s.args[2].type = ACL_BF16; },
         ACLNN_ERR_PARAM_INVALID, {"found target DT_BFLOAT16 and self DT_FLOAT"}},
        // aclnnL1Loss: the reduction first, then the floating rules, the promoted dtype, its cast to out.
        {"l1_loss", "reduction before the dtypes",
         [](const OperatorDescription&, Scenario& s) { s.parameters[0] = 7; s.args[0].type = ACL_DOUBLE; },
         ACLNN_ERR_PARAM_INVALID, {"Expected reduction to be 0 or 1 or 2, but got 7."}},
        {"l1_loss", "none: an integer self with a floating target",
         [](const OperatorDescription&, Scenario& s) { s.args[0].type = ACL_INT32; },
         ACLNN_ERR_PARAM_INVALID, {"Input dtype should be either floating point or complex dtypes. Got DT_INT32"}},
        {"l1_loss", "the promoted dtype outside the list",
         [](const OperatorDescription&, Scenario& s) { s.args[0].type = ACL_DOUBLE; },
         ACLNN_ERR_PARAM_INVALID, {"promoteType dtype DT_DOUBLE should be in dtype support list"}},
        {"l1_loss", "a floating result to an integer out",
         [](const OperatorDescription&, Scenario& s) { s.args.back().type = ACL_INT32; },
         ACLNN_ERR_PARAM_INVALID, {"Result type DT_FLOAT can't be cast to the desired output type DT_INT32."}},
        {"l1_loss", "none: out of another shape",
         [](const OperatorDescription&, Scenario& s) { s.args.back().dims = {3}; },
         ACLNN_ERR_PARAM_INVALID, {"Expected out tensor shape to be [2, 3], but got [3]."}},
        // aclnnL1LossBackward: the cast to gradInput before the list; self with gradOutput first.
        {"l1_loss_backward", "the cast to gradInput before the list",
         [](const OperatorDescription&, Scenario& s) { s.args[1].type = ACL_DOUBLE; s.args.back().type = ACL_INT32; },
         ACLNN_ERR_PARAM_INVALID, {"Result type DT_DOUBLE can't be cast to the desired output type DT_INT32."}},
        {"l1_loss_backward", "self broadcast with gradOutput first",
         [](const OperatorDescription&, Scenario& s) { s.args[0].dims = {4, 3}; },
         ACLNN_ERR_PARAM_INVALID, {"The size of tensor self [2, 3] must match the size of tensor gradOutput [4, 3]."}},
        // aclnnSmoothL1Loss: beta last, after the shapes; result's dtype only needs the cast.
        {"smooth_l1_loss", "the shapes before beta",
         [](const OperatorDescription&, Scenario& s) { s.args[1].dims = {5}; s.parameters[1] = -1; },
         ACLNN_ERR_PARAM_INVALID, {"The size of tensor self [2, 3] must match the size of tensor target [5]."}},
        {"smooth_l1_loss", "the reduction before the ranks",
         [](const OperatorDescription&, Scenario& s) { s.parameters[0] = 3; s.args[0].dims = std::vector<int64_t>(9, 1); },
         ACLNN_ERR_PARAM_INVALID, {"Reduction should be between 0 and 2, but current is 3."}},
        {"smooth_l1_loss", "mean: a result of one element but not 0-d",
         [](const OperatorDescription&, Scenario& s) { s.parameters[0] = 1; s.args.back().dims = {3}; },
         ACLNN_ERR_PARAM_INVALID, {"one element"}},
        // aclnnSmoothL1LossBackward: beta before the promotion and the shapes; the inputs' largest rank.
        {"smooth_l1_loss_backward", "beta before the shapes",
         [](const OperatorDescription&, Scenario& s) { s.args[2].dims = {5}; s.parameters[1] = -1; },
         ACLNN_ERR_PARAM_INVALID, {"beta should be greater than or equal to 0"}},
        {"smooth_l1_loss_backward", "the inputs' largest rank",
         [](const OperatorDescription&, Scenario& s) { s.args[2].dims = std::vector<int64_t>(9, 1); },
         ACLNN_ERR_PARAM_INVALID, {"expected tensor must have at most 8 dimensions, but got 9."}},
        {"smooth_l1_loss_backward", "gradInput of another shape",
         [](const OperatorDescription&, Scenario& s) { s.args.back().dims = {3, 2}; },
         ACLNN_ERR_PARAM_INVALID, {"Exepected tensor for result to have same size as tensor for gradInput"}},
        // aclnnSoftMarginLossBackward: the reduction after the shapes (CANN leaves it unchecked).
        {"soft_margin_loss_backward", "the shapes before the reduction",
         [](const OperatorDescription&, Scenario& s) { s.args.back().dims = {3}; s.parameters[0] = 9; },
         ACLNN_ERR_PARAM_INVALID, {"Expected tensor for out to have same size as [2, 3], but got [3]."}},
    };
    return cases;
}

TEST(OperatorOrder, TheFirstBadArgumentWins) {
    for (const OrderCase& c : OrderCases()) {
        const OperatorDescription* row = aclnn_cpu::FindOperator(c.row);
        ASSERT_NE(row, nullptr) << c.row;
        Scenario s = ValidCall(*row);
        c.setup(*row, s);
        ExpectRejected(*row, c.name, s, c.status, c.message_parts);
    }
}

// What CANN accepts where PyTorch would not, or where a check might be too strict.
TEST(OperatorOrder, WhatCannAccepts) {
    const OperatorDescription& mse = *aclnn_cpu::FindOperator("mse_loss");
    Scenario s = ValidCall(mse);
    s.args[0].type = ACL_FLOAT16;
    s.args[1].type = ACL_BF16;  // promoted to FLOAT; out any listed dtype
    s.args.back().type = ACL_FLOAT16;
    ExpectAccepted(mse, "FLOAT16 and BFLOAT16 inputs, FLOAT16 out", s);
    const OperatorDescription& smooth = *aclnn_cpu::FindOperator("smooth_l1_loss");
    s = ValidCall(smooth);
    s.parameters[0] = 2;
    s.args.back().dims = {1, 1};  // CANN does not check a reduction's result shape; one element is written
    ExpectAccepted(smooth, "sum into a [1, 1] result", s);
    const OperatorDescription& mse_out = *aclnn_cpu::FindOperator("mse_loss_out");
    s = ValidCall(mse_out);
    s.parameters[0] = 2;
    s.args.back().dims = {3};
    ExpectAccepted(mse_out, "sum over dim 0 into [3]", s);
    const OperatorDescription& backward = *aclnn_cpu::FindOperator("mse_loss_backward");
    s = ValidCall(backward);
    s.args[0].dims = {};  // a 0-d incoming gradient
    s.args[2].dims = {3};  // a broadcast target
    ExpectAccepted(backward, "0-d gradOutput, [3] target", s);
}

}  // namespace
