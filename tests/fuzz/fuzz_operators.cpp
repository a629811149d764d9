// libFuzzer harness for every operator of the operator table (ops/operator_table.h; a byte picks the row; an
// operator of n <= 3 inputs takes tensors 3-n..2 as its inputs and tensor 3 as out, one of more inputs tensors
// 0..2 and 4.. as inputs). Random bytes become the tensor descriptions (null tensors -- an absent optional input
// --; ranks 0-10; dims including 0, negatives and values near 2^63; strides including 0, negative and huge;
// offsets; dtypes including numbers that are no dtype; data in a live block, in host memory, null, in a block too
// small, or inside another tensor's block so that out overlaps an input), a reduction (including invalid values),
// the row's other parameters (including values CANN refuses), and random data. Both phases run; the harness traps
// (which the fuzzer reports) when:
//   - a status is not one the operator documents (0, 161001, 161002);
//   - a failed phase 1 wrote *executor, *workspaceSize or any byte of any block;
//   - a successful call's out differs from the float64 reference beyond docs/contract.md section 4's
//     tolerances, or any byte outside out's view changed.
// AddressSanitizer and UndefinedBehaviorSanitizer watch every access. Build: the `fuzz` CMake preset (clang).
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <vector>

#include "acl/acl.h"
#include "ops/operator_table.h"
#include "operator_harness.h"
#include "reference.h"

