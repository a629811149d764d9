// Every operator of the table (ops/operator_table.h) against its row's float64 reference, on every SIMD target:
// every dtype combination the row allows, ranks 0 to 8, random broadcasting and transposed, padded,
// stepped, offset and expanded views, every reduction the row takes, random parameters CANN accepts (beta 0 and
// below 1e-6 included), a 0-d incoming gradient; elementwise results within the contract's tolerances (FLOAT 8
// ulp, FLOAT16/BFLOAT16 1 ulp of the promote type), reductions within 10 fp32 ulp of the exact sum of the
// references, storage outside out's view untouched. Then special values (infinities, NaNs, signed zeros,
// subnormals, values past fp32's range when squared), each domain's hard regions, empty inputs, the same bits for
// every layout and every thread count, and for hard labels beside soft ones. One test over the table's rows: a
// new row is tested by being a row.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn/opdev/op_errno.h"
#include "aclnn_cpu/aclnn_cpu.h"
#include "ops/operator_table.h"
#include "operator_harness.h"
#include "random_cases.h"

namespace {

using aclnn_cpu::OperatorDescription;
using aclnn_cpu::ResultRule;
using namespace test_support;

constexpr aclDataType kTypes[3] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

// One call: the row, its parameters, and its tensors (inputs in the row's order, then out).
struct Call {
    const OperatorDescription* row;
    std::vector<double> parameters;
    std::vector<std::unique_ptr<DeviceTensor>> inputs;
    std::unique_ptr<DeviceTensor> out;

    int64_t reduction() const { return aclnn_cpu::ReductionValue(*row, parameters.data()); }
    bool reduced() const { return aclnn_cpu::ReducesTo(*row, reduction()); }

    aclnnStatus Run() {
        std::vector<const aclTensor*> tensors;
        for (const auto& input : inputs) tensors.push_back(input ? input->tensor() : nullptr);
        return RunRow(*row, tensors, parameters, out->tensor());
    }

    std::vector<const DeviceTensor*> Present() const {
        std::vector<const DeviceTensor*> present;
        for (const auto& input : inputs)
            if (input) present.push_back(input.get());
        return present;
    }

    std::vector<int64_t> BroadcastShape() const {
        std::vector<int64_t> shape;
        for (const DeviceTensor* t : Present()) {
            const auto& dims = t->spec().dims;
            const size_t rank = std::max(shape.size(), dims.size());
            std::vector<int64_t> next(rank);
            for (size_t i = 0; i < rank; ++i) {
                const int64_t a = i < shape.size() ? shape[shape.size() - 1 - i] : 1;
                const int64_t b = i < dims.size() ? dims[dims.size() - 1 - i] : 1;
                next[rank - 1 - i] = a == 1 ? b : a;
            }
            shape = std::move(next);
        }
        return shape;
    }

    RowCall ReferenceCall() const {
        std::vector<const DeviceTensor*> given;
        for (const auto& input : inputs) given.push_back(input.get());
        return RowCallOf(*row, parameters, given);
    }

