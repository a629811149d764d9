// Memory layouts of aclnnSoftMarginLossBackward: storage outside out's view is never touched, in-place use,
// out overlapping an input in other ways (the result equals reading all inputs first), empty tensors, and
// determinism across layouts, thread counts and runs.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_soft_margin_loss_backward.h"
#include "random_cases.h"
#include "reference.h"
#include "sanitizers.h"
#include "operator_harness.h"

namespace {

using namespace test_support;

const Uniform kValues{6.0};
// Storage that every run overwrites starts as -1 rather than random values: cheaper under qemu and the
// sanitizers, where the large tests' set-up can cost more than the operator.
const auto kMinusOne = [](std::mt19937_64&) { return -1.0; };

// out is the very same view as one input: computed in place, without workspace.
TEST(Layouts, InPlaceOnEachInput) {
    for (int which = 0; which < 3; ++which) {
        std::mt19937_64 rng(30 + which);
        TensorSpec spec = Dense({5, 7}, ACL_FLOAT16);
        spec.strides = {1, 5};  // transposed, to show the identity check is by view, not by contiguity
        DeviceTensor grad(spec, rng, kValues), self(spec, rng, kValues), target(spec, rng, kValues);
        DeviceTensor* inputs[3] = {&grad, &self, &target};
        aclTensor* out = aclCreateTensor(spec.dims.data(), 2, spec.type, spec.strides.data(), 0, ACL_FORMAT_ND,
                                         spec.dims.data(), 2, inputs[which]->device());
        uint64_t workspace_size = 99;
        ASSERT_EQ(RunSoftMarginLossBackward(grad.tensor(), self.tensor(), target.tensor(), 1, out, nullptr,
                                            &workspace_size),
                  0);
        EXPECT_EQ(workspace_size, 0u) << "in place needs no workspace";
        // The reference reads the inputs' mirrors, which still hold the values from before the run.
        const std::string failure = VerifyAgainstReference({&grad, &self, &target}, 1, inputs[which]->spec(),
                                                           inputs[which]->Download(), inputs[which]->host());
        EXPECT_TRUE(failure.empty()) << "in place on input " << which << ": " << failure;
        aclDestroyTensor(out);
    }
}

struct OverlapCase {
    const char* name;
    int64_t out_offset;              // elements into self's buffer
    std::vector<int64_t> out_strides;
    aclDataType out_type;
};

// out shares self's buffer in ways other than being the same view: shifted, transposed, a different dtype.
TEST(Layouts, OverlappingOutEqualsReadingInputsFirst) {
    const std::vector<OverlapCase> cases = {
        {"shifted by one element", 1, {6, 1}, ACL_FLOAT},
        {"shifted back", 0, {6, 1}, ACL_FLOAT},
        {"transposed over the same bytes", 0, {1, 6}, ACL_FLOAT},
        {"half-width dtype at the same address", 0, {6, 1}, ACL_FLOAT16},
    };
    for (const OverlapCase& c : cases) {
        std::mt19937_64 rng(50);
        DeviceTensor grad(Dense({}, ACL_FLOAT), rng, kValues);
        TensorSpec self_spec = Dense({6, 6}, ACL_FLOAT);
        self_spec.offset = c.out_offset == 0 ? 1 : 0;  // self and out start at different elements
        DeviceTensor self(self_spec, rng, kValues, 8);
        DeviceTensor target(Dense({6, 1}, ACL_FLOAT), rng, kValues);
        const int64_t dims[] = {6, 6};
        aclTensor* out = aclCreateTensor(dims, 2, c.out_type, c.out_strides.data(), c.out_offset, ACL_FORMAT_ND, dims,
                                         2, self.device());
        uint64_t workspace_size = 0;
        ASSERT_EQ(RunSoftMarginLossBackward(grad.tensor(), self.tensor(), target.tensor(), 0, out, nullptr,
                                            &workspace_size),
                  0)
            << c.name << ": " << aclGetRecentErrMsg();
        EXPECT_GT(workspace_size, 0u) << c.name << ": overlap needs a staging workspace";
        TensorSpec out_spec = Dense({6, 6}, c.out_type);
        out_spec.strides = c.out_strides;
        out_spec.offset = c.out_offset;
        // self's buffer is out's storage: out's elements must match the reference computed from self's values
        // before the run, and every other element of the buffer must keep its bytes.
        const std::string failure =
            VerifyAgainstReference({&grad, &self, &target}, 0, out_spec, self.Download(), self.host());
        EXPECT_TRUE(failure.empty()) << c.name << ": " << failure;
        aclDestroyTensor(out);
    }
}

TEST(Layouts, RebindingIntoAnOverlapStillReadsInputsFirst) {
    std::mt19937_64 rng(60);
    DeviceTensor grad(Dense({8}, ACL_FLOAT), rng, kValues);
    DeviceTensor self(Dense({8}, ACL_FLOAT), rng, kValues, 1);
    DeviceTensor target(Dense({8}, ACL_FLOAT), rng, kValues);
    DeviceTensor out(Dense({8}, ACL_FLOAT), rng, kValues);
    uint64_t size = 1;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnSoftMarginLossBackwardGetWorkspaceSize(grad.tensor(), self.tensor(), target.tensor(), 0,
                                                          out.tensor(), &size, &executor),
              0);
    ASSERT_EQ(size, 0u);
    ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), 0);
    // Point out one element into self: phase 1 planned no workspace, so phase 2 stages internally.
    ASSERT_EQ(aclSetOutputTensorAddr(executor, 0, out.tensor(), static_cast<float*>(self.device()) + 1), 0);
    ASSERT_EQ(aclnnSoftMarginLossBackward(nullptr, 0, executor, nullptr), 0);
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), 0);
    TensorSpec out_spec = Dense({8}, ACL_FLOAT);
    out_spec.offset = 1;
    const std::string failure =
        VerifyAgainstReference({&grad, &self, &target}, 0, out_spec, self.Download(), self.host());
    EXPECT_TRUE(failure.empty()) << failure;
    EXPECT_EQ(aclDestroyAclOpExecutor(executor), 0);
}