namespace {

constexpr int64_t kMaxAllocElements = int64_t{1} << 14;  // larger spans get a block too small on purpose
constexpr int64_t kMaxReducedElements = int64_t{1} << 20;  // larger forward sums: phase 1 only

[[noreturn]] void Fail(const char* what) {
    std::fprintf(stderr, "fuzz_operators: %s\n", what);
    __builtin_trap();
}

// One memory region a tensor may point into, with a copy of its bytes before the call.
struct Region {
    char* base = nullptr;
    size_t bytes = 0;
    bool device = false;
    std::vector<char> host_storage;  // backs host regions
    std::vector<char> before;
};

enum class Placement { kOwnBlock, kHost, kNull, kTooSmall, kInsideOther };

struct TensorDescription {
    bool present = true;
    std::vector<int64_t> dims;
    std::vector<int64_t> strides;
    bool contiguous = true;  // strides == NULL at creation
    int64_t offset = 0;
    int32_t dtype = ACL_FLOAT;
    int32_t format = ACL_FORMAT_ND;
    Placement placement = Placement::kOwnBlock;
};

bool ValidType(int32_t dtype) { return dtype == ACL_FLOAT || dtype == ACL_FLOAT16 || dtype == ACL_BF16; }

// The integer dtypes the operators read where their checks take them (promoted, or aclnnL1Loss's int64 path).
bool IntegerType(int32_t dtype) { return test_support::IsIntegerType(static_cast<aclDataType>(dtype)); }

// Bytes per element of the dtypes the harness models (2 for a number that is no dtype).
int64_t ElementBytes(int32_t dtype) {
    switch (dtype) {
        case ACL_FLOAT: case ACL_INT32: return 4;
        case ACL_INT64: return 8;
        case ACL_BOOL: case ACL_UINT8: case ACL_INT8: return 1;
        default: return 2;
    }
}

int64_t PickDim(FuzzedDataProvider& in) {
    switch (in.ConsumeIntegralInRange<int>(0, 9)) {
        case 0: return 0;
        case 1: return 1;
        case 7: return -in.ConsumeIntegralInRange<int64_t>(1, 5);
        case 8: return std::numeric_limits<int64_t>::max() - in.ConsumeIntegralInRange<int64_t>(0, 3);
        case 9: return int64_t{1} << in.ConsumeIntegralInRange<int>(20, 62);
        default: return in.ConsumeIntegralInRange<int64_t>(2, 5);
    }
}

int64_t PickStride(FuzzedDataProvider& in) {
    switch (in.ConsumeIntegralInRange<int>(0, 7)) {
        case 0: return 0;
        case 1: return -in.ConsumeIntegralInRange<int64_t>(1, 8);
        case 2: return std::numeric_limits<int64_t>::max() / in.ConsumeIntegralInRange<int64_t>(1, 4);
        default: return in.ConsumeIntegralInRange<int64_t>(1, 12);
    }
}

TensorDescription Describe(FuzzedDataProvider& in) {
    TensorDescription t;
    t.present = in.ConsumeIntegralInRange<int>(0, 40) != 0;
    const int rank = in.ConsumeIntegralInRange<int>(0, 10);
    for (int d = 0; d < rank; ++d) t.dims.push_back(PickDim(in));
    t.contiguous = in.ConsumeBool();
    if (!t.contiguous)
        for (int d = 0; d < rank; ++d) t.strides.push_back(PickStride(in));
    switch (in.ConsumeIntegralInRange<int>(0, 5)) {
        case 0: t.offset = -in.ConsumeIntegralInRange<int64_t>(1, 3); break;
        case 1: t.offset = std::numeric_limits<int64_t>::max() - in.ConsumeIntegralInRange<int64_t>(0, 3); break;
        case 2: case 3: t.offset = in.ConsumeIntegralInRange<int64_t>(1, 9); break;
        default: t.offset = 0;
    }
    // Enum values outside [-64, 63] would be undefined behaviour in the caller's own code.
    const int type_choice = in.ConsumeIntegralInRange<int>(0, 9);
    t.dtype = type_choice < 3 ? ACL_FLOAT : type_choice < 5 ? ACL_FLOAT16 : type_choice < 7 ? ACL_BF16
                                                                                          : in.ConsumeIntegralInRange<int32_t>(-64, 63);
    t.format = in.ConsumeIntegralInRange<int>(0, 30) == 0 ? ACL_FORMAT_FRACTAL_NZ : ACL_FORMAT_ND;
    t.placement = static_cast<Placement>(in.ConsumeIntegralInRange<int>(0, 9) < 6 ? 0 : in.ConsumeIntegralInRange<int>(1, 4));
    return t;
}

std::vector<int64_t> EffectiveStrides(const TensorDescription& t) {
    if (!t.contiguous) return t.strides;
    std::vector<int64_t> strides(t.dims.size());
    uint64_t running = 1;
    for (size_t d = t.dims.size(); d-- > 0;) {
        strides[d] = static_cast<int64_t>(running);
        running *= static_cast<uint64_t>(t.dims[d]);
    }
    return strides;
}

// Elements from the start of storage to one past the last addressed element, or -1 when it cannot be
// allocated (negative values, overflow, too large).
int64_t Span(const TensorDescription& t) {
    if (t.offset < 0) return -1;
    const std::vector<int64_t> strides = EffectiveStrides(t);
    int64_t count = 1, last = t.offset;
    for (size_t d = 0; d < t.dims.size(); ++d) {
        if (t.dims[d] < 0 || strides[d] < 0) return -1;
        if (__builtin_mul_overflow(count, t.dims[d], &count)) return -1;
    }
    if (count == 0) return t.offset < kMaxAllocElements ? t.offset : -1;
    for (size_t d = 0; d < t.dims.size(); ++d) {
        int64_t step;
        if (__builtin_mul_overflow(t.dims[d] - 1, strides[d], &step) || __builtin_add_overflow(last, step, &last))
            return -1;
    }
    return last < kMaxAllocElements ? last + 1 : -1;
}

void FillRandom(Region& region, int32_t dtype, std::mt19937_64& rng) {
    std::uniform_real_distribution<double> uniform(-8.0, 8.0);
    const double specials[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1e-40, 3e38, 90.0, -90.0, 65504.0};
    const int64_t size = ValidType(dtype) || IntegerType(dtype) ? ElementBytes(dtype) : 1;
    for (size_t at = 0; at + size <= region.bytes; at += size) {
        if (IntegerType(dtype)) {  // small integers, now and then a large one (exact in float64 either way)
            const double v = static_cast<double>(static_cast<int64_t>(rng() % 17) - 8) * (rng() % 16 == 0 ? 1 << 20 : 1);
            test_support::EncodeElement(v, static_cast<aclDataType>(dtype), region.base + at);
            continue;
        }
        if (!ValidType(dtype)) {
            region.base[at] = static_cast<char>(rng());
            continue;
        }
        const double v = rng() % 16 == 0 ? specials[rng() % 10] : uniform(rng);
        test_support::EncodeElement(test_support::RoundToType(v, static_cast<aclDataType>(dtype)),
                                    static_cast<aclDataType>(dtype), region.base + at);
    }
}

constexpr int kSlots = aclnn_cpu::kMaxOperatorInputs + 1;
constexpr int kOutSlot = 3;

// Where input k of an operator of n inputs lives: the last n of slots 0..2 for n <= 3 (so inputs saved before
// operators of more inputs existed decode as they did), slots 0..2 and then 4.. otherwise.
int InputSlot(int n, int k) {
    if (n <= 3) return 3 - n + k;
    return k < 3 ? k : k + 1;
}

struct Fixture {
    std::vector<std::unique_ptr<Region>> regions;
    aclTensor* tensors[kSlots] = {};
    TensorDescription descriptions[kSlots];

    ~Fixture() {
        for (aclTensor* t : tensors) aclDestroyTensor(t);
        for (auto& r : regions)
            if (r->device) aclrtFree(r->base);
    }

    Region* NewRegion(size_t bytes, bool device) {
        auto region = std::make_unique<Region>();
        region->bytes = std::max<size_t>(bytes, 1);
        region->device = device;
        if (device) {
            void* p = nullptr;
            if (aclrtMalloc(&p, region->bytes, ACL_MEM_MALLOC_NORMAL_ONLY) != ACL_SUCCESS) Fail("aclrtMalloc failed");
            region->base = static_cast<char*>(p);
            // CANN's padding (rounded up to 32 bytes, plus 32) is addressable: it is part of the region, so
            // reads from it are checked and writes into it count as writes outside out's view.
            region->bytes = (region->bytes + 31) / 32 * 32 + 32;
        } else {
            region->host_storage.resize(region->bytes);
            region->base = region->host_storage.data();
        }
        regions.push_back(std::move(region));
        return regions.back().get();
    }