    aclDataType Promote() const {
        std::vector<aclDataType> types;
        for (const DeviceTensor* t : Present()) types.push_back(t->spec().type);
        return PromoteAll(types);
    }
};

// out's dims for the broadcast shape, by the row's rule.
std::vector<int64_t> OutDims(const Call& call, const std::vector<int64_t>& shape) {
    if (call.row->result == ResultRule::kGradientOfSelf) return call.inputs[call.row->self_input]->spec().dims;
    if (!call.reduced()) return shape;
    if (call.row->result == ResultRule::kLoss) return {};
    return shape.empty() ? shape : std::vector<int64_t>(shape.begin() + 1, shape.end());
}

// A parameter value CANN accepts.
double RandomParameter(const aclnn_cpu::ParameterDescription& p, std::mt19937_64& rng) {
    if (p.type == aclnn_cpu::ParameterType::kReduction) return static_cast<double>(rng() % (p.maximum > 2 ? 4 : 3));
    if (p.type == aclnn_cpu::ParameterType::kBool) return static_cast<double>(rng() % 2);
    // dim: the last (valid at any rank); the softmax family's own tests take every dim.
    if (p.type == aclnn_cpu::ParameterType::kInt64 || p.type == aclnn_cpu::ParameterType::kDim) return p.default_value;
    // From the row's range: its lower end, just above it, the default, and values up to a few times the default.
    const double low = std::isfinite(p.minimum) ? p.minimum : -4.0 * std::fabs(p.default_value) - 1.0;
    const double high = std::isfinite(p.maximum) ? p.maximum : 8.0 * std::fabs(p.default_value) + 1.0;
    switch (rng() % 6) {
        case 0: return low;
        case 1: return low + 5e-7;
        case 2: return p.default_value;
        default: return low + (high - low) * static_cast<double>(rng() % 1000) / 1000.0;
    }
}

// Checks the call's out against the references: every element, or the reduction's value(s).
std::string Verify(const Call& call, const std::vector<uint8_t>& out_before) {
    const RowCall reference = call.ReferenceCall();
    const std::vector<const DeviceTensor*> present = call.Present();
    auto element = [&](const std::vector<double>& values) { return RowElementReference(reference, values.data()); };
    const std::vector<int64_t> shape = call.BroadcastShape();
    const std::vector<int64_t> out_dims = OutDims(call, shape);
    const aclDataType out_type = call.out->spec().type;
    // A result summed back to out's shape: each element rounded to the promote type, then summed per out element.
    const bool summed_back = call.reduced() ? call.row->result == ResultRule::kLossOverFirstDim : out_dims != shape;
    if (!call.reduced() && !summed_back) {
        std::vector<aclDataType> types;
        for (const DeviceTensor* t : present) types.push_back(t->spec().type);
        return VerifyElementwise(present, CallReference(reference, present, shape, out_type), call.out->spec(),
                                 call.out->Download(), out_before, nullptr, ComputeType(*call.row, types, out_type));
    }
    const int64_t columns = summed_back ? NumElements(out_dims) : 1;
    const int64_t rows = columns > 0 ? NumElements(shape) / columns : 0;
    const aclDataType promote = call.Promote();
    std::vector<ReducedLossReference> sums(static_cast<size_t>(columns));
    const std::vector<int64_t> out_strides = ContiguousStrides(out_dims);
    std::vector<double> values(present.size());
    ForEachIndex(shape, [&](const std::vector<int64_t>& index) {
        for (size_t k = 0; k < present.size(); ++k)
            values[k] = present[k]->HostValue(present[k]->StorageIndex(BroadcastIndex(index, present[k]->spec().dims)));
        const ReferenceValue term = element(values);
        int64_t column = 0;
        if (summed_back) {
            const std::vector<int64_t> at = BroadcastIndex(index, out_dims);
            for (size_t d = 0; d < at.size(); ++d) column += at[d] * out_strides[d];
        }
        ReducedLossReference& sum = sums[static_cast<size_t>(column)];
        if (summed_back)
            sum.AddRounded(term, promote);
        else
            sum.Add(term);
    });
    if (call.reduced() && summed_back && rows == 0) {  // an empty first dim writes nothing (CANN returns early)
        return call.out->Download() == out_before ? "" : "an empty first dim wrote out";
    }
    const std::vector<uint8_t> storage = call.out->Download();
    const TensorSpec& spec = call.out->spec();
    const std::vector<int64_t> strides = spec.strides.empty() ? ContiguousStrides(spec.dims) : spec.strides;
    std::string failure;
    int64_t column = 0;
    ForEachIndex(spec.dims, [&](const std::vector<int64_t>& index) {
        int64_t at = spec.offset;
        for (size_t d = 0; d < index.size(); ++d) at += index[d] * strides[d];
        const double got = DecodeElement(storage.data() + at * ElementSize(spec.type), spec.type);
        double expected = 0;
        const char* problem =
            sums[static_cast<size_t>(column)].Check(rows, call.reduced() && call.reduction() == 1, promote, spec.type,
                                                    got, &expected);
        if (problem[0] != '\0' && failure.empty())
            failure = std::string(problem) + ": column " + std::to_string(column) + " got " + std::to_string(got) +
                      " expected " + std::to_string(expected);
        ++column;
    });
    return failure;
}

std::string Describe(const Call& call) {
    std::string text = call.row->api_name;
    for (double p : call.parameters) text += " " + std::to_string(p);
    for (const auto& input : call.inputs) text += "\n  input " + (input ? test_support::Describe(input->spec()) : "absent");
    return text + "\n  out " + test_support::Describe(call.out->spec());
}

// Runs the call and checks its out against the references: what failed, or empty.
std::string RunAndVerify(Call& call) {
    const std::vector<uint8_t> before = call.out->host();
    if (call.Run() != 0) return std::string("the call failed: ") + aclGetRecentErrMsg() + "\n";
    return Verify(call, before);
}

constexpr int kTypeDraws = 6;

class Rows : public ::testing::TestWithParam<int> {
protected:
    const OperatorDescription& row() const { return aclnn_cpu::kOperators[GetParam()]; }

