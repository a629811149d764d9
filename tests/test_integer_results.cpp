// The rows that compute in integers (an integer type in their lists: aclnnL1Loss's INT64, as CANN's op_api runs
// Sub, Abs and ReduceSum in int64): integer inputs of any width promoted as CANN promotes them, every element
// exact (values far past fp32's 2^24 and float64's 2^53), reductions none and sum, out INT64 or a floating type
// (the exact result rounded once to nearest), broadcast and strided views, in place, the same bits on 1 and 3
// threads; the arithmetic wraps as two's complement; a mean of integers, an integer out other than INT64 and a
// bool out are refused; an INT32 input beside a FLOAT one rounds once to FLOAT. A row is tested by having INT64
// in its list.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn/opdev/op_errno.h"
#include "aclnn_cpu/aclnn_cpu.h"
#include "ops/operator_table.h"
#include "operator_harness.h"
#include "random_cases.h"
#include "reference.h"

namespace {

using aclnn_cpu::OperatorDescription;
using namespace test_support;

std::vector<int> IntegerRows() {
    std::vector<int> rows;
    for (int i = 0; i < aclnn_cpu::kOperatorCount; ++i)
        if (aclnn_cpu::kOperators[i].dtypes->newer_chips.Contains(ACL_INT64)) rows.push_back(i);
    return rows;
}

struct Outcome {
    aclnnStatus status;
    std::string message;
};

Outcome RunRow(const OperatorDescription& row, const std::vector<const DeviceTensor*>& inputs, double reduction,
            const DeviceTensor& out) {
    const aclTensor* tensors[aclnn_cpu::kMaxOperatorInputs] = {};
    for (size_t k = 0; k < inputs.size(); ++k) tensors[k] = inputs[k]->tensor();
    std::vector<double> parameters(static_cast<size_t>(row.parameter_count));
    for (int p = 0; p < row.parameter_count; ++p) parameters[static_cast<size_t>(p)] = row.parameters[p].default_value;
    aclnn_cpu::SetReductionValue(row, parameters.data(), static_cast<int64_t>(reduction));
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    aclnnStatus status = row.Phase1(tensors, parameters.data(), out.tensor(), &workspace_size, &executor);
    if (status != 0) return {status, aclGetRecentErrMsg()};
    void* workspace = nullptr;
    if (workspace_size > 0) aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST);
    status = row.run(workspace, workspace_size, executor, nullptr);
    aclrtSynchronizeStream(nullptr);
    if (workspace != nullptr) aclrtFree(workspace);
    return {status, ""};
}

// |a - b| in two's complement, wrapping (the int64 Sub and Abs).
int64_t WrappedDistance(int64_t a, int64_t b) {
    const uint64_t d = static_cast<uint64_t>(a) - static_cast<uint64_t>(b);
    return static_cast<int64_t>(static_cast<int64_t>(d) < 0 ? uint64_t{0} - d : d);
}

// An integer of type's range: mostly far past 2^53 for INT64.
int64_t RandomInteger(aclDataType type, std::mt19937_64& rng) {
    switch (type) {
        case ACL_INT64: return rng() % 4 == 0 ? static_cast<int64_t>(rng() % 2001) - 1000 : static_cast<int64_t>(rng());
        case ACL_INT32: return static_cast<int32_t>(rng());
        case ACL_UINT8: return static_cast<int64_t>(rng() % 256);
        default: return static_cast<int8_t>(rng());
    }
}

class IntegerRow : public ::testing::TestWithParam<int> {
protected:
    const OperatorDescription& row() const { return aclnn_cpu::kOperators[GetParam()]; }
    int self() const { return row().self_input; }
    int other() const { return row().self_input == 0 ? 1 : 0; }
};