    // Which region holds the address, for reading inputs' previous values.
    const Region* Find(const char* address) const {
        for (const auto& r : regions)
            if (address >= r->base && address < r->base + r->bytes) return r.get();
        return nullptr;
    }
};

// The broadcast shape, or false.
bool Broadcast(const std::vector<int64_t>& a, const std::vector<int64_t>& b, std::vector<int64_t>* out) {
    const size_t rank = std::max(a.size(), b.size());
    out->assign(rank, 1);
    for (size_t i = 0; i < rank; ++i) {
        const int64_t da = i < a.size() ? a[a.size() - 1 - i] : 1, db = i < b.size() ? b[b.size() - 1 - i] : 1;
        if (da != db && da != 1 && db != 1) return false;
        (*out)[rank - 1 - i] = da == 1 ? db : da;
    }
    return true;
}

// The broadcast shape of the operator's present inputs, or false.
bool InputShape(const Fixture& f, const aclnn_cpu::OperatorDescription& op, std::vector<int64_t>* shape) {
    shape->clear();
    for (int k = 0; k < op.input_count; ++k) {
        const TensorDescription& t = f.descriptions[InputSlot(op.input_count, k)];
        if (f.tensors[InputSlot(op.input_count, k)] == nullptr) continue;
        std::vector<int64_t> next;
        if (!Broadcast(*shape, t.dims, &next)) return false;
        *shape = std::move(next);
    }
    return true;
}

int64_t Count(const std::vector<int64_t>& dims) {
    int64_t count = 1;
    for (int64_t d : dims)
        if (__builtin_mul_overflow(count, d, &count)) return std::numeric_limits<int64_t>::max();
    return count;
}

bool Reduces(const aclnn_cpu::OperatorDescription& op, int64_t reduction) { return aclnn_cpu::ReducesTo(op, reduction); }

// Checks a successful call's result element by element (a mean or sum: the one value, or each column's, against
// the reference sum) and every byte outside out's view.
void VerifySuccess(const Fixture& f, const aclnn_cpu::OperatorDescription& op, const std::vector<double>& parameters) {
    const int64_t reduction = aclnn_cpu::ReductionValue(op, parameters.data());
    const bool reduced = Reduces(op, reduction);
    // An operator along a dim with an empty input: CANN's op_api may return before checking the others; nothing
    // is computed and no byte may change.
    if (op.iteration == aclnn_cpu::Iteration::kAlongDim) {
        bool empty = false;
        for (int k = 0; k < op.input_count; ++k) {
            const int slot = InputSlot(op.input_count, k);
            if (f.tensors[slot] == nullptr) continue;
            for (int64_t d : f.descriptions[slot].dims) empty = empty || d == 0;
        }
        if (empty) {
            for (const auto& r : f.regions)
                if (std::memcmp(r->base, r->before.data(), r->bytes) != 0) Fail("a call with an empty input wrote");
            return;
        }
    }
    std::vector<int64_t> shape;
    if (!InputShape(f, op, &shape)) Fail("phase 1 accepted shapes that do not broadcast");
    // Values summed back to out's shape, each rounded to the promote type first: a loss over the first dim, a
    // gradient of self's shape where self broadcasts.
    const bool summed_back = reduced ? op.result == aclnn_cpu::ResultRule::kLossOverFirstDim
                                     : f.descriptions[kOutSlot].dims != shape;
    const int64_t n = Count(shape);
    std::vector<int> slots;  // the present inputs' slots, in the operator's order
    std::vector<int> slot_inputs;  // and their inputs' indices in the row
    std::vector<aclDataType> types;
    for (int k = 0; k < op.input_count; ++k) {
        const int slot = InputSlot(op.input_count, k);
        if (f.tensors[slot] == nullptr) continue;
        slots.push_back(slot);
        slot_inputs.push_back(k);
        types.push_back(static_cast<aclDataType>(f.descriptions[slot].dtype));
    }
    void* addresses[kSlots] = {};
    for (int k = 0; k < kSlots; ++k)
        if (f.tensors[k] != nullptr) aclGetRawTensorAddr(f.tensors[k], &addresses[k]);
    const aclDataType promote =
        test_support::ComputeType(op, types, static_cast<aclDataType>(f.descriptions[kOutSlot].dtype));
    test_support::RowCall call;
    call.row = &op;
    call.parameters = parameters;
    call.broadcast_count = n;
    call.self_count = Count(f.descriptions[InputSlot(op.input_count, op.self_input)].dims);
    const int gradient = aclnn_cpu::IncomingGradientInput(op);
    call.gradient_count = gradient >= 0 ? Count(f.descriptions[InputSlot(op.input_count, gradient)].dims) : 0;
    call.first_dim = shape.empty() ? 1 : shape[0];
    call.given_inputs = 0;
    for (int k = 0; k < op.input_count; ++k)
        if (f.tensors[InputSlot(op.input_count, k)] != nullptr) call.given_inputs |= 1u << k;
    std::map<const char*, bool> out_bytes;  // every byte of out's view
    std::vector<int64_t> strides[kSlots];
    for (int k = 0; k < kSlots; ++k) strides[k] = EffectiveStrides(f.descriptions[k]);
    const TensorDescription& o = f.descriptions[kOutSlot];
    const aclDataType out_type = static_cast<aclDataType>(o.dtype);
    // Per out element (one for a full reduction, one per column summed back): the reference sum.
    const int64_t columns = summed_back ? Count(o.dims) : 1;
    const int64_t rows = columns > 0 ? n / columns : 0;
    std::vector<test_support::ReducedLossReference> sums(reduced || summed_back ? static_cast<size_t>(columns) : 0);
    // The present inputs' values at a broadcast index, in the operator's order.
    auto values_at = [&](const std::vector<int64_t>& at_index, std::vector<double>* values) {
        values->clear();
        for (size_t s = 0; s < slots.size(); ++s) {
            const int slot = slots[s];
            const TensorDescription& t = f.descriptions[slot];
            if (!op.inputs[slot_inputs[s]].values_read) {  // a shape-only input: its memory is never touched
                values->push_back(0.0);
                continue;
            }
            int64_t at = t.offset;
            const size_t lead = shape.size() - t.dims.size();
            for (size_t d = 0; d < t.dims.size(); ++d)
                at += (t.dims[d] == 1 ? 0 : at_index[lead + d]) * strides[slot][d];
            const char* address = static_cast<const char*>(addresses[slot]) + at * ElementBytes(t.dtype);
            const Region* region = f.Find(address);
            if (region == nullptr) Fail("an input element lies outside every region");
            double value = test_support::DecodeElement(region->before.data() + (address - region->base),
                                                       static_cast<aclDataType>(t.dtype));
            // An integer input beside floating ones is cast to the promote type first, as CANN's op_api does; an
            // operator computing in out's dtype casts every input to it.
            if ((IntegerType(t.dtype) && !IntegerType(promote)) || op.computes_in_out_dtype)
                value = test_support::RoundToType(value, promote);
            values->push_back(value);
        }
    };
    // An operator along a dim: every row's reference at once.
    std::vector<test_support::ReferenceValue> along_dim;
    if (op.iteration == aclnn_cpu::Iteration::kAlongDim) {
        std::vector<std::vector<double>> columns_of_values(slots.size());
        std::vector<double> at_values;
        std::vector<int64_t> walk(shape.size(), 0);
        for (int64_t linear = 0; linear < n; ++linear) {
            values_at(walk, &at_values);
            for (size_t s = 0; s < slots.size(); ++s) columns_of_values[s].push_back(at_values[s]);
            for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
                if (++walk[static_cast<size_t>(d)] < shape[static_cast<size_t>(d)]) break;
                walk[static_cast<size_t>(d)] = 0;
            }
        }
        along_dim = test_support::AlongDimReferences(call, columns_of_values, shape);
    }
    std::vector<int64_t> index(shape.size(), 0);
    std::vector<double> values;
    for (int64_t linear = 0; linear < n; ++linear) {
        values_at(index, &values);
        auto advance = [&] {
            for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
                if (++index[d] < shape[d]) break;
                index[d] = 0;
            }
        };
        const test_support::ReferenceValue reference =
            along_dim.empty() ? test_support::RowElementReference(call, values.data())
                              : along_dim[static_cast<size_t>(linear)];
        if (reduced || summed_back) {
            // A sum back adds each term rounded to the promote type (CANN's elementwise result first).
            if (summed_back) {
                // out's dims align with S's trailing ones; a summed dim of out has size 1 (index 0).
                int64_t column = 0;
                const size_t lead = shape.size() - o.dims.size();
                for (size_t d = 0; d < o.dims.size(); ++d)
                    column = column * o.dims[d] + (o.dims[d] == 1 ? 0 : index[lead + d]);
                sums[static_cast<size_t>(column)].AddRounded(reference, promote);
            } else {
                sums[0].Add(reference);
            }
            advance();
            continue;
        }
        int64_t at = o.offset;
        for (size_t d = 0; d < o.dims.size(); ++d) at += index[d] * strides[kOutSlot][d];
        advance();
        const char* address = static_cast<const char*>(addresses[kOutSlot]) + at * ElementBytes(o.dtype);
        for (int64_t b = 0; b < ElementBytes(o.dtype); ++b) out_bytes[address + b] = true;
        const double got = test_support::DecodeElement(address, out_type);
        double expected = 0;
        const char* problem = test_support::CheckElement(reference, promote, out_type, got, &expected);
        if (problem[0] != '\0') {
            std::fprintf(stderr, "%s element %lld of %lld: got %g expected %g (%s); inputs", op.api_name,
                         static_cast<long long>(linear), static_cast<long long>(n), got, expected, problem);
            for (double v : values) std::fprintf(stderr, " %g", v);
            std::fprintf(stderr, "\n");
            Fail("result differs from the float64 reference");
        }
    }
    // An empty first dim writes nothing (CANN returns early); a full reduction of nothing writes 0 or NaN, a
    // gradient summed back from nothing 0.
    if ((reduced || summed_back) && !(reduced && summed_back && rows == 0)) {
        std::vector<int64_t> column_index(o.dims.size(), 0);
        for (int64_t c = 0; c < columns; ++c) {
            int64_t at = o.offset;
            for (size_t d = 0; d < o.dims.size(); ++d) at += column_index[d] * strides[kOutSlot][d];
            for (int d = static_cast<int>(o.dims.size()) - 1; d >= 0; --d) {
                if (++column_index[d] < o.dims[d]) break;
                column_index[d] = 0;
            }
            const char* address = static_cast<const char*>(addresses[kOutSlot]) + at * ElementBytes(o.dtype);
            for (int64_t b = 0; b < ElementBytes(o.dtype); ++b) out_bytes[address + b] = true;
            const double got = test_support::DecodeElement(address, out_type);
            double expected = 0;
            const char* problem =
                sums[static_cast<size_t>(c)].Check(rows, reduced && reduction == 1, promote, out_type, got, &expected);
            if (problem[0] != '\0') {
                std::fprintf(stderr, "%s reduction %lld over %lld elements (column %lld): got %g expected %g (%s)\n",
                             op.api_name, static_cast<long long>(reduction), static_cast<long long>(rows),
                             static_cast<long long>(c), got, expected, problem);
                Fail("reduced loss differs from the float64 reference");
            }
        }
    }
    for (const auto& r : f.regions) {
        for (size_t b = 0; b < r->bytes; ++b) {
            if (r->base[b] != r->before[b] && !out_bytes.count(r->base + b)) Fail("a byte outside out's view changed");
        }
    }
}

