// Memory layouts on the elementwise engine. For every operator of the table (ops/operator_table.h): out as the
// very view of an input (in place), out overlapping an input in other ways (the result equals reading every
// input first, also where phase 2 rebinds out into an input), empty tensors, and the same bits for any layout.
// Then the engine's own paths, on one row a property picks (EngineRow): transposed operands in bands and blocks
// at every edge and thread split, the fused rows with row-constant and broadcast operands, rows too long for a
// band, and large outputs at any alignment. Every SIMD target.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "acl/acl.h"
#include "operator_harness.h"
#include "ops/operator_table.h"
#include "random_cases.h"
#include "reference.h"
#include "sanitizers.h"

namespace {

using aclnn_cpu::InputRole;
using aclnn_cpu::OperatorDescription;
using namespace test_support;

const Uniform kValues{6.0};
// Storage that every run overwrites starts as -1 rather than random values: cheaper under qemu and the
// sanitizers, where the large tests' set-up can cost more than the operator.
const auto kMinusOne = [](std::mt19937_64&) { return -1.0; };

// The row's default parameters with the given reduction (where it has one).
std::vector<double> Parameters(const OperatorDescription& row, int64_t reduction) {
    std::vector<double> parameters;
    for (int p = 0; p < row.parameter_count; ++p) parameters.push_back(row.parameters[p].default_value);
    aclnn_cpu::SetReductionValue(row, parameters.data(), reduction);
    return parameters;
}

// The reductions under which out has one element per element of the broadcast shape (every one of a gradient's,
// none of a loss's), of 0 none, 1 mean, 2 sum; none alone for a row without a reduction.
std::vector<int64_t> ElementwiseReductions(const OperatorDescription& row) {
    if (aclnn_cpu::ReductionParameter(row) < 0) return {0};
    std::vector<int64_t> reductions;
    for (int64_t reduction : {0, 1, 2})
        if (!aclnn_cpu::ReducesTo(row, reduction)) reductions.push_back(reduction);
    return reductions;
}

// A mean where it keeps out's shape (a gradient's), else none.
int64_t MeanIfElementwise(const OperatorDescription& row) {
    for (int64_t reduction : ElementwiseReductions(row))
        if (reduction == 1) return 1;
    return 0;
}

// Fills an input with values of its domain.
auto DomainFill(const OperatorDescription& row, int k) {
    const aclnn_cpu::ValueDomain domain = row.inputs[k].domain;
    return [domain](std::mt19937_64& rng) { return DomainValue(domain, rng); };
}

// Whether self must have the whole broadcast shape: an input is tied to its shape, or out takes self's shape
// (a gradient summed back to self).
bool SelfHasTheWholeShape(const OperatorDescription& row) {
    return aclnn_cpu::ShapeTiedToSelf(row) || row.result == aclnn_cpu::ResultRule::kGradientOfSelf;
}

// Input k's dims in a call whose broadcast shape is `whole`, which input `full` has: so do self where it must
// and the inputs of self's exact shape; an incoming gradient takes `gradient`, the other inputs `part` (each
// broadcasting to `whole`).
std::vector<int64_t> DimsOf(const OperatorDescription& row, int k, int full, const std::vector<int64_t>& whole,
                            const std::vector<int64_t>& part, const std::vector<int64_t>& gradient) {
    if (k == full || (k == row.self_input && SelfHasTheWholeShape(row)) ||
        row.inputs[k].shape == aclnn_cpu::InputShape::kSameAsSelf)
        return whole;
    return aclnn_cpu::RoleOf(row, k) == InputRole::kIncomingGradient ? gradient : part;
}

std::vector<const aclTensor*> TensorsOf(const std::vector<std::unique_ptr<DeviceTensor>>& inputs) {
    std::vector<const aclTensor*> tensors;
    for (const auto& input : inputs) tensors.push_back(input->tensor());
    return tensors;
}

std::vector<const DeviceTensor*> PointersOf(const std::vector<std::unique_ptr<DeviceTensor>>& inputs) {
    std::vector<const DeviceTensor*> pointers;
    for (const auto& input : inputs) pointers.push_back(input.get());
    return pointers;
}

class Layouts : public ::testing::TestWithParam<int> {
protected:
    const OperatorDescription& row() const { return aclnn_cpu::kOperators[GetParam()]; }
};

// out is the very same view as an input (same shape, dtype and strides: what an operator takes in place):
// computed in place, without workspace, under each reduction that keeps out's shape. Every input here has out's
// shape and dtype, so each one is tried.
TEST_P(Layouts, InPlaceOnEachInput) {
    const OperatorDescription& r = row();
    for (const int64_t reduction : ElementwiseReductions(r)) {
        const std::vector<double> parameters = Parameters(r, reduction);
        for (int which = 0; which < r.input_count; ++which) {
            SCOPED_TRACE("reduction " + std::to_string(reduction) + ", in place on " + r.inputs[which].name);
            std::mt19937_64 rng(30 + which);
            TensorSpec spec = Dense({5, 7}, ACL_FLOAT16);
            spec.strides = {1, 5};  // transposed, to show the identity check is by view, not by contiguity
            std::vector<std::unique_ptr<DeviceTensor>> inputs;
            for (int k = 0; k < r.input_count; ++k)
                inputs.push_back(std::make_unique<DeviceTensor>(spec, rng, DomainFill(r, k)));
            const DeviceTensor& target = *inputs[static_cast<size_t>(which)];
            aclTensor* out = aclCreateTensor(spec.dims.data(), 2, spec.type, spec.strides.data(), 0, ACL_FORMAT_ND,
                                             spec.dims.data(), 2, target.device());
            uint64_t workspace_size = 99;
            ASSERT_EQ(RunRow(r, TensorsOf(inputs), parameters, out, nullptr, &workspace_size), 0)
                << aclGetRecentErrMsg();
            EXPECT_EQ(workspace_size, 0u) << "in place needs no workspace";
            // The reference reads the inputs' mirrors, which still hold the values from before the run.
            const std::string failure = VerifyRowElementwise(RowCallOf(r, parameters, PointersOf(inputs)),
                                                             PointersOf(inputs), target.spec(), target.Download(),
                                                             target.host());
            EXPECT_TRUE(failure.empty()) << failure;
            aclDestroyTensor(out);
        }
    }
}

struct OverlapCase {
    const char* name;
    int64_t out_offset;  // elements into the input's buffer
    std::vector<int64_t> out_strides;
    aclDataType out_type;
};

// out shares an input's buffer in ways other than being the same view: shifted, transposed, a different dtype
// (where the row leaves out's dtype free). Each input has the whole shape in turn, the others broadcast (an
// incoming gradient 0-d). The kernel reads every input it reads before writing out (a staging workspace); an
// input it does not read (shape-only) needs none.
TEST_P(Layouts, OverlappingOutEqualsReadingInputsFirst) {
    const OperatorDescription& r = row();
    const std::vector<OverlapCase> cases = {
        {"shifted by one element", 1, {6, 1}, ACL_FLOAT},
        {"shifted back", 0, {6, 1}, ACL_FLOAT},
        {"transposed over the same bytes", 0, {1, 6}, ACL_FLOAT},
        {"half-width dtype at the same address", 0, {6, 1}, ACL_FLOAT16},
    };
    const std::vector<double> parameters = Parameters(r, 0);
    for (int which = 0; which < r.input_count; ++which) {
        for (const OverlapCase& c : cases) {
            if (c.out_type != ACL_FLOAT && r.out_dtype_input >= 0) continue;  // out's dtype tied to an input's
            SCOPED_TRACE(std::string(c.name) + ", over " + r.inputs[which].name);
            std::mt19937_64 rng(50);
            std::vector<std::unique_ptr<DeviceTensor>> inputs;
            for (int k = 0; k < r.input_count; ++k) {
                TensorSpec spec = Dense(DimsOf(r, k, which, {6, 6}, {6, 1}, {}), ACL_FLOAT);
                if (k == which) spec.offset = c.out_offset == 0 ? 1 : 0;  // it and out start at different elements
                inputs.push_back(std::make_unique<DeviceTensor>(spec, rng, DomainFill(r, k), k == which ? 8 : 0));
            }
            const DeviceTensor& shared = *inputs[static_cast<size_t>(which)];
            const int64_t dims[] = {6, 6};
            aclTensor* out = aclCreateTensor(dims, 2, c.out_type, c.out_strides.data(), c.out_offset,
                                             ACL_FORMAT_ND, dims, 2, shared.device());
            uint64_t workspace_size = 0;
            ASSERT_EQ(RunRow(r, TensorsOf(inputs), parameters, out, nullptr, &workspace_size), 0)
                << aclGetRecentErrMsg();
            if (r.inputs[which].values_read) {
                EXPECT_GT(workspace_size, 0u) << "overlap needs a staging workspace";
            } else {
                EXPECT_EQ(workspace_size, 0u) << "an input never read needs no staging";
            }
            TensorSpec out_spec = Dense({6, 6}, c.out_type);
            out_spec.strides = c.out_strides;
            out_spec.offset = c.out_offset;
            // The input's buffer is out's storage: out's elements must match the reference computed from the
            // values before the run, and every other element of the buffer must keep its bytes.
            const std::string failure = VerifyRowElementwise(RowCallOf(r, parameters, PointersOf(inputs)),
                                                             PointersOf(inputs), out_spec, shared.Download(),
                                                             shared.host());
            EXPECT_TRUE(failure.empty()) << failure;
            aclDestroyTensor(out);
        }
    }
}

// Phase 1 planned no workspace (out apart from the inputs); phase 2 finds out rebound one element into an
// input's buffer and stages internally.
TEST_P(Layouts, RebindingIntoAnOverlapStillReadsInputsFirst) {
    const OperatorDescription& r = row();
    const std::vector<double> parameters = Parameters(r, 0);
    for (int which = 0; which < r.input_count; ++which) {
        SCOPED_TRACE(std::string("into ") + r.inputs[which].name);
        std::mt19937_64 rng(60);
        std::vector<std::unique_ptr<DeviceTensor>> inputs;
        for (int k = 0; k < r.input_count; ++k)
            inputs.push_back(std::make_unique<DeviceTensor>(Dense({8}, ACL_FLOAT), rng, DomainFill(r, k),
                                                            k == which ? 1 : 0));
        DeviceTensor out(Dense({8}, ACL_FLOAT), rng, kValues);
        const DeviceTensor& shared = *inputs[static_cast<size_t>(which)];
        uint64_t size = 1;
        aclOpExecutor* executor = nullptr;
        ASSERT_EQ(r.Phase1(TensorsOf(inputs).data(), parameters.data(), out.tensor(), &size, &executor),
                  0)
            << aclGetRecentErrMsg();
        ASSERT_EQ(size, 0u);
        ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), 0);
        ASSERT_EQ(aclSetOutputTensorAddr(executor, 0, out.tensor(), static_cast<float*>(shared.device()) + 1), 0);
        ASSERT_EQ(r.run(nullptr, 0, executor, nullptr), 0) << aclGetRecentErrMsg();
        ASSERT_EQ(aclrtSynchronizeStream(nullptr), 0);
        TensorSpec out_spec = Dense({8}, ACL_FLOAT);
        out_spec.offset = 1;
        const std::string failure = VerifyRowElementwise(RowCallOf(r, parameters, PointersOf(inputs)),
                                                         PointersOf(inputs), out_spec, shared.Download(),
                                                         shared.host());
        EXPECT_TRUE(failure.empty()) << failure;
        EXPECT_EQ(aclDestroyAclOpExecutor(executor), 0);
    }
}