TEST(Layouts, EmptyTensorsSucceedAndWriteNothing) {
    std::mt19937_64 rng(70);
    struct Case {
        std::vector<int64_t> grad, self, target;
    };
    for (const Case& c : {Case{{2, 0}, {2, 0}, {2, 0}}, Case{{0}, {1}, {1}}, Case{{}, {3, 0, 2}, {2}}}) {
        DeviceTensor grad(Dense(c.grad, ACL_FLOAT), rng, kValues, 4);
        DeviceTensor self(Dense(c.self, ACL_BF16), rng, kValues, 4);
        DeviceTensor target(Dense(c.target, ACL_FLOAT16), rng, kValues, 4);
        std::vector<int64_t> shape = c.self.size() >= c.grad.size() ? c.self : c.grad;
        if (c.grad == std::vector<int64_t>{0}) shape = {0};
        DeviceTensor out(Dense(shape, ACL_FLOAT), rng, kValues, 4);
        uint64_t workspace_size = 5;
        ASSERT_EQ(RunSoftMarginLossBackward(grad.tensor(), self.tensor(), target.tensor(), 1, out.tensor(), nullptr,
                                            &workspace_size),
                  0)
            << aclGetRecentErrMsg();
        EXPECT_EQ(workspace_size, 0u);
        EXPECT_EQ(out.Download(), out.host());
    }
    // Empty tensors address no memory, so a null data pointer is fine, and so are strides whose byte
    // counts would not fit in int64 (found by the fuzzer: planning multiplied them anyway).
    const int64_t dims[] = {2, 0};
    const int64_t huge_strides[] = {int64_t{1} << 62, int64_t{3} << 60};
    aclTensor* empty[4];
    for (int k = 0; k < 4; ++k) {
        empty[k] = aclCreateTensor(dims, 2, ACL_FLOAT, k % 2 ? huge_strides : nullptr, 0, ACL_FORMAT_ND, dims, 2,
                                   nullptr);
    }
    EXPECT_EQ(RunSoftMarginLossBackward(empty[0], empty[1], empty[2], 0, empty[3]), 0) << aclGetRecentErrMsg();
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

// The same values in different layouts give bit-identical results: contiguous operands take the kernels'
// fused path (all-BFLOAT16 in even/odd pairs; mixed dtypes each loaded in its own), transposed ones the blocked
// path. 47 columns end in a partial vector on every target.
struct LayoutTypes {
    aclDataType grad, self, target, out;
};

class LayoutIndependence : public ::testing::TestWithParam<LayoutTypes> {};

TEST_P(LayoutIndependence, ResultsDoNotDependOnLayout) {
    const LayoutTypes types = GetParam();
    std::mt19937_64 rng(80);
    const std::vector<int64_t> shape = {33, 47};
    DeviceTensor grad(Dense(shape, types.grad), rng, kValues);
    DeviceTensor self(Dense(shape, types.self), rng, kValues);
    DeviceTensor target(Dense(shape, types.target), rng, kValues);
    DeviceTensor out(Dense(shape, types.out), rng, kValues);
    ASSERT_EQ(RunSoftMarginLossBackward(grad.tensor(), self.tensor(), target.tensor(), 1, out.tensor()), 0);

    // The same values, stored transposed with padding, written to a transposed out.
    auto transposed = [&](const DeviceTensor& dense) { return Relaid(dense, {1, 40}, 2, rng); };
    auto grad2 = transposed(grad), self2 = transposed(self), target2 = transposed(target), out2 = transposed(out);
    ASSERT_EQ(RunSoftMarginLossBackward(grad2->tensor(), self2->tensor(), target2->tensor(), 1, out2->tensor()), 0);
    const std::vector<uint8_t> a = out.Download(), b = out2->Download();
    const int64_t size = ElementSize(types.out);
    ForEachIndex(shape, [&](const std::vector<int64_t>& index) {
        ASSERT_EQ(std::memcmp(a.data() + size * out.StorageIndex(index), b.data() + size * out2->StorageIndex(index),
                              static_cast<size_t>(size)),
                  0);
    });
}

INSTANTIATE_TEST_SUITE_P(Dtypes, LayoutIndependence,
                         ::testing::Values(LayoutTypes{ACL_BF16, ACL_FLOAT, ACL_FLOAT16, ACL_FLOAT},
                                           LayoutTypes{ACL_FLOAT16, ACL_BF16, ACL_FLOAT, ACL_BF16},
                                           LayoutTypes{ACL_FLOAT, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16},
                                           LayoutTypes{ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT},
                                           LayoutTypes{ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16},
                                           LayoutTypes{ACL_BF16, ACL_BF16, ACL_BF16, ACL_FLOAT16},
                                           LayoutTypes{ACL_BF16, ACL_BF16, ACL_BF16, ACL_BF16},
                                           LayoutTypes{ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT}));

// Operands that jump more than a cache line between neighbours in a row: with one input dtype and the other
// operands along rows, bands of 128 whole rows whose transposed operands are transposed into a buffer first;
// otherwise (mixed dtypes, every other row) blocks of 32 rows x 128 columns, the transposed operand
// transposed in L1 and the others gathered a row at a time. Partial bands and blocks at both edges (262 =
// 2 x 128 + 6 = 8 x 32 + 6 rows, 300 = 2 x 128 + 44 columns, 44 not a whole vector) and thread splits that
// start and end inside rows must give the contiguous layout's bits.
class TransposedBlocks : public ::testing::TestWithParam<LayoutTypes> {};

TEST_P(TransposedBlocks, SameBitsAsContiguous) {
    const LayoutTypes types = GetParam();
    std::mt19937_64 rng(81);
    const int64_t rows = 262, columns = 300;
    const std::vector<int64_t> shape = {rows, columns};
    DeviceTensor grad(Dense(shape, types.grad), rng, kValues);
    DeviceTensor self(Dense(shape, types.self), rng, kValues);
    DeviceTensor target(Dense(shape, types.target), rng, kValues);
    DeviceTensor out(Dense(shape, types.out), rng, kValues);
    ASSERT_EQ(RunSoftMarginLossBackward(grad.tensor(), self.tensor(), target.tensor(), 0, out.tensor()), 0);
    const std::string failure =
        VerifyAgainstReference({&grad, &self, &target}, 0, out.spec(), out.Download(), out.host());
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
            ASSERT_EQ(RunSoftMarginLossBackward(grad.tensor(), self2->tensor(), target2->tensor(), 0, out2.tensor()), 0);
            EXPECT_EQ(out2.Download(), expected);
        }
        unsetenv("ACLNN_CPU_NUM_THREADS");
    }
}