// A value of a parameter other than reduction: the row's default, an edge, a value CANN refuses, or another.
double PickParameter(FuzzedDataProvider& in, const aclnn_cpu::ParameterDescription& p) {
    if (p.type == aclnn_cpu::ParameterType::kBool) return in.ConsumeBool() ? 1.0 : 0.0;
    if (p.type == aclnn_cpu::ParameterType::kDim) return static_cast<double>(in.ConsumeIntegralInRange<int>(-9, 8));
    const double choices[] = {p.default_value, 0.0, 1e-7, 0.5, 3.0, -1.0, NAN, INFINITY};
    return choices[in.ConsumeIntegralInRange<int>(0, 7)];
}

// Gives the tensors of an NLL loss or the fused cross-entropy (Iteration::kClassIndex, kClassRows) shapes and dtypes its op_api takes, most of the time,
// from self's dims and dtype: random bytes alone almost never make self [N, C], target [N] of integers, weight [C]
// and the outputs agree. Strides, offsets and placements stay as drawn where the rank is kept.
void ShapeClassIndexCall(FuzzedDataProvider& in, const aclnn_cpu::OperatorDescription& op, int64_t reduction,
                         const std::vector<int>& more_out_slots, Fixture* f) {
    if (in.ConsumeIntegralInRange<int>(0, 7) == 0) return;  // as drawn
    auto set = [&](int slot, std::vector<int64_t> dims, int32_t dtype) {
        TensorDescription& t = f->descriptions[slot];
        if (t.dims.size() != dims.size()) t.contiguous = true;
        t.dims = std::move(dims);
        if (!t.contiguous) t.strides.resize(t.dims.size(), 1);
        t.dtype = dtype;
    };
    const int self = InputSlot(op.input_count, op.self_input);
    const int rank = in.ConsumeIntegralInRange<int>(op.self_min_rank, op.self_max_rank);
    std::vector<int64_t> dims;
    for (int d = 0; d < rank; ++d) dims.push_back(in.ConsumeIntegralInRange<int64_t>(0, 9));
    const int32_t type = ValidType(f->descriptions[self].dtype) ? f->descriptions[self].dtype : ACL_FLOAT;
    set(self, dims, type);
    std::vector<int64_t> per_sample = dims.size() >= 2 ? std::vector<int64_t>{dims[0]} : std::vector<int64_t>{};
    for (size_t d = 2; d < dims.size(); ++d) per_sample.push_back(dims[d]);
    const int64_t classes = dims.size() >= 2 ? dims[1] : dims[0];
    const int32_t index_types[] = {ACL_INT64, ACL_INT32, ACL_UINT8};
    for (int k = 0; k < op.input_count; ++k) {
        const aclnn_cpu::InputDescription& input = op.inputs[k];
        const int slot = InputSlot(op.input_count, k);
        if (input.domain == aclnn_cpu::ValueDomain::kClassIndex)
            set(slot, per_sample, index_types[in.ConsumeIntegralInRange<int>(0, 2)]);
        else if (input.shape == aclnn_cpu::InputShape::kPerClass)
            set(slot, {classes}, type);
        else if (input.shape == aclnn_cpu::InputShape::kOneElement)
            set(slot, {1}, type);
        else if (aclnn_cpu::RoleOf(op, k) == aclnn_cpu::InputRole::kIncomingGradient)
            set(slot, reduction == 0 ? per_sample : std::vector<int64_t>{}, type);
    }
    set(kOutSlot, aclnn_cpu::IsGradient(op) ? dims : reduction == 0 ? per_sample : std::vector<int64_t>{}, type);
    for (size_t k = 0; k < more_out_slots.size(); ++k)
        set(more_out_slots[k], op.more_outs[k].shape == aclnn_cpu::OutputShape::kSelf ? dims : std::vector<int64_t>{1},
            type);
}