// Random shapes, layouts and integer widths (at least one INT64), none and sum, INT64 and FLOAT outs.
TEST_P(IntegerRow, ExactAgainstInt64Arithmetic) {
    std::mt19937_64 rng(7000 + GetParam());
    const aclDataType kWidths[] = {ACL_INT64, ACL_INT32, ACL_UINT8, ACL_INT8};
    for (int c = 0; c < 60; ++c) {
        const std::vector<int64_t> shape = RandomShape(static_cast<int>(rng() % 4), 2000, rng);
        aclDataType types[2] = {kWidths[rng() % 4], kWidths[rng() % 4]};
        types[rng() % 2] = ACL_INT64;
        std::vector<std::unique_ptr<DeviceTensor>> inputs;
        const int full = static_cast<int>(rng() % 2);  // one input has the whole shape, the other may broadcast
        for (int k = 0; k < 2; ++k) {
            const std::vector<int64_t> dims = k == full || rng() % 2 ? shape : RandomBroadcastableTo(shape, rng);
            auto tensor = std::make_unique<DeviceTensor>(RandomLayout(dims, types[k], rng, LayoutOptions{true}), rng,
                                                         Uniform{1.0});
            const int64_t elements = static_cast<int64_t>(tensor->host().size()) / ElementSize(types[k]);
            for (int64_t i = 0; i < elements; ++i) tensor->SetInteger(i, RandomInteger(types[k], rng));
            tensor->Upload();
            inputs.push_back(std::move(tensor));
        }
        const int reduction = rng() % 2 ? 0 : 2;
        const aclDataType out_type = rng() % 3 == 0 ? ACL_FLOAT : ACL_INT64;
        const std::vector<int64_t> out_dims = reduction == 0 ? shape : std::vector<int64_t>{};
        DeviceTensor out(RandomLayout(out_dims, out_type, rng, LayoutOptions{}), rng, Uniform{1.0}, 2);
        const std::vector<uint8_t> before = out.host();
        const Outcome outcome = RunRow(row(), {inputs[0].get(), inputs[1].get()}, reduction, out);
        ASSERT_EQ(outcome.status, 0) << outcome.message;
        // The expected int64 values over the broadcast shape, and their wrapped sum.
        uint64_t total = 0;
        std::string failure;
        ForEachIndex(shape, [&](const std::vector<int64_t>& index) {
            int64_t values[2];
            for (int k = 0; k < 2; ++k) {
                const DeviceTensor& t = *inputs[static_cast<size_t>(k)];
                const int64_t at = t.StorageIndex(BroadcastIndex(index, t.spec().dims));
                values[k] = static_cast<int64_t>(DecodeElement(t.host().data() + at * ElementSize(t.spec().type),
                                                               t.spec().type));
                if (t.spec().type == ACL_INT64) std::memcpy(&values[k], t.host().data() + at * 8, 8);
            }
            const int64_t expected = WrappedDistance(values[self()], values[other()]);
            total += static_cast<uint64_t>(expected);
            if (reduction != 0 || !failure.empty()) return;
            const int64_t at = out.StorageIndex(index);
            const bool equal = out_type == ACL_INT64
                                   ? out.DeviceInteger(at) == expected
                                   : DecodeElement(out.Download().data() + at * 4, ACL_FLOAT) ==
                                         static_cast<double>(static_cast<float>(expected));
            if (!equal) failure = "element " + std::to_string(at) + " expected " + std::to_string(expected);
        });
        if (reduction != 0) {
            const int64_t expected = static_cast<int64_t>(total);
            if (out_type == ACL_INT64) {
                EXPECT_EQ(out.DeviceInteger(out.StorageIndex({})), expected) << "the int64 sum";
            } else {
                EXPECT_EQ(ReadScalar(out), static_cast<double>(static_cast<float>(expected))) << "the sum as FLOAT";
            }
        }
        EXPECT_TRUE(failure.empty()) << failure << " in " << Describe(out.spec());
        // Storage outside out's view keeps its bytes.
        const std::vector<uint8_t> after = out.Download();
        std::vector<bool> in_view(after.size(), false);
        ForEachIndex(out.spec().dims, [&](const std::vector<int64_t>& index) {
            const int64_t at = out.StorageIndex(index) * ElementSize(out_type);
            for (int64_t b = 0; b < ElementSize(out_type); ++b) in_view[static_cast<size_t>(at + b)] = true;
        });
        for (size_t b = 0; b < after.size(); ++b)
            if (!in_view[b]) {
                ASSERT_EQ(after[b], before[b]) << "byte " << b << " outside out's view changed";
            }
    }
}