    // A random call of the row over `shape`, its inputs' values from fill.
    // forced_types: the inputs' and out's dtypes (as the row allows them), else random.
    template <class Fill>
    Call RandomCall(std::mt19937_64& rng, const std::vector<int64_t>& shape, Fill fill, bool layouts = true,
                    const aclDataType* forced_types = nullptr) {
        const OperatorDescription& r = row();
        Call call;
        call.row = &r;
        for (int p = 0; p < r.parameter_count; ++p) call.parameters.push_back(RandomParameter(r.parameters[p], rng));
        // Six draws whatever the table's widest row (the rows here have at most five inputs and out), so that the
        // cases stay those of earlier runs as the table grows.
        aclDataType types[aclnn_cpu::kMaxOperatorInputs + 1] = {};
        for (int k = 0; k < kTypeDraws; ++k) {
            const aclDataType drawn = kTypes[rng() % 3];
            if (k <= aclnn_cpu::kMaxOperatorInputs) types[k] = drawn;
        }
        for (int k = 0; forced_types != nullptr && k <= r.input_count; ++k) types[k] = forced_types[k];
        if (r.inputs_share_dtype)
            for (int k = 0; k < r.input_count; ++k) types[k] = types[r.self_input];
        if (r.out_dtype_input >= 0) types[r.input_count] = types[r.out_dtype_input];
        // One input (self, or target) has the whole shape; the others broadcast to it, or are expanded views.
        // Where the row ties shapes to self's, self has it, and the inputs of self's shape too.
        const int full = rng() % 2 || aclnn_cpu::ShapeTiedToSelf(r) ? r.self_input : r.input_count - 1;
        LayoutOptions input_options;
        input_options.allow_expand = layouts;
        for (int k = 0; k < r.input_count; ++k) {
            if (r.inputs[k].optional && rng() % 3 == 0) {  // an absent optional input
                call.inputs.push_back(nullptr);
                continue;
            }
            const bool whole = k == full || r.inputs[k].shape == aclnn_cpu::InputShape::kSameAsSelf;
            std::vector<int64_t> dims = whole ? shape : RandomBroadcastableTo(shape, rng);
            const bool gradient = aclnn_cpu::RoleOf(r, k) == aclnn_cpu::InputRole::kIncomingGradient;
            if (gradient && !whole && rng() % 4 == 0) dims = {};  // a 0-d incoming gradient
            const TensorSpec spec = layouts ? RandomLayout(dims, types[k], rng, input_options) : Dense(dims, types[k]);
            const aclnn_cpu::ValueDomain domain = r.inputs[k].domain;
            call.inputs.push_back(std::make_unique<DeviceTensor>(spec, rng, [&](std::mt19937_64& g) {
                return fill(domain, g);
            }));
        }
        const std::vector<int64_t> out_dims = OutDims(call, call.BroadcastShape());
        const TensorSpec out_spec = layouts ? RandomLayout(out_dims, types[r.input_count], rng, LayoutOptions{})
                                            : Dense(out_dims, types[r.input_count]);
        call.out = std::make_unique<DeviceTensor>(out_spec, rng, Uniform{1.0}, 3);
        return call;
    }
};

TEST_P(Rows, RandomCasesAgainstTheReference) {
    std::mt19937_64 rng(1000 + GetParam());
    for (int c = 0; c < 120; ++c) {
        const std::vector<int64_t> shape = RandomShape(static_cast<int>(rng() % 5), 600, rng);
        Call call = RandomCall(rng, shape, [](aclnn_cpu::ValueDomain d, std::mt19937_64& g) { return DomainValue(d, g); });
        const std::string failure = RunAndVerify(call);
        ASSERT_TRUE(failure.empty()) << failure << Describe(call);
    }
}

// Every combination of FLOAT, FLOAT16 and BFLOAT16 over the inputs and out that the row allows (one dtype
// for all where CANN ties them), each in random cases of every reduction the row takes.
TEST_P(Rows, EveryDtypeCombination) {
    const OperatorDescription& r = row();
    std::mt19937_64 rng(8000 + GetParam());
    const int operands = r.input_count + 1;
    int combinations = 1;
    for (int k = 0; k < operands; ++k) combinations *= 3;
    for (int combination = 0; combination < combinations; ++combination) {
        aclDataType types[aclnn_cpu::kMaxOperatorInputs + 1];
        for (int k = 0, code = combination; k < operands; ++k, code /= 3) types[k] = kTypes[code % 3];
        bool allowed = true;  // the row's ties: inputs of one dtype, out of one input's
        for (int k = 0; k < r.input_count && r.inputs_share_dtype; ++k) allowed = allowed && types[k] == types[0];
        if (r.out_dtype_input >= 0) allowed = allowed && types[r.input_count] == types[r.out_dtype_input];
        if (!allowed) continue;
        for (int c = 0; c < 2; ++c) {
            const std::vector<int64_t> shape = RandomShape(static_cast<int>(rng() % 4), 200, rng);
            Call call = RandomCall(rng, shape, DomainValue, true, types);
            const std::string failure = RunAndVerify(call);
            ASSERT_TRUE(failure.empty()) << failure << Describe(call);
        }
    }
}

// Broadcast shapes of every rank CANN takes, 0 to 8.
TEST_P(Rows, EveryRankUpToEight) {
    std::mt19937_64 rng(9000 + GetParam());
    for (int rank = 0; rank <= 8; ++rank) {
        for (int c = 0; c < 4; ++c) {
            const std::vector<int64_t> shape = RandomShape(rank, 300, rng);
            Call call = RandomCall(rng, shape, DomainValue);
            const std::string failure = RunAndVerify(call);
            ASSERT_TRUE(failure.empty()) << failure << Describe(call);
        }
    }
}

// A tensor split across threads (four grains, eight sum chunks), random dtypes, against the reference.
TEST_P(Rows, LargeTensorOnThreads) {
    std::mt19937_64 rng(9500 + GetParam());
    Call call = RandomCall(rng, {131, 1031}, DomainValue, false);
    const std::string failure = RunAndVerify(call);
    ASSERT_TRUE(failure.empty()) << failure << Describe(call);
}

TEST_P(Rows, SpecialValues) {
    std::mt19937_64 rng(2000 + GetParam());
    const double specials[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1e-40, -1e-40, 2e-45, 65504.0, 1e20, -3e38,
                               3e38, 1.0, -1.0, 0.5, 1e-6};
    for (int c = 0; c < 40; ++c) {
        const std::vector<int64_t> shape = RandomShape(static_cast<int>(rng() % 3) + 1, 300, rng);
        Call call = RandomCall(rng, shape, [&](aclnn_cpu::ValueDomain d, std::mt19937_64& g) {
            return g() % 2 ? specials[g() % 16] : DomainValue(d, g);
        });
        const std::string failure = RunAndVerify(call);
        ASSERT_TRUE(failure.empty()) << failure << Describe(call);
    }
}

// The hard regions of each domain: logits where exp(-|x|) leaves fp32's normal range or overflows (about 87.3,
// 88.7, 103.3) and where log1p(exp(-|x|)) drops below half an ulp of 1 (about 16.6); probabilities at 0 and 1,
// a subnormal or an ulp away from them; zero and subnormal weights and targets.
double HardValue(aclnn_cpu::ValueDomain domain, std::mt19937_64& rng) {
    static const double kLogits[] = {87.3, 88.0, 88.72, 89.0, 100.0, 103.3, 104.0, 16.6, 17.0, 1e-30, 0.0, 1e4};
    static const double kProbabilities[] = {0.0, 1.0, 0x1p-149, 0x1p-126, 0x1p-24, 1.0 - 0x1p-24, 1.0 - 0x1p-23,
                                            1e-30, 0.5, 1.0 - 1e-7, 0x1p-100, 1e-12};
    static const double kWeights[] = {0.0, 0x1p-149, 0x1p-126, 1.0, 2.0, 1e-30, 0.5, 1e30, 3.0, 0.25, 1e-7, 10.0};
    const size_t pick = rng() % 12;
    switch (domain) {
        case aclnn_cpu::ValueDomain::kProbability: return kProbabilities[pick];
        case aclnn_cpu::ValueDomain::kWeight: return kWeights[pick];
        case aclnn_cpu::ValueDomain::kSignLabel: return rng() % 2 ? 1.0 : -1.0;
        default: return rng() % 2 ? kLogits[pick] : -kLogits[pick];
    }
}

TEST_P(Rows, HardRegionsOfEachDomain) {
    std::mt19937_64 rng(2500 + GetParam());
    for (int c = 0; c < 60; ++c) {
        const std::vector<int64_t> shape = RandomShape(static_cast<int>(rng() % 3) + 1, 300, rng);
        Call call = RandomCall(rng, shape, [&](aclnn_cpu::ValueDomain d, std::mt19937_64& g) {
            return g() % 4 ? HardValue(d, g) : DomainValue(d, g);
        });
        const std::string failure = RunAndVerify(call);
        ASSERT_TRUE(failure.empty()) << failure << Describe(call);
    }
}

TEST_P(Rows, EmptyInputs) {
    std::mt19937_64 rng(3000 + GetParam());
    for (const std::vector<int64_t>& shape : {std::vector<int64_t>{0, 3}, std::vector<int64_t>{2, 0},
                                              std::vector<int64_t>{0}}) {
        for (int c = 0; c < 6; ++c) {
            Call call = RandomCall(rng, shape, [](aclnn_cpu::ValueDomain d, std::mt19937_64& g) { return DomainValue(d, g); },
                                   false);
            const std::vector<uint8_t> before = call.out->host();
            ASSERT_EQ(call.Run(), 0) << aclGetRecentErrMsg() << "\n" << Describe(call);
            if (call.reduced() && call.row->result == ResultRule::kLoss) {
                // CANN's fills: NaN for a mean of nothing, 0 for a sum.
                const double got = ReadScalar(*call.out);
                if (call.reduction() == 1) {
                    EXPECT_TRUE(std::isnan(got)) << Describe(call);
                } else {
                    EXPECT_EQ(got, 0.0) << Describe(call);
                    EXPECT_FALSE(std::signbit(got)) << "the sum of nothing is +0\n" << Describe(call);
                }
            } else if (NumElements(call.out->spec().dims) > 0) {  // summed back from nothing: zeros
                const std::string failure = Verify(call, before);
                EXPECT_TRUE(failure.empty()) << failure << Describe(call);
            } else {
                EXPECT_EQ(call.out->Download(), before) << "an empty call wrote out\n" << Describe(call);
            }
        }
    }
}

// The same values in contiguous and strided layouts, on 1 and 3 threads: the same bits.
TEST_P(Rows, SameBitsForEveryLayoutAndThreadCount) {
    std::mt19937_64 rng(4000 + GetParam());
    for (int c = 0; c < 10; ++c) {
        const std::vector<int64_t> shape = {static_cast<int64_t>(rng() % 40 + 30), static_cast<int64_t>(rng() % 900 + 100)};
        const uint64_t seed = rng();
        auto fill = [](aclnn_cpu::ValueDomain d, std::mt19937_64& g) { return DomainValue(d, g); };
        std::mt19937_64 first(seed), second(seed);
        Call dense = RandomCall(first, shape, fill, false);
        std::vector<std::vector<uint8_t>> results;
        for (int threads : {1, 3}) {
            aclnnCpuSetThreadCount(threads);
            ASSERT_EQ(dense.Run(), 0) << aclGetRecentErrMsg();
            results.push_back(dense.out->Download());
        }
        aclnnCpuSetThreadCount(0);
        EXPECT_EQ(results[0], results[1]) << "1 and 3 threads differ\n" << Describe(dense);
        // The same values in transposed storage: copy each input into a column-major view of the same dims.
        Call strided = RandomCall(second, shape, fill, false);
        for (size_t k = 0; k < dense.inputs.size(); ++k) {
            if (!dense.inputs[k]) continue;  // an absent optional input (absent in both calls: the same seed)
            const TensorSpec& spec = dense.inputs[k]->spec();
            if (spec.dims.size() != 2) continue;
            TensorSpec transposed = spec;
            transposed.strides = {1, spec.dims[0]};
            auto copy = std::make_unique<DeviceTensor>(transposed, second, Uniform{1.0});
            ForEachIndex(spec.dims, [&](const std::vector<int64_t>& index) {
                copy->SetStorage(copy->StorageIndex(index), dense.inputs[k]->HostValue(dense.inputs[k]->StorageIndex(index)));
            });
            copy->Upload();
            strided.inputs[k] = std::move(copy);
        }
        ASSERT_EQ(strided.Run(), 0) << aclGetRecentErrMsg();
        EXPECT_EQ(strided.out->Download(), results[0]) << "a transposed layout gives other bits\n" << Describe(dense);
    }
}

// An input of an integer dtype where the row's checks take it (CANN casts it to the promote type of the
// others, a floating type): the same bits as its values given in that floating type, on every path (the
// integer input goes through the blocked one). Where the checks refuse it: 161002 naming its dtype, out
// untouched.
TEST_P(Rows, IntegerInputsAreReadAsTheirValues) {
    std::mt19937_64 rng(6000 + GetParam());
    const OperatorDescription& r = row();
    const aclDataType kIntegerTypes[] = {ACL_INT64, ACL_INT32, ACL_UINT8, ACL_BOOL};
    int accepted = 0;
    for (int c = 0; c < 32; ++c) {
        const std::vector<int64_t> shape = RandomShape(static_cast<int>(rng() % 4), 300, rng);
        const uint64_t seed = rng();
        const int k = static_cast<int>(rng() % static_cast<uint64_t>(r.input_count));
        const aclDataType type = kIntegerTypes[rng() % 4];
        // Small integers, exact in every floating type; within the integer type's range.
        auto fill = [type](aclnn_cpu::ValueDomain d, std::mt19937_64& g) {
            const double v = std::nearbyint(DomainValue(d, g)) + 0.0;  // an integer has no -0
            return type == ACL_BOOL ? (v != 0.0 ? 1.0 : 0.0) : type == ACL_UINT8 ? std::fabs(v) : v;
        };
        std::mt19937_64 first(seed), second(seed);
        Call floating = RandomCall(first, shape, fill);
        Call integer = RandomCall(second, shape, fill);
        if (!integer.inputs[static_cast<size_t>(k)]) continue;  // an absent optional input
        // Input k in the integer type, and in the others' promote type for the floating call; the same values and
        // layout.
        std::vector<aclDataType> others;
        for (size_t j = 0; j < integer.inputs.size(); ++j)
            if (integer.inputs[j] && static_cast<int>(j) != k) others.push_back(integer.inputs[j]->spec().type);
        const DeviceTensor& original = *integer.inputs[static_cast<size_t>(k)];
        auto retyped = [&](aclDataType to) {
            TensorSpec spec = original.spec();
            spec.type = to;
            auto copy = std::make_unique<DeviceTensor>(spec, first, Uniform{1.0});
            const int64_t elements = static_cast<int64_t>(original.host().size()) / ElementSize(original.spec().type);
            for (int64_t i = 0; i < elements && i < static_cast<int64_t>(copy->host().size()) / ElementSize(to); ++i)
                copy->SetStorage(i, original.HostValue(i));
            copy->Upload();
            return copy;
        };
        floating.inputs[static_cast<size_t>(k)] = retyped(others.empty() ? ACL_FLOAT : PromoteAll(others));
        integer.inputs[static_cast<size_t>(k)] = retyped(type);
        const std::vector<uint8_t> before = integer.out->host();
        const aclnnStatus status = integer.Run();
        const std::string what = aclnn_cpu::validation::CannDtypeName(type) + " input " + r.inputs[k].name + "\n" +
                                 Describe(integer);
        if (status != 0) {
            EXPECT_EQ(status, ACLNN_ERR_PARAM_INVALID) << what;
            EXPECT_NE(std::string(aclGetRecentErrMsg()).find(aclnn_cpu::validation::CannDtypeName(type)),
                      std::string::npos) << aclGetRecentErrMsg() << "\n" << what;
            EXPECT_EQ(integer.out->Download(), before) << "a refused call wrote out\n" << what;
            continue;
        }
        ++accepted;
        ASSERT_EQ(floating.Run(), 0) << aclGetRecentErrMsg() << "\n" << Describe(floating);
        EXPECT_EQ(integer.out->Download(), floating.out->Download())
            << "an integer input gives other bits than its values in the promote type\n" << what;
    }
    RecordProperty("accepted", accepted);
}

// The rows with a probability label (aclnn_cpu::IsProbabilityLabel).
std::vector<int> RowsWithLabels() {
    std::vector<int> rows;
    for (int i = 0; i < aclnn_cpu::kOperatorCount; ++i)
        if (aclnn_cpu::TakesProbabilityLabels(aclnn_cpu::kOperators[i])) rows.push_back(i);
    return rows;
}

class LabelRows : public Rows {};

// Hard labels, all 0 or 1 (most training data): where a vector's labels are all hard, binary cross-entropy's
// kernel takes one log where soft labels take two. An element's bits must not depend on the path its vector
// took: the call with every label hard, then again with every 37th label soft (0.5), which sends those
// elements' vectors down the other path; every element whose own label did not change keeps its bits, and both
// calls agree with the reference. Labels of the broadcast shape (dense: label i is element i's).
TEST_P(LabelRows, HardLabelsKeepTheirBitsBesideSoftOnes) {
    const OperatorDescription& r = row();
    std::mt19937_64 rng(5000 + GetParam());
    int cases = 0;
    for (int attempt = 0; attempt < 200 && cases < 12; ++attempt) {
        const std::vector<int64_t> shape = {static_cast<int64_t>(rng() % 20 + 3), static_cast<int64_t>(rng() % 700 + 50)};
        Call call = RandomCall(rng, shape, [](aclnn_cpu::ValueDomain d, std::mt19937_64& g) { return DomainValue(d, g); },
                               false);
        if (aclnn_cpu::ReductionParameter(r) >= 0 && !aclnn_cpu::IsGradient(r)) {  // none: out of the whole shape
            aclnn_cpu::SetReductionValue(r, call.parameters.data(), 0);
            call.out = std::make_unique<DeviceTensor>(Dense(OutDims(call, call.BroadcastShape()), call.out->spec().type),
                                                      rng, Uniform{1.0}, 3);
        }
        std::vector<int> labels;
        for (int k = 0; k < r.input_count; ++k)
            if (call.inputs[k] && aclnn_cpu::IsProbabilityLabel(r, k) && call.inputs[k]->spec().dims == shape) labels.push_back(k);
        if (labels.empty() || call.BroadcastShape() != shape || call.out->spec().dims != shape) continue;
        ++cases;
        for (int k : labels) {
            for (int64_t i = 0; i < NumElements(shape); ++i) call.inputs[k]->SetStorage(i, static_cast<double>(rng() % 2));
            call.inputs[k]->Upload();
        }
        std::vector<uint8_t> before = call.out->host();
        ASSERT_EQ(call.Run(), 0) << aclGetRecentErrMsg() << "\n" << Describe(call);
        std::string failure = Verify(call, before);
        ASSERT_TRUE(failure.empty()) << "hard labels: " << failure << Describe(call);
        const std::vector<uint8_t> hard = call.out->Download();
        // Soft labels at every 37th element: first only in the first quarter (the loops then go back to the
        // hard-label form, kernels/functor_application-inl.h's FormStart), then everywhere.
        for (const int64_t soft_end : {NumElements(shape) / 4, NumElements(shape)}) {
            for (int k : labels) {
                for (int64_t i = 0; i < soft_end; i += 37) call.inputs[k]->SetStorage(i, 0.5);
                call.inputs[k]->Upload();
            }
            before = call.out->host();
            ASSERT_EQ(call.Run(), 0) << aclGetRecentErrMsg() << "\n" << Describe(call);
            failure = Verify(call, before);
            ASSERT_TRUE(failure.empty()) << "some soft labels: " << failure << Describe(call);
            const std::vector<uint8_t> mixed = call.out->Download();
            const size_t element = call.out->spec().type == ACL_FLOAT ? 4 : 2;
            ASSERT_EQ(hard.size(), mixed.size());
            for (size_t i = 0; i < hard.size() / element; ++i) {
                if (i % 37 == 0 && static_cast<int64_t>(i) < soft_end) continue;
                ASSERT_EQ(std::memcmp(&hard[i * element], &mixed[i * element], element), 0)
                    << "element " << i << " changed with its neighbours' labels\n" << Describe(call);
            }
        }
    }
    EXPECT_EQ(cases, 12) << "too few calls had labels of the broadcast shape";
}

std::string RowName(const ::testing::TestParamInfo<int>& info) { return aclnn_cpu::kOperators[info.param].name; }

INSTANTIATE_TEST_SUITE_P(Table, Rows, ::testing::ValuesIn(test_support::GenericRows()), RowName);
INSTANTIATE_TEST_SUITE_P(Table, LabelRows, ::testing::ValuesIn(RowsWithLabels()), RowName);

}  // namespace