// Writes a class index in [0, classes) into each element of the target tensor in `slot` where the harness made its
// memory (an integer dtype the plans read, a valid view of at most 2^16 elements).
void WriteClassIndices(Fixture& f, int slot, int64_t classes, std::mt19937_64& rng) {
    const TensorDescription& t = f.descriptions[slot];
    if (f.tensors[slot] == nullptr || Span(t) < 0 || Count(t.dims) > (int64_t{1} << 16)) return;
    if (t.dtype != ACL_INT64 && t.dtype != ACL_INT32 && t.dtype != ACL_UINT8) return;
    void* address = nullptr;
    aclGetRawTensorAddr(f.tensors[slot], &address);
    if (address == nullptr) return;
    const std::vector<int64_t> strides = EffectiveStrides(t);
    const int64_t element = ElementBytes(t.dtype);
    std::vector<int64_t> index(t.dims.size(), 0);
    for (int64_t i = 0; i < Count(t.dims); ++i) {
        int64_t at = t.offset;
        for (size_t d = 0; d < index.size(); ++d) at += index[d] * strides[d];
        char* p = static_cast<char*>(address) + at * element;
        bool inside = false;
        for (const auto& r : f.regions) inside = inside || (p >= r->base && p + element <= r->base + r->bytes);
        if (inside) {
            const int64_t value = static_cast<int64_t>(rng() % static_cast<uint64_t>(std::min<int64_t>(classes, 256)));
            if (t.dtype == ACL_INT64) std::memcpy(p, &value, 8);
            else if (t.dtype == ACL_INT32) { const int32_t v = static_cast<int32_t>(value); std::memcpy(p, &v, 4); }
            else { const uint8_t v = static_cast<uint8_t>(value); std::memcpy(p, &v, 1); }
        }
        for (size_t d = index.size(); d-- > 0;) {
            if (++index[d] < t.dims[d]) break;
            index[d] = 0;
        }
    }
}