// INT32 values anywhere in their range beside a FLOAT input, in random layouts (contiguous ones take the fused
// path, which converts a vector at a time; strided ones the blocked path): each value rounds once to the promote
// type FLOAT, to nearest, so the call gives the bits of the same call with the rounded values as a FLOAT input,
// under every reduction.
TEST_P(IntegerRow, WideInt32BesideFloatRoundsOnce) {
    std::mt19937_64 rng(7500 + GetParam());
    for (int c = 0; c < 40; ++c) {
        const std::vector<int64_t> shape = RandomShape(static_cast<int>(rng() % 4), 3000, rng);
        DeviceTensor floating(RandomLayout(shape, ACL_FLOAT, rng, LayoutOptions{}), rng, Uniform{1.0e9});
        const TensorSpec integer_spec = RandomLayout(shape, ACL_INT32, rng, LayoutOptions{});
        DeviceTensor integer(integer_spec, rng, Uniform{1.0});
        TensorSpec rounded_spec = integer_spec;
        rounded_spec.type = ACL_FLOAT;
        DeviceTensor rounded(rounded_spec, rng, Uniform{1.0});
        const int64_t elements = static_cast<int64_t>(integer.host().size()) / 4;
        for (int64_t i = 0; i < elements; ++i) {
            const int64_t value = RandomInteger(ACL_INT32, rng);
            integer.SetInteger(i, value);
            rounded.SetStorage(i, static_cast<double>(static_cast<float>(value)));
        }
        integer.Upload();
        rounded.Upload();
        const int reduction = static_cast<int>(rng() % 3);
        const std::vector<int64_t> out_dims = reduction == 0 ? shape : std::vector<int64_t>{};
        const TensorSpec out_spec = RandomLayout(out_dims, ACL_FLOAT, rng, LayoutOptions{});
        DeviceTensor out(out_spec, rng, Uniform{1.0}), expected(out_spec, rng, Uniform{1.0});
        std::vector<const DeviceTensor*> with_integer(2), with_rounded(2);
        with_integer[static_cast<size_t>(self())] = with_rounded[static_cast<size_t>(self())] = &floating;
        with_integer[static_cast<size_t>(other())] = &integer;
        with_rounded[static_cast<size_t>(other())] = &rounded;
        const Outcome outcome = RunRow(row(), with_integer, reduction, out);
        ASSERT_EQ(outcome.status, 0) << outcome.message;
        ASSERT_EQ(RunRow(row(), with_rounded, reduction, expected).status, 0) << aclGetRecentErrMsg();
        const std::vector<uint8_t> got = out.Download(), want = expected.Download();
        ForEachIndex(out_dims, [&](const std::vector<int64_t>& index) {
            const size_t at = static_cast<size_t>(out.StorageIndex(index)) * 4;
            EXPECT_EQ(std::memcmp(got.data() + at, want.data() + at, 4), 0)
                << "reduction " << reduction << ", INT32 " << Describe(integer_spec) << ", out " << Describe(out_spec);
        });
    }
}

TEST_P(IntegerRow, WrapsAsTwosComplementAndIsTheSameOnEveryThreadCount) {
    constexpr int64_t kMin = std::numeric_limits<int64_t>::min(), kMax = std::numeric_limits<int64_t>::max();
    std::mt19937_64 rng(7100);
    const int64_t n = 300000;
    DeviceTensor a(Dense({n}, ACL_INT64), rng, Uniform{1.0});
    DeviceTensor b(Dense({n}, ACL_INT64), rng, Uniform{1.0});
    const int64_t firsts[][2] = {{kMin, 0}, {kMax, -1}, {kMin, 1}, {0, kMin}, {kMax, kMin}, {-5, 7}};
    uint64_t total = 0;
    std::vector<int64_t> expected(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
        const int64_t x = i < 6 ? firsts[i][0] : static_cast<int64_t>(rng());
        const int64_t y = i < 6 ? firsts[i][1] : static_cast<int64_t>(rng());
        a.SetInteger(i, x);
        b.SetInteger(i, y);
        expected[static_cast<size_t>(i)] = self() == 0 ? WrappedDistance(x, y) : WrappedDistance(y, x);
        total += static_cast<uint64_t>(expected[static_cast<size_t>(i)]);
    }
    a.Upload();
    b.Upload();
    EXPECT_EQ(expected[0], kMin) << "|INT64_MIN| is INT64_MIN";
    std::vector<std::vector<uint8_t>> sums;
    for (int threads : {1, 3}) {
        aclnnCpuSetThreadCount(threads);
        DeviceTensor out(Dense({n}, ACL_INT64), rng, Uniform{1.0});
        ASSERT_EQ(RunRow(row(), {&a, &b}, 0, out).status, 0);
        const std::vector<uint8_t> bytes = out.Download();
        for (int64_t i = 0; i < n; ++i) {
            int64_t got;
            std::memcpy(&got, bytes.data() + i * 8, 8);
            ASSERT_EQ(got, expected[static_cast<size_t>(i)]) << "element " << i << " on " << threads << " threads";
        }
        DeviceTensor sum(Dense({}, ACL_INT64), rng, Uniform{1.0});
        ASSERT_EQ(RunRow(row(), {&a, &b}, 2, sum).status, 0);
        EXPECT_EQ(sum.DeviceInteger(0), static_cast<int64_t>(total)) << threads << " threads";
    }
    aclnnCpuSetThreadCount(0);
}