INSTANTIATE_TEST_SUITE_P(Dtypes, TransposedBlocks,
                         ::testing::Values(LayoutTypes{ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT},
                                           LayoutTypes{ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16},
                                           LayoutTypes{ACL_BF16, ACL_BF16, ACL_BF16, ACL_BF16},
                                           LayoutTypes{ACL_BF16, ACL_FLOAT, ACL_FLOAT16, ACL_FLOAT16}));

// When every operand not transposed is contiguous or constant along rows and all inputs share a dtype, the
// bands' rows go through the fused row kernel. A gradOutput constant along rows ([rows, 1]), a target
// broadcast over the rows ([columns]) and an out of 16 MiB or more (streaming stores) must give the contiguous
// layout's bits too; 4102 columns end 6 past a multiple of 4, which the transpose finishes element by element.
// Two threads (TransposedBlocks covers one and three).
TEST(TransposedFusedRows, RowConstantGradientAndStreamedOut) {
    std::mt19937_64 rng(82);
    const int64_t rows = 1030, columns = 4102;  // 4.2M fp32 results, 16.9 MB
    DeviceTensor grad(Dense({rows, 1}, ACL_FLOAT), rng, kValues);
    DeviceTensor self(Dense({rows, columns}, ACL_FLOAT), rng, kValues);
    DeviceTensor target(Dense({columns}, ACL_FLOAT), rng, kValues);
    DeviceTensor out(Dense({rows, columns}, ACL_FLOAT), rng, kMinusOne);
    setenv("ACLNN_CPU_NUM_THREADS", "2", 1);
    ASSERT_EQ(RunSoftMarginLossBackward(grad.tensor(), self.tensor(), target.tensor(), 0, out.tensor()), 0);
    TensorSpec transposed = Dense({rows, columns}, ACL_FLOAT);
    transposed.strides = {1, rows};
    DeviceTensor self2(transposed, rng, kMinusOne);
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < columns; ++c) self2.SetStorage(c * rows + r, self.HostValue(r * columns + c));
    self2.Upload();
    DeviceTensor out2(Dense({rows, columns}, ACL_FLOAT), rng, kMinusOne);
    ASSERT_EQ(RunSoftMarginLossBackward(grad.tensor(), self2.tensor(), target.tensor(), 0, out2.tensor()), 0);
    unsetenv("ACLNN_CPU_NUM_THREADS");
    EXPECT_EQ(out2.Download(), out.Download());
}