// Empty broadcast shapes, with out empty too (each reduction that keeps out's shape), in mixed dtypes where the
// row allows them: a 2-D shape of every input, an input [0] that the others ([1]) broadcast to, and a 3-D
// shape with the others broadcasting and a 0-d incoming gradient. They succeed without workspace and write
// nothing.
TEST_P(Layouts, EmptyTensorsSucceedAndWriteNothing) {
    const OperatorDescription& r = row();
    std::mt19937_64 rng(70);
    struct Case {
        int full;
        std::vector<int64_t> whole, part, gradient;
    };
    std::vector<Case> cases = {{r.self_input, {2, 0}, {2, 0}, {2, 0}}};
    // The [0] input: each input whose shape may set the broadcast shape.
    for (int k = 0; k < r.input_count; ++k) {
        const bool sets_the_shape = SelfHasTheWholeShape(r) ? k == r.self_input
                                                            : r.inputs[k].shape == aclnn_cpu::InputShape::kBroadcast;
        if (sets_the_shape) cases.push_back({k, {0}, {1}, {1}});
    }
    cases.push_back({r.self_input, {3, 0, 2}, {2}, {}});
    const aclDataType kMixed[3] = {ACL_FLOAT, ACL_BF16, ACL_FLOAT16};
    for (const int64_t reduction : ElementwiseReductions(r)) {
        const std::vector<double> parameters = Parameters(r, reduction);
        for (const Case& c : cases) {
            std::vector<std::unique_ptr<DeviceTensor>> inputs;
            for (int k = 0; k < r.input_count; ++k) {
                const aclDataType type = r.inputs_share_dtype ? kMixed[0] : kMixed[k % 3];
                inputs.push_back(std::make_unique<DeviceTensor>(
                    Dense(DimsOf(r, k, c.full, c.whole, c.part, c.gradient), type), rng, DomainFill(r, k), 4));
            }
            const aclDataType out_type =
                r.out_dtype_input >= 0 ? inputs[static_cast<size_t>(r.out_dtype_input)]->spec().type : ACL_FLOAT;
            const std::vector<int64_t> out_dims = r.result == aclnn_cpu::ResultRule::kGradientOfSelf
                                                      ? inputs[static_cast<size_t>(r.self_input)]->spec().dims
                                                      : c.whole;
            DeviceTensor out(Dense(out_dims, out_type), rng, kValues, 4);
            SCOPED_TRACE("reduction " + std::to_string(reduction) + ", " + r.inputs[c.full].name + " " +
                         Describe(inputs[static_cast<size_t>(c.full)]->spec()));
            uint64_t workspace_size = 5;
            ASSERT_EQ(RunRow(r, TensorsOf(inputs), parameters, out.tensor(), nullptr, &workspace_size), 0)
                << aclGetRecentErrMsg();
            EXPECT_EQ(workspace_size, 0u);
            EXPECT_EQ(out.Download(), out.host());
        }
    }
    // Empty tensors address no memory, so a null data pointer is fine, and so are strides whose byte
    // counts would not fit in int64 (found by the fuzzer: planning multiplied them anyway).
    const int64_t dims[] = {2, 0};
    const int64_t huge_strides[] = {int64_t{1} << 62, int64_t{3} << 60};
    std::vector<aclTensor*> empty;
    for (int k = 0; k <= r.input_count; ++k)
        empty.push_back(aclCreateTensor(dims, 2, ACL_FLOAT, k % 2 ? huge_strides : nullptr, 0, ACL_FORMAT_ND, dims,
                                        2, nullptr));
    const std::vector<const aclTensor*> empty_inputs(empty.begin(), empty.end() - 1);
    EXPECT_EQ(RunRow(r, empty_inputs, Parameters(r, 0), empty.back()), 0) << aclGetRecentErrMsg();
    for (aclTensor* t : empty) aclDestroyTensor(t);
}