// Runs phase 2 of a call with class-index targets (Iteration::kClassIndex, kClassRows): a target outside the classes fails the kernel (the
// stream's synchronisation returns 161002 with a message), nothing written; otherwise every byte that changed lies in an output's view. Calls of more
// than kMaxReducedElements samples (stride-0 targets) run phase 1 only.
void RunClassIndexCall(const Fixture& f, const aclnn_cpu::OperatorDescription& op, aclOpExecutor* executor,
                       uint64_t workspace_size, std::vector<int> out_slots) {
    const int target_slot = InputSlot(op.input_count, op.self_input + 1);
    if (Count(f.descriptions[target_slot].dims) > kMaxReducedElements) {
        if (aclSetAclOpExecutorRepeatable(executor) != 0 || aclDestroyAclOpExecutor(executor) != 0)
            Fail("cannot release an executor without running it");
        return;
    }
    void* workspace = nullptr;
    if (workspace_size > 0 && aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_NORMAL_ONLY) != ACL_SUCCESS)
        Fail("cannot allocate the workspace");
    if (op.run(workspace, workspace_size, executor, nullptr) != 0) Fail("phase 2 failed");
    const aclError synced = aclrtSynchronizeStream(nullptr);
    if (workspace != nullptr) aclrtFree(workspace);
    if (synced != ACL_SUCCESS) {
        if (synced != 161002 || aclGetRecentErrMsg() == nullptr) Fail("the kernel failed other than on a target");
        for (const auto& r : f.regions)
            if (std::memcmp(r->base, r->before.data(), r->bytes) != 0) Fail("a refused phase 2 wrote memory");
        return;
    }
    for (const auto& r : f.regions) {
        for (size_t b = 0; b < r->bytes; ++b) {
            if (r->base[b] == r->before[b]) continue;
            bool in_an_output = false;
            for (int slot : out_slots) {
                if (slot < 0 || f.tensors[slot] == nullptr) continue;
                const TensorDescription& o = f.descriptions[slot];
                const int64_t element = o.dtype == ACL_DOUBLE ? 8 : ElementBytes(o.dtype);  // out may be DOUBLE
                void* address = nullptr;
                aclGetRawTensorAddr(f.tensors[slot], &address);
                if (address == nullptr) continue;
                const char* first = static_cast<const char*>(address) + o.offset * element;
                const char* end = static_cast<const char*>(address) + std::max<int64_t>(Span(o), 0) * element;
                in_an_output = in_an_output || (r->base + b >= first && r->base + b < end);
            }
            if (!in_an_output) Fail("a byte outside the outputs changed");
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    FuzzedDataProvider in(data, size);
    Fixture f;
    for (int k = 0; k < 4; ++k) f.descriptions[k] = Describe(in);
    const int reduction_choice = in.ConsumeIntegralInRange<int>(0, 7);
    const int64_t reduction = reduction_choice < 6 ? reduction_choice % 3 : in.ConsumeIntegral<int64_t>();
    std::mt19937_64 rng(in.ConsumeIntegral<uint64_t>());
    // Read last, one byte (as the bool it was): older corpus entries still decode as the operator they had.
    const aclnn_cpu::OperatorDescription& op =
        aclnn_cpu::kOperators[in.ConsumeIntegralInRange<int>(0, aclnn_cpu::kOperatorCount - 1)];
    // Then what older entries did not have: the slots of a fourth and fifth input, the other parameters.
    for (int k = 4; k < kSlots; ++k) f.descriptions[k] = Describe(in);
    std::vector<double> parameters;
    for (int p = 0; p < op.parameter_count; ++p)
        parameters.push_back(op.parameters[p].type == aclnn_cpu::ParameterType::kReduction
                                 ? static_cast<double>(reduction)
                                 : PickParameter(in, op.parameters[p]));
    bool used[kSlots] = {};
    used[kOutSlot] = true;
    for (int k = 0; k < op.input_count; ++k) used[InputSlot(op.input_count, k)] = true;
    // The outputs after out (aclnnNLLLoss's totalWeightOut...) take the first slots no input uses.
    std::vector<int> more_out_slots;
    for (int k = 0; k < kSlots && static_cast<int>(more_out_slots.size()) + 1 < op.output_count; ++k)
        if (!used[k]) more_out_slots.push_back(k);
    for (int slot : more_out_slots) used[slot] = true;
    const bool class_indexed =
        op.iteration == aclnn_cpu::Iteration::kClassIndex || op.iteration == aclnn_cpu::Iteration::kClassRows;
    if (class_indexed)
        ShapeClassIndexCall(in, op, aclnn_cpu::ReductionValue(op, parameters.data()), more_out_slots, &f);

    for (int k = 0; k < kSlots; ++k) {
        const TensorDescription& t = f.descriptions[k];
        if (!t.present || !used[k]) continue;
        const int64_t span = Span(t);
        const int64_t element = ValidType(t.dtype) || IntegerType(t.dtype) ? ElementBytes(t.dtype) : 4;
        char* address = nullptr;
        Placement placement = t.placement;
        if (placement == Placement::kInsideOther && f.regions.empty()) placement = Placement::kOwnBlock;
        if (span < 0 && (placement == Placement::kOwnBlock || placement == Placement::kHost))
            placement = Placement::kTooSmall;  // cannot allocate it: give a block the operator must refuse
        switch (placement) {
            case Placement::kOwnBlock: address = f.NewRegion(static_cast<size_t>(span * element), true)->base; break;
            case Placement::kHost: address = f.NewRegion(static_cast<size_t>(span * element), false)->base; break;
            case Placement::kNull: break;
            case Placement::kTooSmall:
                // 64 bytes short, so the view overruns even the padding; a view of 64 bytes or less then fits
                // in a 1-byte block's padding and must run.
                address = f.NewRegion(static_cast<size_t>(std::max<int64_t>(span * element - 64, 1)), true)->base;
                break;
            case Placement::kInsideOther: {
                Region* other = f.regions[rng() % f.regions.size()].get();
                address = other->base + (rng() % other->bytes) / 2 * 2;
                break;
            }
        }
        const std::vector<int64_t> strides = t.strides;
        f.tensors[k] = aclCreateTensor(t.dims.data(), t.dims.size(), static_cast<aclDataType>(t.dtype),
                                       t.contiguous ? nullptr : strides.data(), t.offset,
                                       static_cast<aclFormat>(t.format), t.dims.data(), t.dims.size(), address);
    }
    for (auto& r : f.regions) FillRandom(*r, f.descriptions[rng() % 4].dtype, rng);
    // Random bytes are almost never class indices: most calls get targets in [0, C) (C from self's second dim, or
    // its only one), so the kernels run; the others keep theirs, which the kernel must refuse.
    if (class_indexed && rng() % 8 != 0) {
        const int target_slot = InputSlot(op.input_count, op.self_input + 1);
        const TensorDescription& self = f.descriptions[InputSlot(op.input_count, op.self_input)];
        const int64_t classes = self.dims.size() >= 2 ? self.dims[1] : self.dims.empty() ? 1 : self.dims[0];
        WriteClassIndices(f, target_slot, std::max<int64_t>(classes, 1), rng);
    }
    for (auto& r : f.regions) r->before.assign(r->base, r->base + r->bytes);

    if (std::getenv("FUZZ_VERBOSE") != nullptr) {  // describe the decoded case, for debugging a finding
        for (int k = 0; k < kSlots; ++k) {
            const TensorDescription& t = f.descriptions[k];
            void* address = nullptr;
            if (f.tensors[k] != nullptr) aclGetRawTensorAddr(f.tensors[k], &address);
            std::fprintf(stderr, "tensor %d: %s dtype %d format %d offset %lld placement %d data %p dims", k,
                         f.tensors[k] != nullptr ? "present" : "null", t.dtype, t.format,
                         static_cast<long long>(t.offset), static_cast<int>(t.placement), address);
            for (size_t d = 0; d < t.dims.size(); ++d)
                std::fprintf(stderr, " %lld/%lld", static_cast<long long>(t.dims[d]),
                             static_cast<long long>(t.contiguous ? -1 : t.strides[d]));
            std::fprintf(stderr, "\n");
        }
        std::fprintf(stderr, "%s, parameters", op.api_name);
        for (double p : parameters) std::fprintf(stderr, " %g", p);
        std::fprintf(stderr, "\n");
    }
    uint64_t workspace_size = 12345;
    aclOpExecutor* const sentinel = reinterpret_cast<aclOpExecutor*>(0x5a5a);
    aclOpExecutor* executor = sentinel;
    const aclTensor* inputs[aclnn_cpu::kMaxOperatorInputs] = {};
    for (int k = 0; k < op.input_count; ++k) inputs[k] = f.tensors[InputSlot(op.input_count, k)];
    aclTensor* outs[aclnn_cpu::kMaxOperatorOutputs] = {f.tensors[kOutSlot]};
    for (size_t k = 0; k < more_out_slots.size(); ++k) outs[k + 1] = f.tensors[more_out_slots[k]];
    const aclnnStatus status = op.get_workspace_size(inputs, parameters.data(), outs, &workspace_size, &executor);
    if (status != 0) {
        // 161001, 161002, a tiling's 561002 (the generated op_apis), or the row's own status for what CANN reports
        // as an internal failure (aclnnBinaryCrossEntropy's 561103).
        if (status != 161001 && status != 161002 && status != 561002 && status != op.null_tensor_status)
            Fail("undocumented status from phase 1");
        if (executor != sentinel || workspace_size != 12345) Fail("a failed phase 1 wrote its outputs");
        if (aclGetRecentErrMsg() == nullptr) Fail("a failed phase 1 left no message");
        for (auto& r : f.regions)
            if (std::memcmp(r->base, r->before.data(), r->bytes) != 0) Fail("a failed phase 1 wrote memory");
        return 0;
    }
    if (class_indexed) {
        // The outputs a kernel may write: never the z-loss ones CANN leaves unwritten.
        std::vector<int> out_slots = {kOutSlot};
        for (size_t k = 0; k < more_out_slots.size(); ++k)
            if (op.more_outs[k].shape != aclnn_cpu::OutputShape::kUnwritten) out_slots.push_back(more_out_slots[k]);
        RunClassIndexCall(f, op, executor, workspace_size, out_slots);
        return 0;
    }
    std::vector<int64_t> shape;
    if (Reduces(op, aclnn_cpu::ReductionValue(op, parameters.data())) && InputShape(f, op, &shape) &&
        Count(shape) > kMaxReducedElements) {
        // A reduced out bounds nothing: stride-0 inputs of 2^20 elements each broadcast to a valid sum of 2^40
        // terms, hours of phase 2 and of the reference. Phase 1's answer is the finding here; free its executor
        // through the repeatable-executor API instead of running it.
        if (aclSetAclOpExecutorRepeatable(executor) != 0 || aclDestroyAclOpExecutor(executor) != 0)
            Fail("cannot release an executor without running it");
        return 0;
    }
    void* workspace = nullptr;
    if (workspace_size > 0 && aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_NORMAL_ONLY) != ACL_SUCCESS)
        Fail("cannot allocate the workspace");
    const aclnnStatus run = op.run(workspace, workspace_size, executor, nullptr);
    if (run != 0) Fail("phase 2 failed");
    if (aclrtSynchronizeStream(nullptr) != ACL_SUCCESS) Fail("the stream reported a failure");
    if (workspace != nullptr) aclrtFree(workspace);
    VerifySuccess(f, op, parameters);
    return 0;
}