// A band must hold at least 16 whole rows of the transposed operands in about 4 MiB: rows of 70,000 fp32
// elements do not fit, and go through the blocks instead, with the same bits.
TEST(TransposedFusedRows, RowsTooLongForABandTakeTheBlocks) {
    std::mt19937_64 rng(83);
    const int64_t rows = 20, columns = 70000;
    DeviceTensor grad(Dense({rows, columns}, ACL_FLOAT), rng, kValues);
    DeviceTensor self(Dense({rows, columns}, ACL_FLOAT), rng, kValues);
    DeviceTensor target(Dense({rows, columns}, ACL_FLOAT), rng, kValues);
    DeviceTensor out(Dense({rows, columns}, ACL_FLOAT), rng, kMinusOne);
    ASSERT_EQ(RunSoftMarginLossBackward(grad.tensor(), self.tensor(), target.tensor(), 0, out.tensor()), 0);
    auto self2 = Relaid(self, {1, rows}, 0, rng);
    DeviceTensor out2(Dense({rows, columns}, ACL_FLOAT), rng, kMinusOne);
    ASSERT_EQ(RunSoftMarginLossBackward(grad.tensor(), self2->tensor(), target.tensor(), 0, out2.tensor()), 0);
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
TEST(Layouts, LargeOutputsAtAnyAlignment) {
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
        ASSERT_EQ(RunSoftMarginLossBackward(grad.tensor(), self.tensor(), target.tensor(), 0, aligned.tensor()), 0);
        const std::vector<uint8_t> expected = aligned.Download();
        for (int64_t offset : offsets) {
            TensorSpec spec = Dense({n}, type);
            spec.offset = offset;
            DeviceTensor out(spec, rng, kMinusOne);
            ASSERT_EQ(RunSoftMarginLossBackward(grad.tensor(), self.tensor(), target.tensor(), 0, out.tensor()), 0);
            const std::vector<uint8_t> got = out.Download();
            const size_t before = static_cast<size_t>(offset * ElementSize(type));
            ASSERT_EQ(std::memcmp(got.data(), out.host().data(), before), 0) << "offset " << offset;
            ASSERT_EQ(std::memcmp(got.data() + before, expected.data(), expected.size()), 0) << "offset " << offset;
        }
    }
}

}  // namespace