// A copy of dense's values (same shape and dtype) stored with the given strides and offset; the storage
// outside the view holds random values.
std::unique_ptr<DeviceTensor> Relaid(const DeviceTensor& dense, const std::vector<int64_t>& strides,
                                     int64_t offset, std::mt19937_64& rng) {
    TensorSpec spec = Dense(dense.spec().dims, dense.spec().type);
    spec.strides = strides;
    spec.offset = offset;
    auto t = std::make_unique<DeviceTensor>(spec, rng, kValues);
    ForEachIndex(spec.dims, [&](const std::vector<int64_t>& index) {
        t->SetStorage(t->StorageIndex(index), dense.HostValue(dense.StorageIndex(index)));
    });
    t->Upload();
    return t;
}

// The dtypes of a call's operands by role: the incoming gradient, self, the other inputs (targets, weights), out.
struct LayoutTypes {
    aclDataType grad, self, target, out;
};

// The dtypes of input k and of out (at input_count) for the row, from types by role, then the row's ties:
// inputs of one dtype (self's), out of one input's.
aclDataType TypeOf(const OperatorDescription& row, int k, const LayoutTypes& types) {
    if (k == row.input_count && row.out_dtype_input >= 0) return TypeOf(row, row.out_dtype_input, types);
    if (k == row.input_count) return types.out;
    if (row.inputs_share_dtype) k = row.self_input;
    switch (aclnn_cpu::RoleOf(row, k)) {
        case InputRole::kIncomingGradient: return types.grad;
        case InputRole::kSelf: return types.self;
        default: return types.target;
    }
}

