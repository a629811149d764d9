// The softmax family (aclnnSoftmax, aclnnLogSoftmax, aclnnSoftmaxBackward, aclnnLogSoftmaxBackward) beyond what
// the table's generic suites check of every row: every dim (negative ones too) over random shapes, dtypes and
// layouts against the rows' float64 models; the hard rows (logits of +-1e4, masked -inf entries, equal values,
// C = 1, a 256K row, rows with NaN or only -inf); the same bits for any thread count and layout; in place and
// overlapping outs; DOUBLE (CANN's AICPU path); CANN's example programs' numbers; phase 1's checks in each op_api's
// order, SoC by SoC. Runs on every SIMD target.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "aclnn_cpu/aclnn_cpu.h"
#include "argument_fixture.h"
#include "device_tensor.h"
#include "operator_harness.h"
#include "ops/operator_table.h"
#include "random_cases.h"
#include "reference.h"

namespace {

using aclnn_cpu::OperatorDescription;
using test_support::DeviceTensor;
using test_support::Arg;
using test_support::Null;
using test_support::TensorArg;
using test_support::TensorSpec;

const OperatorDescription& Row(const char* name) { return *aclnn_cpu::FindOperator(name); }

const char* const kFamily[] = {"softmax", "log_softmax", "softmax_backward", "log_softmax_backward"};

// The values an input of the row takes: logits for self, probabilities (or their logs) for a gradient's output.
double InputValue(const OperatorDescription& row, int k, std::mt19937_64& rng) {
    const bool log_output = row.inputs[k].domain == aclnn_cpu::ValueDomain::kReal && k != 0;
    if (log_output) return -std::fabs(std::uniform_real_distribution<double>(0, 6)(rng));
    return test_support::DomainValue(row.inputs[k].domain, rng);
}

// A call of the row: its inputs of `spec`'s shape (each in its own random layout, of `spec`'s dtype), out of
// out_type, and dim.
struct Call {
    const OperatorDescription* row;
    std::vector<std::unique_ptr<DeviceTensor>> inputs;
    std::unique_ptr<DeviceTensor> out;
    int64_t dim;

