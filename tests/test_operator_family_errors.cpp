// Phase 1 of every operator of the table (ops/operator_table.h) on bad arguments: the exact status, *executor and
// *workspaceSize untouched, out's storage bitwise unchanged, and a message naming the argument and the rule in
// CANN's words. First the checks every row has, generated from the row (null arguments, an unsupported dtype,
// the SoC's dtype list, ranks, broadcasting, out's shape, the reduction's and the parameters' ranges, each
// argument's layout and addresses); what every row accepts (host buffers without the strict checks, a FRACTAL_NZ
// first input); then each operator's own order of checks, where CANN's op_api files differ (which check wins
// when two arguments are bad).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn/opdev/op_errno.h"
#include "argument_fixture.h"
#include "device_tensor.h"
#include "operator_harness.h"
#include "ops/operator_table.h"
#include "reference.h"
#include "soc_scope.h"

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

using SocName = test_support::SocScope;

// An environment variable set for a scope, then unset (the tests run with none of the library's set).
class ScopedEnvironment {
public:
    ScopedEnvironment(const char* name, const char* value) : name_(name) { setenv(name, value, 1); }
    ~ScopedEnvironment() { unsetenv(name_); }
    ScopedEnvironment(const ScopedEnvironment&) = delete;
    ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;

private:
    const char* name_;
};

// The name phase 1's messages give argument k of a call (the row's inputs, then out at input_count).
std::string ArgumentName(const OperatorDescription& row, int k) {
    if (k == row.input_count) return row.out_name;
    return aclnn_cpu::MessageName(row.inputs[k]);
}

// Whether the kernel reads argument k's data (out is written): a shape-only input's address is never checked.
bool DataAddressed(const OperatorDescription& row, int k) { return k == row.input_count || row.inputs[k].values_read; }

// A valid call whose reduction makes out 0-d (or drops the first dim: aclnnMseLossOut), where the row reduces
// under this value (aclnn_cpu::ReducesTo).
Scenario ReducedCall(const OperatorDescription& row, int64_t reduction) {
    Scenario s = ValidCall(row);
    aclnn_cpu::SetReductionValue(row, s.parameters.data(), reduction);
    Out(s).dims = row.result == aclnn_cpu::ResultRule::kLossOverFirstDim ? std::vector<int64_t>{3}
                                                                         : std::vector<int64_t>{};
    return s;
}

// The valid calls an argument's cases spoil: out of the broadcast shape (reduction none), and where the row's
// reduction changes out's shape, a mean's and a sum's out; the inputs are the same in each.
struct Variant {
    std::string name;
    Scenario call;
};

std::vector<Variant> Variants(const OperatorDescription& row) {
    std::vector<Variant> variants = {{"", ValidCall(row)}};
    if (aclnn_cpu::ReducesTo(row, 1)) variants.push_back({"mean: ", ReducedCall(row, 1)});
    if (aclnn_cpu::ReducesTo(row, 2)) variants.push_back({"sum: ", ReducedCall(row, 2)});
    return variants;
}