const LayoutTypes kLayoutTypes[] = {
    {ACL_BF16, ACL_FLOAT, ACL_FLOAT16, ACL_FLOAT},       {ACL_FLOAT16, ACL_BF16, ACL_FLOAT, ACL_BF16},
    {ACL_FLOAT, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16},  {ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT},
    {ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16}, {ACL_BF16, ACL_BF16, ACL_BF16, ACL_FLOAT16},
    {ACL_BF16, ACL_BF16, ACL_BF16, ACL_BF16},            {ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT}};

// The same values in different layouts give bit-identical results: contiguous operands take the kernels'
// fused path (all-BFLOAT16 in even/odd pairs; mixed dtypes each loaded in its own), transposed ones the blocked
// path. 47 columns end in a partial vector on every target. Each row with each dtype mix it allows
// (RowsAndTheirTypes).
class LayoutIndependence : public ::testing::TestWithParam<std::tuple<int, int>> {};

TEST_P(LayoutIndependence, ResultsDoNotDependOnLayout) {
    const OperatorDescription& r = aclnn_cpu::kOperators[std::get<0>(GetParam())];
    const LayoutTypes types = kLayoutTypes[std::get<1>(GetParam())];
    const std::vector<double> parameters = Parameters(r, MeanIfElementwise(r));
    std::mt19937_64 rng(80);
    const std::vector<int64_t> shape = {33, 47};
    std::vector<std::unique_ptr<DeviceTensor>> inputs;
    for (int k = 0; k < r.input_count; ++k)
        inputs.push_back(std::make_unique<DeviceTensor>(Dense(shape, TypeOf(r, k, types)), rng, DomainFill(r, k)));
    DeviceTensor out(Dense(shape, TypeOf(r, r.input_count, types)), rng, kValues);
    ASSERT_EQ(RunRow(r, TensorsOf(inputs), parameters, out.tensor()), 0) << aclGetRecentErrMsg();

    // The same values, stored transposed with padding, written to a transposed out.
    auto transposed = [&](const DeviceTensor& dense) { return Relaid(dense, {1, 40}, 2, rng); };
    std::vector<std::unique_ptr<DeviceTensor>> inputs2;
    for (const auto& input : inputs) inputs2.push_back(transposed(*input));
    auto out2 = transposed(out);
    ASSERT_EQ(RunRow(r, TensorsOf(inputs2), parameters, out2->tensor()), 0) << aclGetRecentErrMsg();
    const std::vector<uint8_t> a = out.Download(), b = out2->Download();
    const int64_t size = ElementSize(out.spec().type);
    ForEachIndex(shape, [&](const std::vector<int64_t>& index) {
        ASSERT_EQ(std::memcmp(a.data() + size * out.StorageIndex(index), b.data() + size * out2->StorageIndex(index),
                              static_cast<size_t>(size)),
                  0);
    });
}