    std::vector<const DeviceTensor*> Inputs() const {
        std::vector<const DeviceTensor*> pointers;
        for (const auto& input : inputs) pointers.push_back(input.get());
        return pointers;
    }
    std::vector<const aclTensor*> Tensors() const {
        std::vector<const aclTensor*> tensors;
        for (const auto& input : inputs) tensors.push_back(input->tensor());
        return tensors;
    }
    aclnnStatus Run() const { return test_support::RunRow(*row, Tensors(), {static_cast<double>(dim)}, out->tensor()); }
    std::string Verify(const std::vector<uint8_t>& out_before) const {
        return test_support::VerifyRowElementwise(test_support::RowCallOf(*row, {static_cast<double>(dim)}, Inputs()),
                                                  Inputs(), out->spec(), out->Download(), out_before);
    }
};

// The tensors' layouts: dense, or random (inputs possibly expanded: stride 0 on a dim of size > 1), or random with
// every input holding a value per element.
enum class Layouts { kDense, kRandom, kRandomUnexpanded };

Call MakeCall(const OperatorDescription& row, const std::vector<int64_t>& dims, aclDataType type, aclDataType out_type,
              int64_t dim, std::mt19937_64& rng, Layouts layouts = Layouts::kRandom) {
    const bool random_layouts = layouts != Layouts::kDense;
    Call call{&row, {}, nullptr, dim};
    for (int k = 0; k < row.input_count; ++k) {
        const test_support::LayoutOptions expand = {layouts == Layouts::kRandom};
        const TensorSpec spec = random_layouts ? test_support::RandomLayout(dims, type, rng, expand)
                                               : test_support::Dense(dims, type);
        call.inputs.push_back(std::make_unique<DeviceTensor>(
            spec, rng, [&](std::mt19937_64& g) { return InputValue(row, k, g); }));
    }
    const TensorSpec out_spec = random_layouts ? test_support::RandomLayout(dims, out_type, rng, {false})
                                               : test_support::Dense(dims, out_type);
    call.out = std::make_unique<DeviceTensor>(out_spec, rng, [](std::mt19937_64&) { return -7.0; });
    return call;
}

// out's values, row-major, as raw bits (NaNs compared by their bits too).
std::vector<uint64_t> OutBits(const Call& call) {
    const std::vector<uint8_t> storage = call.out->Download();
    const int64_t size = test_support::ElementSize(call.out->spec().type);
    std::vector<uint64_t> bits;
    test_support::ForEachIndex(call.out->spec().dims, [&](const std::vector<int64_t>& index) {
        uint64_t b = 0;
        std::memcpy(&b, storage.data() + call.out->StorageIndex(index) * size, static_cast<size_t>(size));
        bits.push_back(b);
    });
    return bits;
}

// The dtypes a row takes on the default SoC (Ascend 950): the inputs' and out's.
std::vector<aclDataType> Dtypes(const OperatorDescription& row) {
    std::vector<aclDataType> types;
    for (int i = 0; i < row.dtypes->newer_chips.count; ++i)
        types.push_back(static_cast<aclDataType>(row.dtypes->newer_chips.types[i]));
    return types;
}

class Family : public ::testing::TestWithParam<const char*> {
protected:
    const OperatorDescription& row() const { return Row(GetParam()); }
};

TEST_P(Family, EveryDimOfRandomShapesDtypesAndLayouts) {
    const OperatorDescription& r = row();
    std::mt19937_64 rng(57000 + static_cast<uint64_t>(std::strlen(GetParam())));
    const std::vector<aclDataType> types = Dtypes(r);
    for (int c = 0; c < 60; ++c) {
        const int rank = static_cast<int>(rng() % 5);
        const std::vector<int64_t> dims = test_support::RandomShape(rank, 600, rng);
        const int64_t visible_rank = std::max(rank, 1);
        const int64_t dim = static_cast<int64_t>(rng() % static_cast<uint64_t>(2 * visible_rank)) - visible_rank;
        const aclDataType type = types[rng() % types.size()];
        const aclDataType out_type = types[rng() % types.size()];
        Call call = MakeCall(r, dims, type, out_type, dim, rng);
        const std::vector<uint8_t> before = call.out->Download();
        ASSERT_EQ(call.Run(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        const std::string failure = call.Verify(before);
        ASSERT_TRUE(failure.empty()) << r.api_name << " case " << c << " dim " << dim << " "
                                     << test_support::Describe(call.inputs[0]->spec()) << " out "
                                     << test_support::Describe(call.out->spec()) << "\n" << failure;
    }
}

// Dense and random layouts of the same values, on 1, 2 and 3 threads (FLOAT) or one (FLOAT16, BFLOAT16, along the
// last dim: where the dense rows are converted by vector and the strided ones element by element): the same bits.
TEST_P(Family, SameBitsForAnyLayoutAndThreadCount) {
    const OperatorDescription& r = row();
    std::mt19937_64 rng(5700);
    for (const aclDataType type : Dtypes(r)) {
        if (type == ACL_DOUBLE) continue;  // not the fp32 kernels: CANN's AICPU rows, in order
        const std::vector<int> thread_counts = type == ACL_FLOAT ? std::vector<int>{1, 2, 3} : std::vector<int>{1};
        for (const std::vector<int64_t>& dims : {std::vector<int64_t>{64, 1000}, std::vector<int64_t>{300, 7, 33}}) {
            for (int64_t dim = -static_cast<int64_t>(dims.size()); dim < static_cast<int64_t>(dims.size()); ++dim) {
                if (type != ACL_FLOAT && dim != -1) continue;
                std::mt19937_64 same(rng());
                Call dense = MakeCall(r, dims, type, type, dim, same, Layouts::kDense);
                std::vector<uint64_t> reference_bits;
                for (int threads : thread_counts) {
                    ASSERT_EQ(aclnnCpuSetThreadCount(threads), 0);
                    ASSERT_EQ(dense.Run(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
                    const std::vector<uint64_t> bits = OutBits(dense);
                    if (reference_bits.empty()) reference_bits = bits;
                    EXPECT_EQ(bits, reference_bits) << r.api_name << " " << test_support::Describe(dense.out->spec())
                                                    << " dim " << dim << " on " << threads << " threads";
                }
                aclnnCpuSetThreadCount(0);
                Call strided = MakeCall(r, dims, type, type, dim, rng, Layouts::kRandomUnexpanded);
                for (size_t k = 0; k < dense.inputs.size(); ++k) {
                    const DeviceTensor& from = *dense.inputs[k];
                    test_support::ForEachIndex(dims, [&](const std::vector<int64_t>& index) {
                        strided.inputs[k]->SetStorage(strided.inputs[k]->StorageIndex(index),
                                                      from.HostValue(from.StorageIndex(index)));
                    });
                    strided.inputs[k]->Upload();
                }
                ASSERT_EQ(strided.Run(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
                EXPECT_EQ(OutBits(strided), reference_bits)
                    << r.api_name << " " << test_support::Describe(dense.out->spec()) << " dim " << dim
                    << ", strided layouts";
            }
        }
    }
}

// out the very same view as an input (in place), and out overlapping an input one element further on.
TEST_P(Family, InPlaceAndOverlappingOuts) {
    const OperatorDescription& r = row();
    std::mt19937_64 rng(5701);
    const std::vector<int64_t> dims = {9, 130};
    for (int k = 0; k < r.input_count; ++k) {
        for (int64_t shift : {0, 1}) {
            Call call = MakeCall(r, dims, ACL_FLOAT, ACL_FLOAT, -1, rng, Layouts::kDense);
            // The expected values from the inputs before the call: a separate out.
            ASSERT_EQ(call.Run(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
            const std::vector<uint64_t> expected = OutBits(call);
            // out over input k's storage, `shift` elements on (its storage has room: 1 extra element).
            auto storage = std::make_unique<DeviceTensor>(
                test_support::Dense({dims[0] * dims[1] + 1}, ACL_FLOAT), rng, [](std::mt19937_64&) { return 0.0; });
            const DeviceTensor& input = *call.inputs[static_cast<size_t>(k)];
            for (int64_t i = 0; i < dims[0] * dims[1]; ++i) storage->SetStorage(i, input.HostValue(i));
            storage->Upload();
            const int64_t strides[] = {dims[1], 1};
            aclTensor* in_view = aclCreateTensor(dims.data(), 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, dims.data(), 2,
                                                 storage->device());
            aclTensor* out_view = aclCreateTensor(dims.data(), 2, ACL_FLOAT, strides, shift, ACL_FORMAT_ND,
                                                  dims.data(), 2, storage->device());
            std::vector<const aclTensor*> tensors = call.Tensors();
            tensors[static_cast<size_t>(k)] = in_view;
            uint64_t workspace = 0;
            ASSERT_EQ(test_support::RunRow(r, tensors, {-1.0}, out_view, nullptr, &workspace), ACLNN_SUCCESS)
                << aclGetRecentErrMsg();
            EXPECT_EQ(workspace > 0, shift != 0) << "only a partial overlap needs a staging buffer";
            const std::vector<uint8_t> after = storage->Download();
            for (int64_t i = 0; i < dims[0] * dims[1]; ++i) {
                uint32_t bits = 0;
                std::memcpy(&bits, after.data() + (i + shift) * 4, 4);
                ASSERT_EQ(bits, static_cast<uint32_t>(expected[static_cast<size_t>(i)]))
                    << r.api_name << ": out over input " << k << " shifted by " << shift << ", element " << i;
            }
            aclDestroyTensor(in_view);
            aclDestroyTensor(out_view);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Rows, Family, ::testing::ValuesIn(kFamily),
                         [](const ::testing::TestParamInfo<const char*>& info) { return std::string(info.param); });

// A dense FLOAT call of the row holding the chosen values of each input, row-major.
Call CallWithValues(const char* name, const std::vector<int64_t>& dims, const std::vector<std::vector<double>>& values,
                    int64_t dim) {
    std::mt19937_64 rng(1);
    Call call = MakeCall(Row(name), dims, ACL_FLOAT, ACL_FLOAT, dim, rng, Layouts::kDense);
    for (size_t k = 0; k < call.inputs.size(); ++k) {
        for (size_t i = 0; i < values[k].size(); ++i) call.inputs[k]->SetStorage(static_cast<int64_t>(i), values[k][i]);
        call.inputs[k]->Upload();
    }
    return call;
}

// Rows of one call with chosen values (FLOAT), checked against the row's model.
void ExpectRows(const char* name, const std::vector<int64_t>& dims, const std::vector<std::vector<double>>& values,
                int64_t dim = -1) {
    const Call call = CallWithValues(name, dims, values, dim);
    const std::vector<uint8_t> before = call.out->Download();
    ASSERT_EQ(call.Run(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    const std::string failure = call.Verify(before);
    EXPECT_TRUE(failure.empty()) << name << "\n" << failure;
}

TEST(HardRows, LogitsOfTenThousandMaskedEntriesEqualRowsAndOneClass) {
    const double inf = INFINITY;
    for (const char* name : {"softmax", "log_softmax"}) {
        ExpectRows(name, {2, 4}, {{1e4, -1e4, 9999.5, 0, -1e4, -1e4, -9999.0, 1e4}});
        ExpectRows(name, {2, 5}, {{-inf, 3, -inf, 1, 0.5, -inf, -inf, -inf, 2, -inf}});
        ExpectRows(name, {1, 7}, {{0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25}});
        ExpectRows(name, {3, 1}, {{5, -inf, 1e30}});
    }
    // C = 1: softmax is exactly 1, log-softmax exactly 0; only -inf or a NaN gives NaN.
    std::mt19937_64 rng(2);
    for (const char* name : {"softmax", "log_softmax"}) {
        Call call = MakeCall(Row(name), {4, 1}, ACL_FLOAT, ACL_FLOAT, 1, rng, Layouts::kDense);
        const double values[] = {3.5, -1e4, -inf, NAN};
        for (int i = 0; i < 4; ++i) call.inputs[0]->SetStorage(i, values[i]);
        call.inputs[0]->Upload();
        ASSERT_EQ(call.Run(), ACLNN_SUCCESS);
        const std::vector<uint8_t> out = call.out->Download();
        const double one = std::strcmp(name, "softmax") == 0 ? 1.0 : 0.0;
        for (int i = 0; i < 4; ++i) {
            const double got = test_support::DecodeElement(out.data() + 4 * i, ACL_FLOAT);
            if (i < 2)
                EXPECT_EQ(got, one) << name << " element " << i;
            else
                EXPECT_TRUE(std::isnan(got)) << name << " element " << i;
        }
    }
}

TEST(HardRows, NaNOrOnlyMinusInfinityMakesTheRowNaN) {
    const double inf = INFINITY;
    for (const char* name : {"softmax", "log_softmax"}) {
        ExpectRows(name, {3, 3}, {{1, NAN, 2, -inf, -inf, -inf, inf, 0, 1}});
    }
}

TEST(HardRows, ClassCountsFromTwoTo256K) {
    std::mt19937_64 rng(3);
    for (int64_t c : {2, 3, 17, 255, 1024, 32768, 262144}) {
        for (const char* name : kFamily) {
            Call call = MakeCall(Row(name), {c > 4096 ? 1 : 3, c}, ACL_FLOAT, ACL_FLOAT, -1, rng, Layouts::kDense);
            const std::vector<uint8_t> before = call.out->Download();
            ASSERT_EQ(call.Run(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
            const std::string failure = call.Verify(before);
            EXPECT_TRUE(failure.empty()) << name << " C = " << c << "\n" << failure;
        }
    }
}

// DOUBLE, as CANN's AICPU kernels compute it: float64 throughout.
TEST(Double, SoftmaxAndLogSoftmaxComputeInFloat64) {
    std::mt19937_64 rng(4);
    for (const char* name : {"softmax", "log_softmax"}) {
        Call call = MakeCall(Row(name), {5, 40}, ACL_DOUBLE, ACL_DOUBLE, 1, rng);
        ASSERT_EQ(call.Run(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        std::vector<std::vector<double>> values(1);
        test_support::ForEachIndex({5, 40}, [&](const std::vector<int64_t>& index) {
            values[0].push_back(call.inputs[0]->HostValue(call.inputs[0]->StorageIndex(index)));
        });
        const auto references = test_support::AlongDimReferences(
            test_support::RowCallOf(Row(name), {1.0}, call.Inputs()), values, {5, 40});
        const std::vector<uint8_t> out = call.out->Download();
        int64_t i = 0;
        test_support::ForEachIndex({5, 40}, [&](const std::vector<int64_t>& index) {
            const double got = test_support::DecodeElement(out.data() + call.out->StorageIndex(index) * 8, ACL_DOUBLE);
            const double expected = references[static_cast<size_t>(i++)].value;
            EXPECT_NEAR(got, expected, 1e-14 * (1 + std::fabs(expected))) << name;
        });
    }
}

// CANN's example programs for these functions (ops-nn activation/*/examples): their inputs, and what they print
// with "%f": the float64 computation of those inputs rounded to out's FLOAT (log-softmax's gradient: float64 gives
// -32.6193819..., whose nearest FLOAT prints -32.619381).
std::vector<std::string> Printed(const char* name, const std::vector<int64_t>& dims,
                                 const std::vector<std::vector<double>>& values, int64_t dim) {
    const Call call = CallWithValues(name, dims, values, dim);
    EXPECT_EQ(call.Run(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    const std::vector<uint8_t> out = call.out->Download();
    std::vector<std::string> printed;
    for (size_t i = 0; i < out.size() / 4; ++i) {
        char text[64];
        std::snprintf(text, sizeof text, "%f", test_support::DecodeElement(out.data() + 4 * i, ACL_FLOAT));
        printed.push_back(text);
    }
    return printed;
}

TEST(CannExamples, PrintWhatFloat64Gives) {
    using Lines = std::vector<std::string>;
    EXPECT_EQ(Printed("softmax", {4, 2}, {{0, 1, 2, 3, 4, 5, 6, 7}}, 0),
              (Lines{"0.002144", "0.002144", "0.015842", "0.015842", "0.117059", "0.117059", "0.864955", "0.864955"}));
    EXPECT_EQ(Printed("log_softmax", {3, 3}, {{1, 2, 3, 4, 5, 6, 7, 8, 9}}, 1),
              (Lines{"-2.407606", "-1.407606", "-0.407606", "-2.407606", "-1.407606", "-0.407606", "-2.407606",
                     "-1.407606", "-0.407606"}));
    const std::vector<double> grad = {0, 1, 2, 3, 4, 5, 6, 7}, output = {1, 1, 1, 2, 2, 2, 3, 3};
    EXPECT_EQ(Printed("softmax_backward", {4, 2}, {grad, output}, 0),
              (Lines{"-28.000000", "-37.000000", "-26.000000", "-70.000000", "-48.000000", "-66.000000", "-66.000000",
                     "-93.000000"}));
    EXPECT_EQ(Printed("log_softmax_backward", {4, 2}, {grad, output}, 0),
              (Lines{"-32.619381", "-42.492508", "-30.619381", "-115.224899", "-84.668671", "-113.224899",
                     "-235.026443", "-314.368591"}));
}

// ---- phase 1's checks, in each op_api's order ------------------------------------------------------------------

struct Check {
    const char* what;
    std::vector<TensorArg> args;  // the inputs, then out
    int64_t dim;
    const char* soc;  // ACLNN_CPU_SOC_NAME, or nullptr (Ascend 950)
    aclnnStatus status;
    std::vector<std::string> message_parts;  // none: the call is accepted
};

void ExpectChecks(const char* name, const std::vector<Check>& checks) {
    const OperatorDescription& r = Row(name);
    for (const Check& c : checks) {
        if (c.soc != nullptr) setenv("ACLNN_CPU_SOC_NAME", c.soc, 1);
        test_support::ArgumentFixture fixture(c.args);
        auto phase1 = [&](uint64_t* size, aclOpExecutor** executor) {
            std::vector<const aclTensor*> inputs;
            for (int k = 0; k < r.input_count; ++k) inputs.push_back(fixture.tensor(static_cast<size_t>(k)));
            const double parameters[] = {static_cast<double>(c.dim)};
            return r.Phase1(inputs.data(), parameters, fixture.tensor(fixture.size() - 1), size, executor);
        };
        const std::string label = std::string(r.api_name) + ": " + c.what;
        if (c.status == ACLNN_SUCCESS) {
            uint64_t size = 0;
            aclOpExecutor* executor = nullptr;
            EXPECT_EQ(phase1(&size, &executor), ACLNN_SUCCESS) << label << ": " << aclGetRecentErrMsg();
            if (executor != nullptr) {
                EXPECT_EQ(r.run(nullptr, size, executor, nullptr), ACLNN_SUCCESS) << label;
            }
            aclrtSynchronizeStream(nullptr);
        } else {
            std::vector<std::string> parts = c.message_parts;
            test_support::ExpectRejection({label.c_str(), c.status, parts}, fixture, false, false, phase1);
        }
        unsetenv("ACLNN_CPU_SOC_NAME");
    }
}

constexpr aclnnStatus kNull = ACLNN_ERR_PARAM_NULLPTR;
constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;

TEST(Checks, SoftmaxReturnsEarlyForAnEmptySelf) {
    ExpectChecks("softmax", {
        {"null self", {Null(), Arg({2, 3})}, 0, nullptr, kNull, {"argument self"}},
        {"null out", {Arg({2, 3}), Null()}, 0, nullptr, kNull, {"argument out"}},
        // An empty self: success before out's dtype, dim and shape are looked at.
        {"empty self, INT32 out of another shape, bad dim", {Arg({2, 0}), Arg({2, 3}, ACL_INT32)}, 5, nullptr,
         ACLNN_SUCCESS, {}},
        {"INT32 self", {Arg({2, 3}, ACL_INT32), Arg({2, 3})}, 9, nullptr, kInvalid,
         {"Tensor self not implemented for DT_INT32, should be in dtype support list "
          "[DT_FLOAT,DT_FLOAT16,DT_DOUBLE,DT_BFLOAT16,]."}},
        {"BF16 self on Atlas 910", {Arg({2, 3}, ACL_BF16), Arg({2, 3})}, 0, "Ascend910A", kInvalid,
         {"Tensor self not implemented for DT_BFLOAT16, should be in dtype support list "
          "[DT_FLOAT,DT_FLOAT16,DT_DOUBLE,]."}},
        {"dim 2 of rank 2", {Arg({2, 3}), Arg({2, 3})}, 2, nullptr, kInvalid,
         {"provided dim 2 not in the range of input size 2."}},
        {"dim -3 of rank 2", {Arg({2, 3}), Arg({2, 3})}, -3, nullptr, kInvalid,
         {"provided dim -3 not in the range of input size 2."}},
        {"0-d self, dim -1", {Arg({}), Arg({})}, -1, nullptr, ACLNN_SUCCESS, {}},
        {"0-d self, dim 1", {Arg({}), Arg({})}, 1, nullptr, kInvalid,
         {"provided dim 1 not in the range of input size 1."}},
        {"rank 9", {Arg(std::vector<int64_t>(9, 1)), Arg(std::vector<int64_t>(9, 1))}, 0, nullptr, kInvalid,
         {"The self tensor cannot be larger than 8 dimensions"}},
        {"out of another shape", {Arg({2, 3}), Arg({3, 2})}, 0, nullptr, kInvalid,
         {"Expected tensor for self to have same size as tensor for out, but [2, 3] does not equal "
          "[3, 2]."}},
        {"DOUBLE self, FLOAT16 out", {Arg({2, 3}, ACL_DOUBLE), Arg({2, 3}, ACL_FLOAT16)}, 1, nullptr,
         ACLNN_SUCCESS, {}},
    });
}

TEST(Checks, LogSoftmaxChecksDimFirstAndEmptySelvesToo) {
    ExpectChecks("log_softmax", {
        {"bad dim before a bad dtype", {Arg({2, 3}, ACL_INT32), Arg({2, 3})}, 7, nullptr, kInvalid,
         {"provided dim 7 not in the range of input size 2."}},
        {"BF16 out on Atlas 910", {Arg({2, 3}), Arg({2, 3}, ACL_BF16)}, 0, "Ascend910A", kInvalid,
         {"aclnnLogSoftmax is not support bfloat16 in current socversion."}},
        {"INT32 out", {Arg({2, 3}), Arg({2, 3}, ACL_INT32)}, 0, nullptr, kInvalid,
         {"Tensor out not implemented for DT_INT32, should be in dtype support list "
          "[DT_FLOAT,DT_FLOAT16,DT_DOUBLE,DT_BFLOAT16,]."}},
        {"out of another shape", {Arg({2, 3}), Arg({3, 2})}, 0, nullptr, kInvalid,
         {"Expected tensor for out to have same size as tensor for self, but [3, 2] does not equal [2, 3]."}},
        // No early return before the checks: an empty self with a wrong out is refused.
        {"empty self, out of another shape", {Arg({2, 0}), Arg({2, 3})}, 0, nullptr, kInvalid,
         {"Expected tensor for out to have same size as tensor for self"}},
        {"empty self", {Arg({2, 0}), Arg({2, 0})}, 0, nullptr, ACLNN_SUCCESS, {}},
        {"FLOAT16 self, FLOAT out", {Arg({2, 3}, ACL_FLOAT16), Arg({2, 3})}, -2, nullptr, ACLNN_SUCCESS, {}},
    });
}

TEST(Checks, SoftmaxBackwardDependsOnTheChipForEmptyTensors) {
    ExpectChecks("softmax_backward", {
        {"null output", {Arg({2, 3}), Null(), Arg({2, 3})}, 0, nullptr, kNull, {"argument output"}},
        {"DOUBLE gradOutput", {Arg({2, 3}, ACL_DOUBLE), Arg({2, 3}), Arg({2, 3})}, 0, nullptr, kInvalid,
         {"Tensor gradOutput not implemented for DT_DOUBLE, should be in dtype support list "
          "[DT_FLOAT,DT_FLOAT16,DT_BFLOAT16,]."}},
        {"BF16 gradOutput on Atlas 310P",
         {Arg({2, 3}, ACL_BF16), Arg({2, 3}, ACL_BF16), Arg({2, 3})}, 0,
         "Ascend310P3", kInvalid,
         {"Input dtype of aclnnSoftmaxBackward is not support bfloat16 in current socversion."}},
        {"output of another dtype", {Arg({2, 3}), Arg({2, 3}, ACL_FLOAT16), Arg({2, 3})}, 0, nullptr, kInvalid,
         {"Tensor output expected dtype is DT_FLOAT but found DT_FLOAT16."}},
        {"DOUBLE out (not checked: the result is cast)", {Arg({2, 3}), Arg({2, 3}), Arg({2, 3}, ACL_DOUBLE)}, 0,
         nullptr, ACLNN_SUCCESS, {}},
        {"out of another shape", {Arg({2, 3}), Arg({2, 3}), Arg({3, 2})}, 0, nullptr, kInvalid,
         {"Expected tensor for gradOutput to have same size as tensor for out"}},
        // Atlas A2 returns for an empty input before the checks; Ascend 950 checks first.
        {"empty gradOutput, bad shapes, Atlas A2", {Arg({2, 0}), Arg({2, 3}), Arg({5})}, 0, "Ascend910B1",
         ACLNN_SUCCESS, {}},
        {"empty gradOutput, bad shapes, Ascend 950", {Arg({2, 0}), Arg({2, 3}), Arg({5})}, 0, nullptr, kInvalid,
         {"Expected tensor for gradOutput to have same size as tensor for output"}},
    });
}

TEST(Checks, LogSoftmaxBackwardChecksOutputFirstAndDimLast) {
    ExpectChecks("log_softmax_backward", {
        {"null gradOutput and output", {Null(), Null(), Arg({2, 3})}, 0, nullptr, kNull, {"argument output."}},
        {"BF16 output on Atlas 910", {Arg({2, 3}, ACL_BF16), Arg({2, 3}, ACL_BF16), Arg({2, 3})}, 0, "Ascend910A",
         kInvalid, {"aclnnLogSoftmaxBackward is not support bfloat16 in current socversion."}},
        {"INT32 output before INT32 gradOutput", {Arg({2, 3}, ACL_INT32), Arg({2, 3}, ACL_INT32), Arg({2, 3})}, 0,
         nullptr, kInvalid, {"Tensor output not implemented for DT_INT32"}},
        {"dtypes differ", {Arg({2, 3}), Arg({2, 3}, ACL_FLOAT16), Arg({2, 3})}, 0, nullptr, kInvalid,
         {"Expected both tensors to have same dtype, but found gradOutput DT_FLOAT and output DT_FLOAT16."}},
        {"rank 9 output", {Arg({2, 3}), Arg(std::vector<int64_t>(9, 1)), Arg({2, 3})}, 0, nullptr, kInvalid,
         {"Dim of input tensor can't be greater than 8."}},
        {"shapes before dim", {Arg({2, 3}), Arg({3, 2}), Arg({2, 3})}, 9, nullptr, kInvalid,
         {"Expected tensor for gradOutput to have same size as tensor for output"}},
        {"dim last", {Arg({2, 3}), Arg({2, 3}), Arg({2, 3})}, -3, nullptr, kInvalid,
         {"provided dim -3 not in the range of input size 2."}},
    });
}

}  // namespace