// out the very view of self (in place, no workspace): each element read before it is written.
TEST_P(IntegerRow, InPlaceOnSelf) {
    std::mt19937_64 rng(7300);
    const int64_t n = 5000;
    DeviceTensor in_place(Dense({n}, ACL_INT64), rng, Uniform{1.0});
    DeviceTensor second(Dense({n}, ACL_INT64), rng, Uniform{1.0});
    std::vector<int64_t> expected(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
        const int64_t x = static_cast<int64_t>(rng()), y = static_cast<int64_t>(rng());
        in_place.SetInteger(i, x);
        second.SetInteger(i, y);
        expected[static_cast<size_t>(i)] = WrappedDistance(x, y);
    }
    in_place.Upload();
    second.Upload();
    std::vector<const DeviceTensor*> inputs(2);
    inputs[static_cast<size_t>(self())] = &in_place;
    inputs[static_cast<size_t>(other())] = &second;
    const aclTensor* tensors[2] = {inputs[0]->tensor(), inputs[1]->tensor()};
    double parameters[aclnn_cpu::kMaxOperatorParameters] = {};
    aclnn_cpu::SetReductionValue(row(), parameters, 0);
    uint64_t workspace_size = 1;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(row().Phase1(tensors, parameters, in_place.tensor(), &workspace_size, &executor), 0)
        << aclGetRecentErrMsg();
    EXPECT_EQ(workspace_size, 0u) << "in place needs no workspace";
    ASSERT_EQ(row().run(nullptr, 0, executor, nullptr), 0);
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), 0);
    const std::vector<uint8_t> bytes = in_place.Download();
    std::vector<int64_t> got(static_cast<size_t>(n));
    std::memcpy(got.data(), bytes.data(), static_cast<size_t>(n) * 8);
    EXPECT_EQ(got, expected);
}

// CANN's rules for integer calls, and aclnn-cpu's limits on out, each with its status and message and nothing
// written.
TEST_P(IntegerRow, RefusedIntegerCalls) {
    std::mt19937_64 rng(7200);
    struct Case {
        aclDataType self, other, out;
        int reduction;
        const char* message;
    };
    const Case cases[] = {
        {ACL_INT64, ACL_INT64, ACL_FLOAT, 1, "floating point"},  // a mean of integers
        {ACL_INT64, ACL_FLOAT, ACL_FLOAT, 0, "floating point"},  // none: an integer self with a floating target
        {ACL_INT32, ACL_INT32, ACL_INT64, 0, "promoteType dtype DT_INT32 should be in dtype support list"},
        {ACL_UINT8, ACL_INT8, ACL_INT64, 0, "promoteType dtype DT_INT16"},  // UINT8 with INT8 gives INT16
        {ACL_INT64, ACL_INT64, ACL_BOOL, 0, "can't be cast to the desired output type DT_BOOL"},
        {ACL_INT64, ACL_INT32, ACL_INT32, 0, "aclnn-cpu writes"},  // CANN casts to INT32; not here
        {ACL_FLOAT, ACL_INT64, ACL_INT64, 0, "can't be cast"},     // a floating result into an integer out
    };
    for (const Case& c : cases) {
        DeviceTensor first(Dense({4}, c.self), rng, Uniform{1.0});
        DeviceTensor second(Dense({4}, c.other), rng, Uniform{1.0});
        DeviceTensor out(Dense(c.reduction == 0 ? std::vector<int64_t>{4} : std::vector<int64_t>{}, c.out), rng,
                         Uniform{1.0});
        const std::vector<uint8_t> before = out.host();
        std::vector<const DeviceTensor*> inputs(2);
        inputs[static_cast<size_t>(self())] = &first;
        inputs[static_cast<size_t>(other())] = &second;
        const Outcome outcome = RunRow(row(), inputs, c.reduction, out);
        EXPECT_EQ(outcome.status, ACLNN_ERR_PARAM_INVALID) << c.message;
        EXPECT_NE(outcome.message.find(c.message), std::string::npos) << outcome.message;
        EXPECT_EQ(out.Download(), before) << "a refused call wrote out: " << c.message;
    }
}

std::string RowName(const ::testing::TestParamInfo<int>& info) { return aclnn_cpu::kOperators[info.param].name; }

INSTANTIATE_TEST_SUITE_P(Table, IntegerRow, ::testing::ValuesIn(IntegerRows()), RowName);

}  // namespace