aclnnStatus Phase1(const OperatorDescription& row, const test_support::ArgumentFixture& fixture,
                   const Scenario& s, uint64_t* workspace_size, aclOpExecutor** executor) {
    const aclTensor* inputs[aclnn_cpu::kMaxOperatorInputs] = {};
    for (int k = 0; k < row.input_count; ++k) inputs[k] = fixture.tensor(static_cast<size_t>(k));
    return row.Phase1(inputs, s.parameters.data(), fixture.tensor(static_cast<size_t>(row.input_count)),
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
    for (TensorArg& arg : s.args) arg.null_tensor = true;  // the output pointers before every tensor
    ExpectRejected(r, "null executor before null tensors", s, ACLNN_ERR_PARAM_NULLPTR, {"executor"});
    for (int k = 0; k <= r.input_count; ++k) {
        if (k < r.input_count && r.inputs[k].optional) continue;
        s = ValidCall(r);
        s.args[static_cast<size_t>(k)].null_tensor = true;
        // Every other argument of a bad dtype, before and after it: the null tensors are checked first.
        for (int j = 0; j <= r.input_count; ++j)
            if (j != k) s.args[static_cast<size_t>(j)].type = ACL_DOUBLE;
        ExpectRejected(r, "null " + ArgumentName(r, k) + " before bad dtypes", s, r.null_tensor_status,
                       {"null for argument"});
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
                // The dtype named in the list's message, or the op_api's own refusal of BFLOAT16.
                const bool own_words = type == ACL_BF16 && r.bf16_refusal != nullptr;
                ExpectRejected(r, dtype + " on " + soc, s, ACLNN_ERR_PARAM_INVALID,
                               {own_words ? r.bf16_refusal : dtype.c_str()});
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
    // "cannot be larger than 8 dimensions", "at most 8 dimensions", aclnnLogSoftmaxBackward's "can't be greater
    // than 8."
    ExpectRejected(r, "rank 9 self", s, ACLNN_ERR_PARAM_INVALID, {" 8"});
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

// Whether argument k's dims may be spoiled alone: not an input whose shape is tied to self's (of self's exact
// shape, or broadcasting to it), nor self where an input is tied to it, as some op_api files compare those shapes
// before the layouts. Out is checked against the inputs' shapes after the layouts everywhere.
bool DimsStandAlone(const OperatorDescription& row, int k) {
    if (k == row.input_count) return true;
    if (k == row.self_input) return !aclnn_cpu::ShapeTiedToSelf(row);
    return row.inputs[k].shape == aclnn_cpu::InputShape::kBroadcast ||
           row.inputs[k].shape == aclnn_cpu::InputShape::kToBroadcast;
}

// Each argument's layout, checked before anything is planned on it: a negative offset, an offset whose byte
// position overflows int64, a last element at INT64_MAX (one past it overflows), strides whose byte span
// overflows; where its dims stand alone (DimsStandAlone), a one-element view at INT64_MAX, a negative dim and an
// element count past int64. Out
// also as a mean's and a sum's out where the reduction changes its shape (a 0-d out has no strides to spoil).
TEST_P(EveryRow, LayoutsAreCheckedPerArgument) {
    const OperatorDescription& r = row();
    using Applies = std::function<bool(int k, const TensorArg&)>;
    const Applies always = [](int, const TensorArg&) { return true; };
    const Applies with_a_dim = [](int, const TensorArg& a) { return !a.dims.empty(); };
    const Applies dims_alone = [&r](int k, const TensorArg&) { return DimsStandAlone(r, k); };
    struct LayoutCase {
        const char* name;
        std::function<void(TensorArg&)> spoil;
        const char* rule;
        Applies applies;
    };
    const LayoutCase cases[] = {
        {"negative offset", [](TensorArg& a) { a.offset = -1; }, "negative offset", always},
        {"offset overflowing in bytes", [](TensorArg& a) { a.offset = INT64_MAX - 1; }, "overflows", always},
        {"last element at INT64_MAX",
         [](TensorArg& a) { a.offset = INT64_MAX - (test_support::NumElements(a.dims) - 1); }, "byte span", always},
        // Found by the fuzzer: a one-element view at INT64_MAX made "one past it" overflow.
        {"one element at INT64_MAX",
         [](TensorArg& a) {
             a.dims = {1};
             a.strides = {};
             a.offset = INT64_MAX;
         },
         "byte span", dims_alone},
        {"byte span overflow",
         [](TensorArg& a) {
             a.strides = test_support::ContiguousStrides(a.dims);
             a.strides[0] = int64_t{1} << 62;
         },
         "byte span", with_a_dim},
        {"negative dim",
         [](TensorArg& a) {
             a.dims = {2, -3};
             a.strides = {3, 1};
         },
         "negative dim", dims_alone},
        {"element count overflow",
         [](TensorArg& a) {
             a.dims = {int64_t{1} << 40, int64_t{1} << 40};
             a.strides = {0, 0};
         },
         "element count", dims_alone},
    };
    const std::vector<Variant> variants = Variants(r);
    for (const Variant& variant : variants) {
        for (int k = 0; k <= r.input_count; ++k) {
            if (k < r.input_count && &variant != &variants[0]) continue;  // the inputs are alike in every variant
            for (const LayoutCase& c : cases) {
                Scenario s = variant.call;
                TensorArg& arg = s.args[static_cast<size_t>(k)];
                if (!c.applies(k, arg)) continue;
                c.spoil(arg);
                const std::string name = ArgumentName(r, k);
                ExpectRejected(r, variant.name + name + ": " + c.name, s, ACLNN_ERR_PARAM_INVALID, {name, c.rule});
            }
        }
    }
}

// Where each argument's data lie: outside the aclrtMalloc blocks (host memory, 1 MiB past a block, running
// past its padding, its last element just past it) and null, each refused naming the argument. A shape-only
// input's data are never read, so never checked. Out also as a mean's and a sum's out.
TEST_P(EveryRow, DataAddressesAreCheckedPerArgument) {
    const OperatorDescription& r = row();
    using Bytes = test_support::ArgumentFixture;
    // The elements of a FLOAT argument that fit in the last 8 bytes of its block's padding.
    constexpr int64_t kElementsInTheLastBytes = 2;
    struct AddressCase {
        const char* name;
        std::function<void(TensorArg&)> spoil;
        std::vector<std::string> rule;
        std::function<bool(const TensorArg&)> applies;
    };
    const auto always = [](const TensorArg&) { return true; };
    const AddressCase cases[] = {
        {"in host memory", [](TensorArg& a) { a.data = TensorArg::Data::kHost; },
         {"aclrtMalloc", "ACLNN_CPU_STRICT_MEMORY"}, always},
        // 1 MiB past the block: right after it may lie another live block (sanitizer heaps pack them).
        {"1 MiB past its block", [](TensorArg& a) { a.offset = int64_t{1} << 18; }, {"aclrtMalloc"}, always},
        {"running past its block's padding", [](TensorArg& a) { a.data = TensorArg::Data::kEndOfBlock; },
         {"aclrtMalloc"},
         [](const TensorArg& a) { return test_support::NumElements(a.dims) > kElementsInTheLastBytes; }},
        {"offset so that its last element lies just past the padding",
         [](TensorArg& a) {
             a.offset = static_cast<int64_t>((Bytes::kBlockBytes + Bytes::kPaddingBytes) / sizeof(float)) -
                        test_support::NumElements(a.dims) + 1;
         },
         {"aclrtMalloc"}, always},
        {"null data", [](TensorArg& a) { a.data = TensorArg::Data::kNull; }, {"null"}, always},
    };
    const std::vector<Variant> variants = Variants(r);
    for (const Variant& variant : variants) {
        for (int k = 0; k <= r.input_count; ++k) {
            if (k < r.input_count && &variant != &variants[0]) continue;  // the inputs are alike in every variant
            for (const AddressCase& c : cases) {
                Scenario s = variant.call;
                TensorArg& arg = s.args[static_cast<size_t>(k)];
                if (!c.applies(arg)) continue;
                c.spoil(arg);
                const std::string name = ArgumentName(r, k);
                if (!DataAddressed(r, k)) {
                    ExpectAccepted(r, variant.name + "shape-only " + name + " " + c.name, s);
                    continue;
                }
                std::vector<std::string> parts = c.rule;
                parts.insert(parts.begin(), name);
                ExpectRejected(r, variant.name + name + " " + c.name, s, ACLNN_ERR_PARAM_INVALID, parts);
            }
        }
    }
}

// With ACLNN_CPU_STRICT_MEMORY=0 a null data address is still refused, naming the argument; host memory passes
// phase 1 (HostBuffersAreAcceptedWithoutStrictChecks runs such calls).
TEST_P(EveryRow, NullDataIsRejectedEvenWithoutStrictChecks) {
    const OperatorDescription& r = row();
    ScopedEnvironment strict("ACLNN_CPU_STRICT_MEMORY", "0");
    const std::vector<Variant> variants = Variants(r);
    for (const Variant& variant : variants) {
        for (int k = 0; k <= r.input_count; ++k) {
            if (k < r.input_count && &variant != &variants[0]) continue;
            const std::string name = ArgumentName(r, k);
            Scenario s = variant.call;
            s.args[static_cast<size_t>(k)].data = TensorArg::Data::kNull;
            if (DataAddressed(r, k)) {
                ExpectRejected(r, variant.name + name + " null, strict off", s, ACLNN_ERR_PARAM_INVALID,
                               {name, "null"});
            } else {
                ExpectAccepted(r, variant.name + "shape-only " + name + " null, strict off", s);
            }
            s = variant.call;
            s.args[static_cast<size_t>(k)].data = TensorArg::Data::kHost;
            ExpectAccepted(r, variant.name + name + " in host memory, strict off", s);
        }
    }
}

// An input's four values in a call on host buffers, in its domain.
double HostInputValue(aclnn_cpu::ValueDomain domain, int i) {
    switch (domain) {
        case aclnn_cpu::ValueDomain::kSignLabel: return i % 2 ? -1.0 : 1.0;
        case aclnn_cpu::ValueDomain::kGradient: return 1.0;
        case aclnn_cpu::ValueDomain::kProbability: return 0.125 + 0.25 * i;
        case aclnn_cpu::ValueDomain::kWeight: return 0.5 * (i + 1);
        default: return static_cast<double>(i);
    }
}

// With ACLNN_CPU_STRICT_MEMORY=0 every operand may be a host buffer the library does not know: the call runs
// and gives the reference's values, bit for bit those of the same call in aclrtMalloc memory.
TEST_P(EveryRow, HostBuffersAreAcceptedWithoutStrictChecks) {
    const OperatorDescription& r = row();
    const Scenario call = ValidCall(r);  // reduction none: out of the inputs' shape, [4]
    constexpr int kCount = 4;
    const std::vector<int64_t> dims = {kCount};
    const int64_t strides[] = {1};
    std::vector<std::vector<float>> host(static_cast<size_t>(r.input_count) + 1, std::vector<float>(kCount, 7.0f));
    std::vector<std::unique_ptr<test_support::DeviceTensor>> device;
    std::vector<const test_support::DeviceTensor*> device_inputs;
    std::mt19937_64 rng(1);
    for (int k = 0; k <= r.input_count; ++k) {
        std::vector<float>& values = host[static_cast<size_t>(k)];
        for (int i = 0; i < kCount && k < r.input_count; ++i)
            values[static_cast<size_t>(i)] = static_cast<float>(HostInputValue(r.inputs[k].domain, i));
        device.push_back(std::make_unique<test_support::DeviceTensor>(test_support::Dense(dims, ACL_FLOAT), rng,
                                                                      [](std::mt19937_64&) { return 7.0; }));
        for (int i = 0; i < kCount; ++i) device.back()->SetStorage(i, values[static_cast<size_t>(i)]);
        device.back()->Upload();
        if (k < r.input_count) device_inputs.push_back(device.back().get());
    }
    std::vector<const aclTensor*> device_tensors;
    for (const test_support::DeviceTensor* input : device_inputs) device_tensors.push_back(input->tensor());
    ASSERT_EQ(test_support::RunRow(r, device_tensors, call.parameters, device.back()->tensor()), 0)
        << aclGetRecentErrMsg();
    {
        ScopedEnvironment strict("ACLNN_CPU_STRICT_MEMORY", "0");
        std::vector<aclTensor*> tensors;
        for (std::vector<float>& values : host)
            tensors.push_back(aclCreateTensor(dims.data(), 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, dims.data(), 1,
                                              values.data()));
        const std::vector<const aclTensor*> inputs(tensors.begin(), tensors.end() - 1);
        EXPECT_EQ(test_support::RunRow(r, inputs, call.parameters, tensors.back()), 0) << aclGetRecentErrMsg();
        for (aclTensor* t : tensors) aclDestroyTensor(t);
    }
    const test_support::RowCall reference = test_support::RowCallOf(r, call.parameters, device_inputs);
    const test_support::ElementReference element =
        test_support::CallReference(reference, device_inputs, dims, ACL_FLOAT);
    const std::vector<float>& out = host.back();
    for (int i = 0; i < kCount; ++i) {
        std::vector<double> values(static_cast<size_t>(r.input_count));
        for (int k = 0; k < r.input_count; ++k)
            values[static_cast<size_t>(k)] = host[static_cast<size_t>(k)][static_cast<size_t>(i)];
        double expected = 0;
        const char* problem = test_support::CheckElement(element(values, i), ACL_FLOAT, ACL_FLOAT,
                                                         out[static_cast<size_t>(i)], &expected);
        EXPECT_STREQ(problem, "") << "element " << i << ": got " << out[static_cast<size_t>(i)] << " expected "
                                  << expected;
        EXPECT_NE(out[static_cast<size_t>(i)], 7.0f) << "element " << i << " was not written";
    }
    const std::vector<uint8_t> in_device = device.back()->Download();
    ASSERT_EQ(in_device.size(), kCount * sizeof(float));
    EXPECT_EQ(std::memcmp(in_device.data(), out.data(), in_device.size()), 0)
        << "host buffers give other bits than aclrtMalloc memory";
}

// CANN accepts a FRACTAL_NZ first input (self, or a backward's gradOutput), read as ND; where its op_api warns
// of it (the row's warns_of_fractal_nz), the warning goes through the logger, printed at ASCEND_GLOBAL_LOG_LEVEL 2
// (warning) or below, not at 3 (error); elsewhere nothing is printed. The call then runs.
TEST_P(EveryRow, FractalNzFirstInputIsAccepted) {
    const OperatorDescription& r = row();
    const bool warns = r.warns_of_fractal_nz;
    Scenario s = ValidCall(r);
    s.args[0].format = ACL_FORMAT_FRACTAL_NZ;
    test_support::ArgumentFixture fixture(s.args);
    for (const char* level : {"2", "3"}) {
        SCOPED_TRACE(std::string("ASCEND_GLOBAL_LOG_LEVEL ") + level);
        uint64_t workspace_size = 1;
        aclOpExecutor* executor = nullptr;
        aclnnStatus status;
        std::string err;
        {
            ScopedEnvironment log_level("ASCEND_GLOBAL_LOG_LEVEL", level);
            testing::internal::CaptureStderr();
            status = Phase1(r, fixture, s, &workspace_size, &executor);
            err = testing::internal::GetCapturedStderr();
        }
        ASSERT_EQ(status, 0) << aclGetRecentErrMsg();
        if (warns && std::string(level) == "2") {
            EXPECT_NE(err.find("[WARNING]"), std::string::npos) << err;
            EXPECT_NE(err.find(ArgumentName(r, 0) + " has format FRACTAL_NZ"), std::string::npos) << err;
        } else {
            EXPECT_EQ(err, "");
        }
        EXPECT_EQ(workspace_size, 0u);
        EXPECT_EQ(r.run(nullptr, 0, executor, nullptr), 0) << aclGetRecentErrMsg();
        EXPECT_EQ(aclrtSynchronizeStream(nullptr), 0);
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

INSTANTIATE_TEST_SUITE_P(Table, EveryRow, ::testing::ValuesIn(test_support::GenericRows()), RowName);

// The rows a property selects (in the table's order).
std::vector<int> RowsWhere(bool (*property)(const OperatorDescription&)) {
    std::vector<int> rows;
    for (int i = 0; i < aclnn_cpu::kOperatorCount; ++i)
        if (property(aclnn_cpu::kOperators[i])) rows.push_back(i);
    return rows;
}

// Whether a sum gives a 0-d out (a loss over the broadcast shape with a reduction).
bool SumsToZeroDims(const OperatorDescription& row) {
    return row.result == aclnn_cpu::ResultRule::kLoss && aclnn_cpu::ReducesTo(row, 2);
}

// The inputs of a row that broadcast freely with the others (InputShape::kBroadcast), self first where it does.
std::vector<int> FreelyBroadcastingInputs(const OperatorDescription& row) {
    std::vector<int> inputs;
    if (!aclnn_cpu::ShapeTiedToSelf(row) && row.inputs[row.self_input].shape == aclnn_cpu::InputShape::kBroadcast)
        inputs.push_back(row.self_input);
    for (int k = 0; k < row.input_count; ++k)
        if (k != row.self_input && row.inputs[k].shape == aclnn_cpu::InputShape::kBroadcast) inputs.push_back(k);
    return inputs;
}

// Whether two inputs may broadcast against each other to a shape that neither has, into a 0-d out.
bool BroadcastsIntoZeroDims(const OperatorDescription& row) {
    return SumsToZeroDims(row) && FreelyBroadcastingInputs(row).size() >= 2;
}

class ZeroDimSumRows : public EveryRow {};
class BroadcastIntoZeroDimRows : public EveryRow {};

// An empty broadcast shape whose other dims multiply past int64 (each input valid, with zero strides: self
// [0, 1, 2^56] and another input [625, 1], or where no other input broadcasts freely, self [0, 625, 2^56]) is an
// empty sum: +0, and a mean of nothing NaN, like any (a fuzz finding: the dense order of the sum overflowed
// computing strides).
TEST_P(ZeroDimSumRows, EmptyBroadcastWithHugeDimsSumsToZero) {
    const OperatorDescription& r = row();
    const std::vector<int> free = FreelyBroadcastingInputs(r);
    for (const int64_t reduction : {2, 1}) {
        Scenario s = ReducedCall(r, reduction);
        for (int k = 0; k < r.input_count; ++k) {
            TensorArg& arg = s.args[static_cast<size_t>(k)];
            if (free.size() >= 2 && k == free[1]) {
                arg.dims = {625, 1};
            } else {
                arg.dims = {0, free.size() >= 2 ? 1 : 625, int64_t{1} << 56};
            }
            arg.strides.assign(arg.dims.size(), 0);
        }
        test_support::ArgumentFixture fixture(s.args);
        uint64_t workspace_size = 1;
        aclOpExecutor* executor = nullptr;
        ASSERT_EQ(Phase1(r, fixture, s, &workspace_size, &executor), 0) << aclGetRecentErrMsg();
        ASSERT_EQ(r.run(nullptr, workspace_size, executor, nullptr), 0) << aclGetRecentErrMsg();
        ASSERT_EQ(aclrtSynchronizeStream(nullptr), 0);
        const std::vector<uint8_t> out = fixture.Block(static_cast<size_t>(r.input_count));
        float value = -1.0f;
        std::memcpy(&value, out.data(), sizeof value);
        if (reduction == 2) {
            EXPECT_EQ(value, 0.0f);
            EXPECT_FALSE(std::signbit(value)) << "the sum of nothing is +0";
        } else {
            EXPECT_TRUE(std::isnan(value)) << value;
        }
    }
}

// A 0-d out does not bound the broadcast shape: inputs that broadcast to 2^80 elements (each valid: [2^40, 1]
// and [1, 2^40], expanded) cannot be addressed, and are refused (161002) under a mean and a sum.
TEST_P(BroadcastIntoZeroDimRows, BroadcastShapeOf2To80ElementsIsRefused) {
    const OperatorDescription& r = row();
    const std::vector<int> free = FreelyBroadcastingInputs(r);
    for (const int64_t reduction : {1, 2}) {
        Scenario s = ReducedCall(r, reduction);
        for (int k = 0; k < r.input_count; ++k) s.args[static_cast<size_t>(k)].dims = {};
        s.args[static_cast<size_t>(free[0])].dims = {int64_t{1} << 40, 1};
        s.args[static_cast<size_t>(free[1])].dims = {1, int64_t{1} << 40};
        for (int k = 0; k < r.input_count; ++k)
            s.args[static_cast<size_t>(k)].strides.assign(s.args[static_cast<size_t>(k)].dims.size(), 0);
        ExpectRejected(r, "reduction " + std::to_string(reduction) + ": broadcast shape of 2^80 elements", s,
                       ACLNN_ERR_PARAM_INVALID, {"broadcast shape", "[1099511627776, 1099511627776]", "2^60"});
    }
}

INSTANTIATE_TEST_SUITE_P(Table, ZeroDimSumRows, ::testing::ValuesIn(RowsWhere(SumsToZeroDims)), RowName);
INSTANTIATE_TEST_SUITE_P(Table, BroadcastIntoZeroDimRows, ::testing::ValuesIn(RowsWhere(BroadcastsIntoZeroDims)),
                         RowName);

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
        // aclnnSoftMarginLoss: the null tensors, each dtype, the ranks, the layouts, the broadcast, out's shape,
        // each argument named; any reduction taken, 0 none, 1 mean, anything else a sum into a 0-d out.
        {"soft_margin_loss", "null target before a bad dtype of self",
         [](const OperatorDescription&, Scenario& s) { s.args[1].null_tensor = true; s.args[0].type = ACL_DOUBLE; },
         ACLNN_ERR_PARAM_NULLPTR, {"null for argument target"}},
        {"soft_margin_loss", "INT32 target",
         [](const OperatorDescription&, Scenario& s) { s.args[1].type = ACL_INT32; },
         ACLNN_ERR_PARAM_INVALID, {"target", "INT32"}},
        {"soft_margin_loss", "out's dtype before self's rank",
         [](const OperatorDescription&, Scenario& s) {
             s.args.back().type = ACL_BOOL;
             s.args[0].dims = std::vector<int64_t>(9, 1);
         },
         ACLNN_ERR_PARAM_INVALID, {"out", "BOOL"}},
        {"soft_margin_loss", "rank 9 target",
         [](const OperatorDescription&, Scenario& s) { s.args[1].dims = {1, 1, 1, 1, 1, 1, 1, 2, 3}; },
         ACLNN_ERR_PARAM_INVALID, {"target", "cannot be larger than 8 dimensions"}},
        {"soft_margin_loss", "the broadcast before out's shape",
         [](const OperatorDescription&, Scenario& s) { s.args[1].dims = {5}; s.args.back().dims = {7}; },
         ACLNN_ERR_PARAM_INVALID, {"must match the size"}},
        {"soft_margin_loss", "none: 0-d out", [](const OperatorDescription&, Scenario& s) { s.args.back().dims = {}; },
         ACLNN_ERR_PARAM_INVALID, {"out", "[]", "[2, 3]"}},
        {"soft_margin_loss", "mean: out of the broadcast shape",
         [](const OperatorDescription& row, Scenario& s) { aclnn_cpu::SetReductionValue(row, s.parameters.data(), 1); },
         ACLNN_ERR_PARAM_INVALID, {"0-dimensional", "out", "[2, 3]"}},
        {"soft_margin_loss", "sum: out of shape [1]",
         [](const OperatorDescription& row, Scenario& s) {
             aclnn_cpu::SetReductionValue(row, s.parameters.data(), 2);
             s.args.back().dims = {1};
         },
         ACLNN_ERR_PARAM_INVALID, {"0-dimensional", "[1]"}},
        {"soft_margin_loss", "reduction 3 (a sum): out not 0-d",
         [](const OperatorDescription& row, Scenario& s) { aclnn_cpu::SetReductionValue(row, s.parameters.data(), 3); },
         ACLNN_ERR_PARAM_INVALID, {"0-dimensional"}},
        {"soft_margin_loss", "reduction -4 (a sum): out not 0-d",
         [](const OperatorDescription& row, Scenario& s) {
             aclnn_cpu::SetReductionValue(row, s.parameters.data(), -4);
         },
         ACLNN_ERR_PARAM_INVALID, {"0-dimensional"}},
        // aclnnSoftMarginLossBackward: the null tensors, each dtype, the ranks, the layouts, the broadcast, out's
        // shape, out not overlapping itself, each argument named; the reduction after the shapes (CANN leaves it
        // unchecked).
        {"soft_margin_loss_backward", "null self before a bad dtype of gradOutput",
         [](const OperatorDescription&, Scenario& s) { s.args[1].null_tensor = true; s.args[0].type = ACL_DOUBLE; },
         ACLNN_ERR_PARAM_NULLPTR, {"null for argument self"}},
        {"soft_margin_loss_backward", "INT32 self",
         [](const OperatorDescription&, Scenario& s) { s.args[1].type = ACL_INT32; },
         ACLNN_ERR_PARAM_INVALID, {"self", "INT32"}},
        {"soft_margin_loss_backward", "INT64 target",
         [](const OperatorDescription&, Scenario& s) { s.args[2].type = ACL_INT64; },
         ACLNN_ERR_PARAM_INVALID, {"target", "INT64"}},
        {"soft_margin_loss_backward", "undefined dtype number",
         [](const OperatorDescription&, Scenario& s) { s.args[1].type = static_cast<aclDataType>(5); },
         ACLNN_ERR_PARAM_INVALID, {"self", "aclDataType 5"}},
        {"soft_margin_loss_backward", "target's dtype before self's rank",
         [](const OperatorDescription&, Scenario& s) {
             s.args[2].type = ACL_BOOL;
             s.args[1].dims = std::vector<int64_t>(9, 1);
         },
         ACLNN_ERR_PARAM_INVALID, {"target", "BOOL"}},
        {"soft_margin_loss_backward", "rank 9 out",
         [](const OperatorDescription&, Scenario& s) { s.args.back().dims = {1, 1, 1, 1, 1, 1, 1, 2, 3}; },
         ACLNN_ERR_PARAM_INVALID, {"out", "cannot be larger than 8 dimensions"}},
        {"soft_margin_loss_backward", "zero against two",
         [](const OperatorDescription&, Scenario& s) { s.args[1].dims = {0, 3}; },
         ACLNN_ERR_PARAM_INVALID, {"gradOutput", "self", "[0, 3]"}},
        {"soft_margin_loss_backward", "out with an extra leading 1",
         [](const OperatorDescription&, Scenario& s) { s.args.back().dims = {1, 2, 3}; },
         ACLNN_ERR_PARAM_INVALID, {"out", "[1, 2, 3]"}},
        {"soft_margin_loss_backward", "out of the unbroadcast size",
         [](const OperatorDescription&, Scenario& s) { s.args[1].dims = {4, 2, 3}; },
         ACLNN_ERR_PARAM_INVALID, {"out", "[4, 2, 3]"}},
        {"soft_margin_loss_backward", "out mapping two elements to one address",
         [](const OperatorDescription&, Scenario& s) { s.args.back().strides = {1, 1}; },
         ACLNN_ERR_PARAM_INVALID, {"out", "same address"}},
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