std::string RowName(const ::testing::TestParamInfo<int>& info) { return aclnn_cpu::kOperators[info.param].name; }

std::string RowAndTypesName(const ::testing::TestParamInfo<std::tuple<int, int>>& info) {
    return std::string(aclnn_cpu::kOperators[std::get<0>(info.param)].name) + "_types" +
           std::to_string(std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(Table, Layouts, ::testing::ValuesIn(test_support::GenericRows()), RowName);
// Each row with each of kLayoutTypes whose dtypes, after the row's ties, no earlier one gives it.
std::vector<std::tuple<int, int>> RowsAndTheirTypes() {
    std::vector<std::tuple<int, int>> instances;
    for (int i = 0; i < aclnn_cpu::kOperatorCount; ++i) {
        const OperatorDescription& row = aclnn_cpu::kOperators[i];
        if (!test_support::HasGenericCalls(row)) continue;
        std::vector<std::vector<aclDataType>> seen;
        for (int t = 0; t < static_cast<int>(std::size(kLayoutTypes)); ++t) {
            std::vector<aclDataType> types;
            for (int k = 0; k <= row.input_count; ++k) types.push_back(TypeOf(row, k, kLayoutTypes[t]));
            if (std::find(seen.begin(), seen.end(), types) != seen.end()) continue;
            seen.push_back(types);
            instances.emplace_back(i, t);
        }
    }
    return instances;
}

INSTANTIATE_TEST_SUITE_P(Table, LayoutIndependence, ::testing::ValuesIn(RowsAndTheirTypes()), RowAndTypesName);

// The row the engine's cases run on: the first gradient row whose three inputs -- an incoming gradient, self and
// a target -- all broadcast freely, are read, and may differ in dtype, with out's dtype free: any of its operands
// may then be transposed, constant along rows or broadcast over them, in any mix of dtypes. The engine's paths
// do not depend on the functor, so one row serves (each row's functor meets them in the layouts above).
int EngineRow() {
    for (int i = 0; i < aclnn_cpu::kOperatorCount; ++i) {
        const OperatorDescription& row = aclnn_cpu::kOperators[i];
        if (!aclnn_cpu::IsGradient(row) || row.input_count != 3 || row.inputs_share_dtype || row.out_dtype_input >= 0)
            continue;
        bool all_free = true;
        int targets = 0;
        for (int k = 0; k < row.input_count; ++k) {
            all_free = all_free && row.inputs[k].shape == aclnn_cpu::InputShape::kBroadcast &&
                       row.inputs[k].values_read && !row.inputs[k].optional;
            targets += aclnn_cpu::RoleOf(row, k) == InputRole::kTarget ? 1 : 0;
        }
        if (all_free && targets == 1 && aclnn_cpu::IncomingGradientInput(row) >= 0) return i;
    }
    return -1;
}

// The engine row's three operands by role, and its call: the inputs in the row's order.
struct EngineOperands {
    int grad, self, target;
};

EngineOperands Roles(const OperatorDescription& row) {
    EngineOperands roles{aclnn_cpu::IncomingGradientInput(row), row.self_input, -1};
    for (int k = 0; k < row.input_count; ++k)
        if (aclnn_cpu::RoleOf(row, k) == InputRole::kTarget) roles.target = k;
    return roles;
}

// Runs the engine row (reduction none) on grad, self and target, in the row's order.
aclnnStatus RunEngineRow(const OperatorDescription& row, const DeviceTensor& grad, const DeviceTensor& self,
                         const DeviceTensor& target, const DeviceTensor& out) {
    const EngineOperands roles = Roles(row);
    std::vector<const aclTensor*> inputs(3);
    inputs[static_cast<size_t>(roles.grad)] = grad.tensor();
    inputs[static_cast<size_t>(roles.self)] = self.tensor();
    inputs[static_cast<size_t>(roles.target)] = target.tensor();
    return RunRow(row, inputs, Parameters(row, 0), out.tensor());
}

class EngineRows : public ::testing::TestWithParam<int> {
protected:
    const OperatorDescription& row() const { return aclnn_cpu::kOperators[GetParam()]; }
};

TEST(EngineRowChoice, SomeRowHasTheProperty) { EXPECT_GE(EngineRow(), 0); }

// Operands that jump more than a cache line between neighbours in a row: with one input dtype and the other
// operands along rows, bands of 128 whole rows whose transposed operands are transposed into a buffer first;
// otherwise (mixed dtypes, every other row) blocks of 32 rows x 128 columns, the transposed operand
// transposed in L1 and the others gathered a row at a time. Partial bands and blocks at both edges (262 =
// 2 x 128 + 6 = 8 x 32 + 6 rows, 300 = 2 x 128 + 44 columns, 44 not a whole vector) and thread splits that
// start and end inside rows must give the contiguous layout's bits.
class TransposedBlocks : public ::testing::TestWithParam<std::tuple<int, LayoutTypes>> {};

TEST_P(TransposedBlocks, SameBitsAsContiguous) {
    const OperatorDescription& r = aclnn_cpu::kOperators[std::get<0>(GetParam())];
    const LayoutTypes types = std::get<1>(GetParam());
    std::mt19937_64 rng(81);
    const int64_t rows = 262, columns = 300;
    const std::vector<int64_t> shape = {rows, columns};
    DeviceTensor grad(Dense(shape, types.grad), rng, kValues);
    DeviceTensor self(Dense(shape, types.self), rng, kValues);
    DeviceTensor target(Dense(shape, types.target), rng, kValues);
    DeviceTensor out(Dense(shape, types.out), rng, kValues);
    ASSERT_EQ(RunEngineRow(r, grad, self, target, out), 0) << aclGetRecentErrMsg();
    const EngineOperands roles = Roles(r);
    std::vector<const DeviceTensor*> inputs(3);
    inputs[static_cast<size_t>(roles.grad)] = &grad;
    inputs[static_cast<size_t>(roles.self)] = &self;
    inputs[static_cast<size_t>(roles.target)] = &target;
    const std::string failure = VerifyRowElementwise(RowCallOf(r, Parameters(r, 0), inputs), inputs, out.spec(),
                                                     out.Download(), out.host());
    ASSERT_TRUE(failure.empty()) << failure;
    const std::vector<uint8_t> expected = out.Download();

    struct Case {
        const char* name;
        std::vector<int64_t> self_strides, target_strides;
        int64_t offset;
    };
    const Case cases[] = {
        {"self transposed", {1, rows}, {columns, 1}, 0},
        {"self transposed with padding, offset", {1, rows + 3}, {columns, 1}, 5},
        {"self and target transposed", {1, rows}, {1, rows + 1}, 1},
        {"self transposed, every other row", {2, 2 * rows + 1}, {columns, 1}, 0},
    };
    for (const Case& c : cases) {
        auto self2 = Relaid(self, c.self_strides, c.offset, rng);
        auto target2 = Relaid(target, c.target_strides, c.offset, rng);
        for (const char* threads : {"1", "2", "3"}) {
            SCOPED_TRACE(std::string(c.name) + ", threads " + threads);
            setenv("ACLNN_CPU_NUM_THREADS", threads, 1);
            DeviceTensor out2(Dense(shape, types.out), rng, kValues);
            ASSERT_EQ(RunEngineRow(r, grad, *self2, *target2, out2), 0) << aclGetRecentErrMsg();
            EXPECT_EQ(out2.Download(), expected);
        }
        unsetenv("ACLNN_CPU_NUM_THREADS");
    }
}

std::string EngineRowAndTypesName(const ::testing::TestParamInfo<std::tuple<int, LayoutTypes>>& info) {
    return std::string(aclnn_cpu::kOperators[std::get<0>(info.param)].name) + "_" + std::to_string(info.index);
}

// The engine row as a list of instances: empty only where no row has the property, which
// SomeRowHasTheProperty reports.
std::vector<int> EngineRowList() {
    const int row = EngineRow();
    return row >= 0 ? std::vector<int>{row} : std::vector<int>{};
}

INSTANTIATE_TEST_SUITE_P(Engine, TransposedBlocks,
                         ::testing::Combine(::testing::ValuesIn(EngineRowList()),
                                            ::testing::Values(LayoutTypes{ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT},
                                                              LayoutTypes{ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16,
                                                                          ACL_FLOAT16},
                                                              LayoutTypes{ACL_BF16, ACL_BF16, ACL_BF16, ACL_BF16},
                                                              LayoutTypes{ACL_BF16, ACL_FLOAT, ACL_FLOAT16,
                                                                          ACL_FLOAT16})),
                         EngineRowAndTypesName);

// When every operand not transposed is contiguous or constant along rows and all inputs share a dtype, the
// bands' rows go through the fused row kernel. An incoming gradient constant along rows ([rows, 1]), a target
// broadcast over the rows ([columns]) and an out of 16 MiB or more (streaming stores) must give the contiguous
// layout's bits too; 4102 columns end 6 past a multiple of 4, which the transpose finishes element by element.
// Two threads (TransposedBlocks covers one and three).
TEST_P(EngineRows, RowConstantGradientAndStreamedOut) {
    const OperatorDescription& r = row();
    std::mt19937_64 rng(82);
    const int64_t rows = 1030, columns = 4102;  // 4.2M fp32 results, 16.9 MB
    DeviceTensor grad(Dense({rows, 1}, ACL_FLOAT), rng, kValues);
    DeviceTensor self(Dense({rows, columns}, ACL_FLOAT), rng, kValues);
    DeviceTensor target(Dense({columns}, ACL_FLOAT), rng, kValues);
    DeviceTensor out(Dense({rows, columns}, ACL_FLOAT), rng, kMinusOne);
    setenv("ACLNN_CPU_NUM_THREADS", "2", 1);
    ASSERT_EQ(RunEngineRow(r, grad, self, target, out), 0) << aclGetRecentErrMsg();
    TensorSpec transposed = Dense({rows, columns}, ACL_FLOAT);
    transposed.strides = {1, rows};
    DeviceTensor self2(transposed, rng, kMinusOne);
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < columns; ++j) self2.SetStorage(j * rows + i, self.HostValue(i * columns + j));
    self2.Upload();
    DeviceTensor out2(Dense({rows, columns}, ACL_FLOAT), rng, kMinusOne);
    ASSERT_EQ(RunEngineRow(r, grad, self2, target, out2), 0) << aclGetRecentErrMsg();
    unsetenv("ACLNN_CPU_NUM_THREADS");
    EXPECT_EQ(out2.Download(), out.Download());
}

// A band must hold at least 16 whole rows of the transposed operands in about 4 MiB: rows of 70,000 fp32
// elements do not fit, and go through the blocks instead, with the same bits.
TEST_P(EngineRows, RowsTooLongForABandTakeTheBlocks) {
    const OperatorDescription& r = row();
    std::mt19937_64 rng(83);
    const int64_t rows = 20, columns = 70000;
    DeviceTensor grad(Dense({rows, columns}, ACL_FLOAT), rng, kValues);
    DeviceTensor self(Dense({rows, columns}, ACL_FLOAT), rng, kValues);
    DeviceTensor target(Dense({rows, columns}, ACL_FLOAT), rng, kValues);
    DeviceTensor out(Dense({rows, columns}, ACL_FLOAT), rng, kMinusOne);
    ASSERT_EQ(RunEngineRow(r, grad, self, target, out), 0) << aclGetRecentErrMsg();
    auto self2 = Relaid(self, {1, rows}, 0, rng);
    DeviceTensor out2(Dense({rows, columns}, ACL_FLOAT), rng, kMinusOne);
    ASSERT_EQ(RunEngineRow(r, grad, *self2, target, out2), 0) << aclGetRecentErrMsg();
    EXPECT_EQ(out2.Download(), out.Download());
}

// Outputs of 16 MiB and more are written with streaming stores, which need aligned addresses: an out starting
// anywhere (here 1, 16 and 24 elements into its block) must give the same bits as an aligned one and leave
// the elements before it alone.
// The set-up fills some 50M elements: the inputs take values in [-8, 8) from a 32-bit linear congruential
// step rather than the Mersenne twister, and the outs a constant that every run overwrites. Emulated (qemu,
// QEMU_CPU set, as scripts/run_tests_aarch64.sh does) or under ThreadSanitizer each 16 MiB run costs seconds
// per target -- the instrumented operator, not the set-up, made this test most of the TSan suite's time --
// so there only the most misaligned offset is tried, and each run (the suite runs once per SIMD target) takes
// one dtype in turn: every target still writes a large misaligned out and the dtypes still meet the targets'
// code, at a third of the cost. The other builds try all three offsets and dtypes on every target.
TEST_P(EngineRows, LargeOutputsAtAnyAlignment) {
    const OperatorDescription& r = row();
    static int run_index = 0;  // which run of the suite this is: the suite repeats once per target
    const int this_run = run_index++;
    const bool slow_runs = kThreadSanitizer || std::getenv("QEMU_CPU") != nullptr;
    const std::vector<int64_t> offsets = slow_runs ? std::vector<int64_t>{1} : std::vector<int64_t>{1, 16, 24};
    const std::vector<aclDataType> all_types = {ACL_FLOAT, ACL_BF16, ACL_FLOAT16};
    const std::vector<aclDataType> types =
        slow_runs ? std::vector<aclDataType>{all_types[static_cast<size_t>(this_run) % all_types.size()]} : all_types;
    for (aclDataType type : types) {
        SCOPED_TRACE(type);
        std::mt19937_64 rng(95);
        auto cheap_values = [state = uint32_t{95}](std::mt19937_64&) mutable {
            state = state * 1664525u + 1013904223u;
            return static_cast<double>(state >> 8) * (16.0 / 16777216.0) - 8.0;
        };
        const int64_t n = (int64_t{16} << 20) / ElementSize(type) + 77;
        DeviceTensor grad(Dense({n}, type), rng, cheap_values);
        DeviceTensor self(Dense({n}, type), rng, cheap_values);
        DeviceTensor target(Dense({n}, type), rng, cheap_values);
        DeviceTensor aligned(Dense({n}, type), rng, kMinusOne);
        ASSERT_EQ(RunEngineRow(r, grad, self, target, aligned), 0) << aclGetRecentErrMsg();
        const std::vector<uint8_t> expected = aligned.Download();
        for (int64_t offset : offsets) {
            TensorSpec spec = Dense({n}, type);
            spec.offset = offset;
            DeviceTensor out(spec, rng, kMinusOne);
            ASSERT_EQ(RunEngineRow(r, grad, self, target, out), 0) << aclGetRecentErrMsg();
            const std::vector<uint8_t> got = out.Download();
            const size_t before = static_cast<size_t>(offset * ElementSize(type));
            ASSERT_EQ(std::memcmp(got.data(), out.host().data(), before), 0) << "offset " << offset;
            ASSERT_EQ(std::memcmp(got.data() + before, expected.data(), expected.size()), 0) << "offset " << offset;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Engine, EngineRows, ::testing::ValuesIn(EngineRowList()), RowName);

}  // namespace
