// The Highway tile loops every elementwise operator shares, parameterised by an operator functor. An
// operator's kernel file includes this header inside its own foreach_target translation unit and returns
// ChooseTileKernel<Functor>; everything else -- loads, dtype conversions, gathers, scatters, streaming stores,
// tails, sums -- is here, once.
//
// The functor (see docs/design.md, "How to add an operator"):
//   struct MyOp {
//       static constexpr int kInputs = 2;         // 1..kMaxInputs fp32 inputs, in the plan's operand order
//       static constexpr int kScaledInput = -1;   // or an input index: multiplied by config.input_scale first
//       template <class D> hn::Vec<D> operator()(D d, hn::Vec<D> a, hn::Vec<D> b) const;  // one per input
//   };
// It gets fp32 vectors and returns the fp32 result; the loops round it to the promote type and store it in
// out's dtype, or add it to the sum.
//
// A tile (Tile: the two innermost dims of the iteration) goes one of two ways, chosen in phase 1:
//   fused   -- every input is contiguous or constant along rows and out is contiguous along rows (or the
//              values are summed): rows go straight from memory through the functor to memory, or into
//              float64 sums held in registers, with the dtypes as template arguments (and BFLOAT16 in even/odd
//              pairs); inputs of different dtypes are stored through one instance that loads each in its
//              own (kMixedTypes), and summed through the blocked path;
//   blocked -- anything else: blocks of kBlock elements, each input widened into an L1 buffer (gathered first
//              when strided), computed, then narrowed and stored or scattered, or summed.
// Tails are padded to whole vectors, so every element meets exactly the same instructions wherever it lies:
// results are bit-identical across layouts and thread counts.

// Include guard toggled per target, as Highway's per-target headers require.
#if defined(ACLNN_CPU_KERNELS_ELEMENTWISE_TILES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLNN_CPU_KERNELS_ELEMENTWISE_TILES_INL_H_
#undef ACLNN_CPU_KERNELS_ELEMENTWISE_TILES_INL_H_
#else
#define ACLNN_CPU_KERNELS_ELEMENTWISE_TILES_INL_H_
#endif

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>

#include "hwy/cache_control.h"
#include "hwy/highway.h"
#include "kernels/simd_support.h"
#include "kernels/tile_kernel.h"
#include "kernels/operand_access-inl.h"
#include "kernels/sum_accumulation-inl.h"

#ifndef ACLNN_CPU_BLOCKED_KERNELS_ONLY
#define ACLNN_CPU_BLOCKED_KERNELS_ONLY 0
#endif

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

constexpr int64_t kBlock = 512;  // elements per block: 2 KiB per fp32 buffer; all buffers stay in L1

// The kIn of a fused instance whose inputs have different dtypes, read from the KernelConfig at run time (not
// an element type: no operand has it).
constexpr ElementType kMixedTypes = static_cast<ElementType>(0xff);

// The functor applied to its inputs, input(k) giving the k-th as an fp32 vector. The inputs come from a
// function, not an array: SVE's vector types are sizeless, and C++ allows them in neither arrays nor structs,
// so one source serves fixed-size (x86, NEON) and scalable (SVE) targets only if vectors stay in locals,
// arguments and return values.
template <class Op, class Input>
HWY_INLINE hn::Vec<DF> ApplyTo(DF df, Input&& input) {
    static_assert(Op::kInputs >= 1 && Op::kInputs <= kMaxInputs, "an operator has 1 to kMaxInputs inputs");
    if constexpr (Op::kInputs == 1) {
        return Op()(df, input(0));
    } else if constexpr (Op::kInputs == 2) {
        return Op()(df, input(0), input(1));
    } else {
        return Op()(df, input(0), input(1), input(2));
    }
}

// The functor on two vectors, input(k, i) giving input k of the vector at element i, handed to
// consume(r0, r1). Every input of both is loaded before either is computed: the loads may branch (a
// row-constant input is a broadcast), and two computations in one branch-free stretch are what the
// scheduler interleaves (computing each right after its own loads measured 7-8% slower in cache).
template <class Op, class Input, class Consume>
HWY_INLINE void ApplyToTwo(DF df, Input&& input, int64_t i0, int64_t i1, Consume&& consume) {
    if constexpr (Op::kInputs == 1) {
        const auto a0 = input(0, i0), a1 = input(0, i1);
        consume(Op()(df, a0), Op()(df, a1));
    } else if constexpr (Op::kInputs == 2) {
        const auto a0 = input(0, i0), b0 = input(1, i0), a1 = input(0, i1), b1 = input(1, i1);
        consume(Op()(df, a0, b0), Op()(df, a1, b1));
    } else {
        const auto a0 = input(0, i0), b0 = input(1, i0), c0 = input(2, i0);
        const auto a1 = input(0, i1), b1 = input(1, i1), c1 = input(2, i1);
        consume(Op()(df, a0, b0, c0), Op()(df, a1, b1, c1));
    }
}

// The same for four vectors (the fused sum's step).
template <class Op, class Input, class Consume>
HWY_INLINE void ApplyToFour(DF df, Input&& input, int64_t i, int64_t step, Consume&& consume) {
    if constexpr (Op::kInputs == 1) {
        const auto a0 = input(0, i), a1 = input(0, i + step), a2 = input(0, i + 2 * step),
                   a3 = input(0, i + 3 * step);
        consume(Op()(df, a0), Op()(df, a1), Op()(df, a2), Op()(df, a3));
    } else if constexpr (Op::kInputs == 2) {
        const auto a0 = input(0, i), b0 = input(1, i), a1 = input(0, i + step), b1 = input(1, i + step);
        const auto a2 = input(0, i + 2 * step), b2 = input(1, i + 2 * step);
        const auto a3 = input(0, i + 3 * step), b3 = input(1, i + 3 * step);
        consume(Op()(df, a0, b0), Op()(df, a1, b1), Op()(df, a2, b2), Op()(df, a3, b3));
    } else {
        const auto a0 = input(0, i), b0 = input(1, i), c0 = input(2, i);
        const auto a1 = input(0, i + step), b1 = input(1, i + step), c1 = input(2, i + step);
        const auto a2 = input(0, i + 2 * step), b2 = input(1, i + 2 * step), c2 = input(2, i + 2 * step);
        const auto a3 = input(0, i + 3 * step), b3 = input(1, i + 3 * step), c3 = input(2, i + 3 * step);
        consume(Op()(df, a0, b0, c0), Op()(df, a1, b1, c1), Op()(df, a2, b2, c2), Op()(df, a3, b3, c3));
    }
}

// ---- the fused path ----------------------------------------------------------------------------------------

// Rows of a tile in which every input is contiguous along the row or constant along it (one value per row),
// all inputs have dtype kIn (or each its own, kIn = kMixedTypes), and out is contiguous along the row with
// dtype kOut (a sum has no out).
struct FusedRows {
    const char* in[kMaxInputs];    // first element of the first row
    int64_t in_outer[kMaxInputs];  // bytes from one row to the next
    bool in_constant[kMaxInputs];  // one value per row (inner stride 0)
    char* out;
    int64_t out_outer;
    int64_t rows;
    int64_t count;  // elements per row
};

// The functor's inputs along one row of FusedRows: where each starts, the values of those constant along the
// row, and the pre-scale hook (an input constant along the row is scaled once here, a varying one per vector).
// Constants are kept as scalars and broadcast where used (a struct cannot hold an SVE vector); the compiler
// hoists the broadcast out of the loops.
template <class Op, ElementType kIn>
struct RowInputs {
    RowInputs(const KernelConfig& config, const FusedRows& a, int64_t row) : rows(a), scale(config.input_scale) {
        for (int k = 0; k < Op::kInputs; ++k) {
            type[k] = kIn == kMixedTypes ? config.types[k] : kIn;
            p[k] = a.in[k] + row * a.in_outer[k];
            constant[k] = a.in_constant[k] ? ElementAsFloat(type[k], p[k]) : 0.0f;
        }
        if constexpr (Op::kScaledInput >= 0) {
            const bool scaled = config.input_scale != 1.0f;
            // The same fp32 product as the vector multiply.
            if (scaled && a.in_constant[Op::kScaledInput]) constant[Op::kScaledInput] *= config.input_scale;
            scale_each = scaled && !a.in_constant[Op::kScaledInput];
        }
    }
    // Input k of the vector at element i of `from` (p, or zero-padded copies of the row's end).
    HWY_INLINE hn::Vec<DF> Load(int k, const char* const* from, int64_t i) const {
        const DF df;
        if (rows.in_constant[k]) return hn::Set(df, constant[k]);
        const auto v = LoadAsFloat(df, Type(k), from[k] + i * InSize(k));
        if constexpr (Op::kScaledInput >= 0) {
            if (k == Op::kScaledInput && scale_each) return hn::Mul(v, hn::Set(df, scale));
        }
        return v;
    }
    // The functor on the vector at element i of `from`.
    HWY_INLINE hn::Vec<DF> Apply(const char* const* from, int64_t i) const {
        return ApplyTo<Op>(DF(), [&](int k) { return Load(k, from, i); });
    }
    // Copies the count (< one vector) elements at element i of the row to tail, for Apply(tails, 0).
    void CopyEnd(int64_t i, int64_t count, char (*tail)[hn::MaxLanes(DF()) * sizeof(float)],
                 const char** tails) const {
        for (int k = 0; k < Op::kInputs; ++k) {
            tails[k] = tail[k];
            if (!rows.in_constant[k]) std::memcpy(tail[k], p[k] + i * InSize(k), static_cast<size_t>(count * InSize(k)));
        }
    }
    // Input k's dtype and element size: constants of the instance, except with mixed dtypes.
    HWY_INLINE ElementType Type(int k) const { return kIn == kMixedTypes ? type[k] : kIn; }
    HWY_INLINE int64_t InSize(int k) const { return ElementSize(Type(k)); }

    const FusedRows& rows;
    ElementType type[kMaxInputs];
    const char* p[kMaxInputs];
    float constant[kMaxInputs];
    float scale;
    bool scale_each = false;
};

template <class Op, ElementType kIn, ElementType kOut, bool kStream>
void FusedRowsKernel(const KernelConfig& config, const FusedRows& a) {
    const DF df;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
    constexpr int64_t kOutSize = kOut == ElementType::kFloat32 ? 4 : 2;
    // Results are rounded to the inputs' promote type (one dtype: that dtype), which out having it implies.
    const ElementType promote = kIn == kMixedTypes ? config.promote : kIn;
    const bool round = promote != ElementType::kFloat32 && promote != kOut;
    constexpr bool kStreamHere = kStream && (kOut == ElementType::kFloat32 || kCanStream16);
    const int64_t full = a.count / lanes * lanes;
    const int64_t rest = a.count - full;
    HWY_ALIGN char tail_in[kMaxInputs][hn::MaxLanes(df) * sizeof(float)] = {};
    HWY_ALIGN char tail_out[hn::MaxLanes(df) * sizeof(float)];
    for (int64_t row = 0; row < a.rows; ++row) {
        const RowInputs<Op, kIn> inputs(config, a, row);
        const char* const* p = inputs.p;
        char* out = a.out + row * a.out_outer;
        int64_t i = 0;
#if ACLNN_CPU_BF16_PAIRS
        // All BFLOAT16: two vectors per step, widened and narrowed in even/odd halves (fewer instructions
        // than one vector at a time; the same exact widening and RNE narrowing, so the same bits).
        if constexpr (kIn == ElementType::kBFloat16 && kOut == ElementType::kBFloat16) {
            constexpr int kScaled = Op::kScaledInput;
            constexpr int64_t kInSize = 2;
            const hn::Repartition<uint16_t, DF> du16;
            const bool hardware_bf16 = CpuHasAvx512Bf16();
            // A pair fills a whole vector: twice the alignment the caller checked for single vectors.
            const bool stream_pairs = kStreamHere && reinterpret_cast<uintptr_t>(out) % (2 * lanes * kOutSize) == 0;
            for (; i + 2 * lanes <= full; i += 2 * lanes) {
                // Input k's even (odd) elements; the load is shared by both (the compiler merges the two).
                auto half = [&](int k, bool odd) {
                    if (a.in_constant[k]) return hn::Set(df, inputs.constant[k]);
                    const auto bits = hn::LoadU(du16, reinterpret_cast<const uint16_t*>(p[k] + i * kInSize));
                    auto v = odd ? Bf16OddToFloat(df, bits) : Bf16EvenToFloat(df, bits);
                    if (kScaled >= 0 && k == kScaled && inputs.scale_each) v = hn::Mul(v, hn::Set(df, inputs.scale));
                    return v;
                };
                const auto even = ApplyTo<Op>(df, [&](int k) { return half(k, false); });
                const auto odd = ApplyTo<Op>(df, [&](int k) { return half(k, true); });
                const auto packed = NarrowBf16Pair(df, even, odd, hardware_bf16);
                uint16_t* to = reinterpret_cast<uint16_t*>(out + i * kOutSize);
                if (stream_pairs) hn::Stream(packed, du16, to); else hn::StoreU(packed, du16, to);
            }
        }
#endif
        // Two independent vectors per step: the functor's long dependency chains (exp, log, division)
        // interleave, where one at a time would leave the out-of-order window waiting on a single chain.
        for (; i + 2 * lanes <= full; i += 2 * lanes) {
            ApplyToTwo<Op>(df, [&](int k, int64_t at) { return inputs.Load(k, p, at); }, i, i + lanes,
                           [&](hn::Vec<DF> r, hn::Vec<DF> r2) {
                               if (round) {
                                   r = RoundToType(df, promote, r);
                                   r2 = RoundToType(df, promote, r2);
                               }
                               StoreAsType<kStreamHere>(df, kOut, r, out + i * kOutSize);
                               StoreAsType<kStreamHere>(df, kOut, r2, out + (i + lanes) * kOutSize);
                           });
        }
        for (; i < full; i += lanes) {
            auto r = inputs.Apply(p, i);
            if (round) r = RoundToType(df, promote, r);
            StoreAsType<kStreamHere>(df, kOut, r, out + i * kOutSize);
        }
        if (rest == 0) continue;
        // The tail goes through the same vector code on zero-padded copies.
        const char* tails[kMaxInputs];
        inputs.CopyEnd(full, rest, tail_in, tails);
        auto r = inputs.Apply(tails, 0);
        if (round) r = RoundToType(df, promote, r);
        StoreAsType<false>(df, kOut, r, tail_out);
        std::memcpy(out + full * kOutSize, tail_out, static_cast<size_t>(rest * kOutSize));
    }
}

#if ACLNN_CPU_SUM_LANE_VECTORS
// How far ahead of its loads a summed row asks for its input lines. A sum only reads, and with a few dozen
// vector instructions between one line's loads and the next the demand loads (and the hardware prefetchers
// they train) keep too few lines in flight to reach the memory's speed: without these requests the forward
// mean ran at 0.79 of the 2-read sum loop, with them at 0.90-1.00 (Xeon guest). 8 KiB per input: on the Zen 5
// guest, whose core streams three times the bytes, 2 KiB ahead is less than the memory's latency times its
// rate (paired at 16M, one thread: 0.80-0.85 of the loop with 2 KiB, 0.84-0.90 with 4, 0.87-0.91 with 8 or 16,
// and 8 KiB into L2 alike). 16 KiB ahead for two inputs stays well inside a 48 KiB L1.
constexpr int64_t kSumPrefetchBytes = 8192;

// Where SumsPrefetchTwice() (AMD x86), each line is asked for twice: non-temporally kSumPrefetchBytes ahead,
// then into L1 this far ahead. On the Zen 5 guest the single request 8 KiB ahead held the core's miss buffers
// for lines its hardware prefetcher would have fetched (from L3 the mean ran 4.5-5.3 G/s with it, 5.1-5.5
// without), while 2 KiB alone was too short for DRAM; the pair, against the single request over nine to
// twelve alternations (16M one thread / 16M two / 64M one / 64M two): 0.87-0.95 / 0.83-0.93 / 0.90-1.03 /
// 0.91-1.00 of the sum loop (medians 0.925 / 0.92 / 0.96 / 0.94), against 0.81-0.98 / 0.77-0.88 / 0.81-0.96 /
// 0.83-0.94 (medians 0.93 / 0.83 / 0.87 / 0.90).
constexpr int64_t kSumNearPrefetchBytes = 2048;

// Steps of a summed row whose results wait in a small ring in L1 before they are widened and added to the
// lanes. The functor's dependency chain is long (the forward: product, reduction, six lookups feeding five
// dependent multiply-adds, about 40 cycles), and the widening and adds at its end would otherwise be issued
// with it and wait in the scheduler for all of it, crowding out the next steps' work; read back a few steps
// later, their inputs are ready. On the Zen 5 guest, in cache: forward mean 4.85 -> 5.45 G results/s
// (4 steps and 8 alike; 5.8 with Widening::kScaledBits on top). The same additions in the same order: the
// same bits.
constexpr int64_t kSumRingSteps = 4;

// Rows with at least this many elements in whole groups try Widening::kScaledBits: loading, checking and
// storing its scaled lanes costs a few dozen instructions per row.
constexpr int64_t kScaledBitsMinElements = 1024;

// Whether Op declares `static constexpr bool kNonNegativeResults = true` (every result >= +0 or NaN): its
// sums try Widening::kScaledBits, which redoes a row whose results include a negative value, so a functor
// with such results should not declare it.
template <class Op, class = void>
struct NonNegativeResults : std::false_type {};
template <class Op>
struct NonNegativeResults<Op, std::void_t<decltype(Op::kNonNegativeResults)>>
    : std::bool_constant<Op::kNonNegativeResults> {};

// Adds elements [from, to) of a row -- whole groups of kSumLanes, `from` at a group's start -- to lanes.
template <class Op, ElementType kIn, Widening kWidening>
HWY_INLINE void AddGroupsOfRow(const FusedRows& a, const RowInputs<Op, kIn>& inputs, int64_t from, int64_t to,
                               bool prefetch_twice, SumLaneVectors<kWidening>* lanes) {
    const DF df;
    constexpr int64_t kLanes = static_cast<int64_t>(hn::MaxLanes(DF()));
    constexpr int64_t kSlots = SumLaneVectors<kWidening>::kSlots;
    // Four independent vectors per step (see FusedRowsKernel): a whole number of groups on every target.
    constexpr int64_t kStep = 4 * kLanes;
    static_assert(kStep % kSumLanes == 0, "a step is a whole number of groups");
    HWY_ALIGN float waiting[kSumRingSteps][kStep];
    // Adds a step's four waiting result vectors, in order.
    auto add_step = [&](const float* results) {
        for (int v = 0; v < 4; ++v) lanes->Add(v % kSlots, hn::Load(df, results + v * kLanes));
    };
    const char* const* p = inputs.p;
    int64_t i = from;
    int64_t step = 0;
    for (; i + kStep <= to; i += kStep, ++step) {
        for (int k = 0; k < Op::kInputs; ++k) {
            if (a.in_constant[k]) continue;
            const int64_t in_size = inputs.InSize(k);
            const char* at = p[k] + i * in_size;
            // Past the input's end these only name lines that are never read: prefetches do not fault.
            if (prefetch_twice) {
                for (int64_t b = 0; b < kStep * in_size; b += kCacheLine)
                    PrefetchLine<PrefetchTo::kL1>(at + kSumNearPrefetchBytes + b);
                for (int64_t b = 0; b < kStep * in_size; b += kCacheLine)
                    PrefetchLine<PrefetchTo::kL1NonTemporal>(at + kSumPrefetchBytes + b);
            } else {
                for (int64_t b = 0; b < kStep * in_size; b += kCacheLine)
                    PrefetchLine<PrefetchTo::kL1>(at + kSumPrefetchBytes + b);
            }
        }
        float* slot = waiting[step % kSumRingSteps];
        ApplyToFour<Op>(df, [&](int k, int64_t at) { return inputs.Load(k, p, at); }, i, kLanes,
                        [&](hn::Vec<DF> r0, hn::Vec<DF> r1, hn::Vec<DF> r2, hn::Vec<DF> r3) {
                            // The step kSumRingSteps back first, then this one in its place.
                            if (step >= kSumRingSteps) add_step(slot);
                            hn::Store(r0, df, slot);
                            hn::Store(r1, df, slot + kLanes);
                            hn::Store(r2, df, slot + 2 * kLanes);
                            hn::Store(r3, df, slot + 3 * kLanes);
                        });
    }
    for (int64_t s = std::max<int64_t>(step - kSumRingSteps, 0); s < step; ++s) add_step(waiting[s % kSumRingSteps]);
    for (; i < to; i += kLanes) lanes->Add((i - from) / kLanes % kSlots, inputs.Apply(p, i));
}

// Rows summed: each result goes to its lane (linear index % kSumLanes) in increasing index order, as in
// AccumulateSums -- the same additions, so the same bits as the blocked path -- but from the functor through a
// ring of a few steps' results in L1 into float64 lanes held in registers (AddGroupsOfRow), with no buffer of
// the row's results. Long rows of a functor with non-negative results widen by moving bits, and add the row
// again by converting where that cannot represent a value. `linear` is the linear index of the first
// row's first element, `pitch` the distance between rows. The ends of a row that do not fill an aligned
// group of kSumLanes go through the zero-padded vector code and AccumulateSums.
template <class Op, ElementType kIn>
void FusedSumRowsKernel(const KernelConfig& config, const FusedRows& a, int64_t linear, int64_t pitch,
                        SumAccumulator* sums) {
    const DF df;
    constexpr int64_t kLanes = static_cast<int64_t>(hn::MaxLanes(DF()));
    HWY_ALIGN char tail_in[kMaxInputs][kLanes * sizeof(float)] = {};
    HWY_ALIGN float results[kLanes];
    const bool prefetch_twice = SumsPrefetchTwice();
    for (int64_t row = 0; row < a.rows; ++row) {
        const RowInputs<Op, kIn> inputs(config, a, row);
        const int64_t row_linear = linear + row * pitch;
        // Elements [from, from + count) of the row, count < one vector each time, through padded copies.
        auto add_end = [&](int64_t from, int64_t count) {
            for (int64_t i = from; i < from + count; i += kLanes) {
                const int64_t n = std::min(kLanes, from + count - i);
                const char* tails[kMaxInputs];
                inputs.CopyEnd(i, n, tail_in, tails);
                hn::Store(inputs.Apply(tails, 0), df, results);
                AccumulateSums(results, n, row_linear + i, sums);
            }
        };
        const int64_t head = std::min(a.count, (kSumLanes - row_linear % kSumLanes) % kSumLanes);
        const int64_t groups_end = head + (a.count - head) / kSumLanes * kSumLanes;
        add_end(0, head);
        if (groups_end > head) {
            bool added = false;
            if constexpr (kScaledBitsPays && NonNegativeResults<Op>::value) {
                if (groups_end - head >= kScaledBitsMinElements) {
                    SumLaneVectors<Widening::kScaledBits> lanes(*sums);
                    if (lanes.Usable()) {
                        AddGroupsOfRow(a, inputs, head, groups_end, prefetch_twice, &lanes);
                        // False where a result was negative, inf or NaN, or a lane reached 2^127: the row's
                        // groups are added again below, from the lanes as they were.
                        added = lanes.StoreTo(sums);
                    }
                }
            }
            if (!added) {
                SumLaneVectors<Widening::kConvert> lanes(*sums);
                AddGroupsOfRow(a, inputs, head, groups_end, prefetch_twice, &lanes);
                lanes.StoreTo(sums);
            }
        }
        add_end(groups_end, a.count - groups_end);
    }
}
#endif

// Calls run(row, column, rows, count) for the runs of rows that cover [tile.first, tile.last): a partial
// first row, the whole rows, a partial last row -- or a single run where every operand continues seamlessly
// from one row to the next (row 0, columns up to tile.last).
template <int kInputs, class Run>
HWY_INLINE void ForEachFusedRun(const KernelConfig& config, const Tile& tile, int64_t out_size, Run&& run) {
    bool seamless = tile.outer_stride[kInputs] == tile.inner_size * out_size;
    for (int k = 0; k < kInputs; ++k) {
        const int64_t in_size = ElementSize(config.types[k]);
        seamless = seamless && (tile.inner_stride[k] == 0 ? tile.outer_stride[k] == 0
                                                           : tile.outer_stride[k] == tile.inner_size * in_size);
    }
    const int64_t row_length = seamless ? tile.last : tile.inner_size;
    int64_t row = seamless ? 0 : tile.first / row_length;
    int64_t column = seamless ? tile.first : tile.first % row_length;
    int64_t position = tile.first;
    if (column != 0) {
        const int64_t count = std::min(row_length - column, tile.last - position);
        run(row, column, 1, count);
        position += count;
        ++row;
    }
    const int64_t whole_rows = (tile.last - position) / row_length;
    if (whole_rows > 0) {
        run(row, 0, whole_rows, row_length);
        position += whole_rows * row_length;
        row += whole_rows;
    }
    if (position < tile.last) run(row, 0, 1, tile.last - position);
}

// The inputs of a run of rows at (row, column) of the tile.
template <int kInputs>
HWY_INLINE FusedRows FusedRun(const Tile& tile, int64_t row, int64_t column, int64_t rows, int64_t count) {
    FusedRows a;
    for (int k = 0; k < kInputs; ++k) {
        a.in[k] = tile.origin[k] + row * tile.outer_stride[k] + column * tile.inner_stride[k];
        a.in_outer[k] = tile.outer_stride[k];
        a.in_constant[k] = tile.inner_stride[k] == 0;
    }
    a.out = nullptr;
    a.out_outer = 0;
    a.rows = rows;
    a.count = count;
    return a;
}

// A tile whose rows are all fusable (the engine checked the strides and dtypes in phase 1), stored.
template <class Op, ElementType kIn, ElementType kOut>
void FusedTile(const KernelConfig& config, const Tile& tile, SumAccumulator* /*sums: kStore only*/) {
    constexpr int kInputs = Op::kInputs;
    const DF df;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
    const int64_t out_size = ElementSize(kOut);
    ForEachFusedRun<kInputs>(config, tile, out_size, [&](int64_t row, int64_t column, int64_t rows, int64_t count) {
        FusedRows a = FusedRun<kInputs>(tile, row, column, rows, count);
        a.out = tile.origin[kInputs] + row * tile.outer_stride[kInputs] + column * out_size;
        a.out_outer = tile.outer_stride[kInputs];
        // Streaming stores need every row to start on a vector boundary.
        const uintptr_t vector_bytes = static_cast<uintptr_t>(lanes * out_size);
        const bool aligned = reinterpret_cast<uintptr_t>(a.out) % vector_bytes == 0 &&
                             (rows == 1 || static_cast<uintptr_t>(a.out_outer) % vector_bytes == 0);
        if (config.stream_stores && aligned) {
            FusedRowsKernel<Op, kIn, kOut, true>(config, a);
        } else {
            FusedRowsKernel<Op, kIn, kOut, false>(config, a);
        }
    });
}

#if ACLNN_CPU_SUM_LANE_VECTORS
// A tile whose rows are all fusable, summed. The sum's iteration order is the dense row-major order of the
// broadcast shape (elementwise_plan.cpp), so element (row, column) has linear index
// tile.linear_origin + row * inner_size + column.
template <class Op, ElementType kIn>
void FusedSumTile(const KernelConfig& config, const Tile& tile, SumAccumulator* sums) {
    constexpr int kInputs = Op::kInputs;
    ForEachFusedRun<kInputs>(config, tile, sizeof(float), [&](int64_t row, int64_t column, int64_t rows,
                                                              int64_t count) {
        const int64_t linear = tile.linear_origin + row * tile.inner_size + column;
        FusedSumRowsKernel<Op, kIn>(config, FusedRun<kInputs>(tile, row, column, rows, count), linear,
                                    tile.inner_size, sums);
    });
}
#endif

// ---- fused rows chosen at run time -------------------------------------------------------------------------

// A FusedRowsKernel instance: the rows of the blocked path's transposed blocks go through it when their
// operands allow (BlockedTile), so it is picked by dtype per tile rather than in phase 1.
using FusedRowsFunction = void (*)(const KernelConfig& config, const FusedRows& a);

template <class Op>
FusedRowsFunction ChooseFusedRows(ElementType in, ElementType out, bool stream) {
    return WithElementType(in, [&](auto in_type) {
        return WithElementType(out, [&](auto out_type) -> FusedRowsFunction {
            constexpr ElementType kIn = decltype(in_type)::value, kOut = decltype(out_type)::value;
            return stream ? &FusedRowsKernel<Op, kIn, kOut, true> : &FusedRowsKernel<Op, kIn, kOut, false>;
        });
    });
}

// ---- the blocked path --------------------------------------------------------------------------------------

// Computes a block and hands each result vector to store(i, vector), i = 0, lanes, ... < padded.
template <class Op, class Store>
HWY_INLINE void ComputeBlock(const KernelConfig& config, const TileOperand* in, const float* const* values,
                             int64_t padded, Store&& store) {
    constexpr int kScaled = Op::kScaledInput;
    const DF df;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
    const auto scale_by = hn::Set(df, config.input_scale);
    const bool scale = kScaled >= 0 && config.input_scale != 1.0f;
    const ElementType promote = config.promote;
    // Rounding to the promote type changes nothing when out has that very type: narrowing rounds the same way.
    // A sum keeps the fp32 values (the reduction rounds its result once, at the end).
    const bool round = promote != ElementType::kFloat32 && promote != config.out_type() &&
                       config.output == OutputMode::kStore;
    // Input k of the vector at element i (broadcasts come from the tile's scalar).
    auto input = [&](int k, int64_t i) {
        auto v = in[k].broadcast ? hn::Set(df, in[k].value) : hn::LoadU(df, values[k] + i);
        if (kScaled >= 0 && k == kScaled && scale) v = hn::Mul(v, scale_by);
        return v;
    };
    auto apply = [&](int64_t i) { return ApplyTo<Op>(df, [&](int k) { return input(k, i); }); };
    int64_t i = 0;
    // Two independent vectors per step, as in the fused path, so that long dependency chains interleave.
    for (; i + 2 * lanes <= padded; i += 2 * lanes) {
        ApplyToTwo<Op>(df, input, i, i + lanes, [&](hn::Vec<DF> r, hn::Vec<DF> r2) {
            store(i, round ? RoundToType(df, promote, r) : r);
            store(i + lanes, round ? RoundToType(df, promote, r2) : r2);
        });
    }
    for (; i < padded; i += lanes) {
        const auto r = apply(i);
        store(i, round ? RoundToType(df, promote, r) : r);
    }
}

// The rows [first_row, end_row) of a tile whose operands the fused row kernel can read once those that run
// down the columns (transposed views) are transposed: in bands of up to kBandRows whole rows. Each band's
// transposed operands are transposed into a buffer first (their lines asked for kBandPrefetchColumns columns
// ahead), then the band goes through the row kernel in one call, reading the buffer like a contiguous input
// and every other operand along whole rows -- long runs that the hardware prefetchers follow, where the 32 x
// 128 blocks of BlockedTile read runs of 512 bytes. A transposed column is then a run of up to kBandRows
// elements (512 bytes in fp32) rather than 32. Returns false, having done nothing, when a band of at least
// kMinBandRows rows does not fit kBandBytes or the buffer cannot be had; the blocks then do the rows.
constexpr int64_t kBandRows = 128;
constexpr int64_t kMinBandRows = 16;
constexpr int64_t kBandBytes = int64_t{4} << 20;  // about: the transposed inputs' rows of a band, together
constexpr int64_t kBandPrefetchColumns = 32;
inline bool FusedRowsInBands(const KernelConfig& config, const Tile& tile, const TileOperand* ops, int inputs,
                             int64_t first_row, int64_t end_row, FusedRowsFunction fused_rows) {
    const int64_t inner = tile.inner_size;
    int transposed = 0;
    for (int k = 0; k < inputs; ++k) transposed += RunsDownColumns(ops[k]) ? 1 : 0;
    // Fused rows have one input dtype. Whole lines of a transposed column per band: with 124 rows rather than
    // 128 the bands shared lines and the 64M benchmark lost a fifth.
    const int64_t size = ops[0].size, line_rows = kCacheLine / size;
    const int64_t band_rows =
        std::min(kBandRows, kBandBytes / (inner * size * std::max(transposed, 1))) / line_rows * line_rows;
    if (band_rows < kMinBandRows) return false;
    // A line more than a row: with a power-of-two pitch a column's elements would land in the same L1 sets of
    // the buffer's rows, where the transposes' stores evict each other (that ran at a third of the speed).
    const int64_t pitch = inner * size + kCacheLine;
    // A tile of fewer rows (one matrix of a batch, say) needs a buffer of only those rows.
    const int64_t buffer_rows = std::min(band_rows, end_row - first_row);
    std::unique_ptr<char[]> buffer(new (std::nothrow) char[static_cast<size_t>(transposed * buffer_rows * pitch)]);
    if (buffer == nullptr) return false;
    const TileOperand& out = ops[inputs];
    for (int64_t band = first_row; band < end_row; band += band_rows) {
        const int64_t rows = std::min(band_rows, end_row - band);
        FusedRows a;
        char* next_buffer = buffer.get();
        for (int k = 0; k < inputs; ++k) {
            const TileOperand& op = ops[k];
            a.in_constant[k] = false;
            if (RunsDownColumns(op)) {
                TransposeColumns(op, op.origin + band * op.outer, rows, inner, next_buffer, pitch, kBandPrefetchColumns);
                a.in[k] = next_buffer;
                a.in_outer[k] = pitch;
                next_buffer += buffer_rows * pitch;
            } else {
                a.in[k] = op.origin + band * op.outer;
                a.in_outer[k] = op.outer;
                a.in_constant[k] = op.inner == 0;
            }
        }
        a.out = tile.origin[inputs] + band * out.outer;
        a.out_outer = out.outer;
        a.rows = rows;
        a.count = inner;
        fused_rows(config, a);
    }
    return true;
}

// Any dtypes, any strides: blocks of kBlock elements through fp32 buffers; stores, scatters or sums.
template <class Op>
void BlockedTile(const KernelConfig& config, const Tile& tile, SumAccumulator* sums) {
    constexpr int kInputs = Op::kInputs;
    const DF df;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
    HWY_ALIGN float buffers[kInputs][kBlock];
    // Raw elements: a gathered block of kBlock, or a transposed block of 16-bit elements.
    HWY_ALIGN char raw[std::max<int64_t>(kBlock * sizeof(float), kTileRows * kTileColumns * 2)];
    const bool summing = config.output == OutputMode::kSum;

    TileOperand ops[kInputs + 1];
    for (int k = 0; k <= kInputs; ++k) {
        TileOperand& op = ops[k];
        op.type = config.types[k];
        op.size = ElementSize(op.type);
        op.origin = tile.origin[k];
        op.inner = tile.inner_stride[k];
        op.outer = tile.outer_stride[k];
        op.broadcast = k != kInputs && op.inner == 0 && op.outer == 0;
        op.value = op.broadcast ? ElementAsFloat(op.type, op.origin) : 0.0f;
    }
    const TileOperand& out = ops[kInputs];
    const ElementType out_type = out.type;

    // One block of up to kBlock consecutive elements (row-major within the tile). given[k], when not null,
    // holds input k's fp32 values already (a row of a transposed block).
    auto process = [&](int64_t first, int64_t len, const float* const* given) {
        const int64_t padded = (len + lanes - 1) / lanes * lanes;
        const float* values[kMaxInputs] = {};
        for (int k = 0; k < kInputs; ++k) {
            if (given != nullptr && given[k] != nullptr) {
                values[k] = given[k];
            } else if (!ops[k].broadcast) {
                values[k] = InputBlock(ops[k], tile.inner_size, first, len, padded, buffers[k], raw);
            }
        }
        if (summing) {
            float* results = reinterpret_cast<float*>(raw);  // the gathers of this block are done with raw
            ComputeBlock<Op>(config, ops, values, padded,
                             [&](int64_t i, hn::Vec<DF> r) { hn::Store(r, df, results + i); });
            AccumulateSums(results, len, tile.linear_origin + first, sums);
            return;
        }
        char* direct = len == padded ? const_cast<char*>(ContiguousBlock(out, tile.inner_size, first, len)) : nullptr;
        const bool stream = direct != nullptr && config.stream_stores && out_type == ElementType::kFloat32 &&
                            reinterpret_cast<uintptr_t>(direct) % (static_cast<uintptr_t>(lanes) * 4) == 0;
        if (stream) {
            ComputeBlock<Op>(config, ops, values, padded,
                             [&](int64_t i, hn::Vec<DF> r) { StoreAsType<true>(df, out_type, r, direct + i * 4); });
        } else if (direct != nullptr) {
            ComputeBlock<Op>(config, ops, values, padded, [&](int64_t i, hn::Vec<DF> r) {
                StoreAsType<false>(df, out_type, r, direct + i * out.size);
            });
        } else {
            ComputeBlock<Op>(config, ops, values, padded, [&](int64_t i, hn::Vec<DF> r) {
                StoreAsType<false>(df, out_type, r, raw + i * out.size);
            });
            Scatter(raw, out, tile.inner_size, first, len);
        }
    };
    auto linear = [&](int64_t begin, int64_t end) {
        for (int64_t first = begin; first < end; first += kBlock)
            process(first, std::min(kBlock, end - first), nullptr);
    };

    // An operand that jumps more than a cache line between neighbours in a row (a transposed view) would
    // touch a new line for every element. Whole rows are then visited in blocks of kTileRows x kTileColumns,
    // so the lines one row touches are still in cache for the next rows of the block; an operand that runs
    // down the columns is read a column at a time and transposed in L1, and the next block's lines are
    // prefetched. Not for sums, whose order of additions must be the linear order.
    bool wide_steps = false;
    for (int k = 0; k <= kInputs; ++k) wide_steps = wide_steps || std::abs(ops[k].inner) > kCacheLine;
    const int64_t inner = tile.inner_size;
    const int64_t first_row = (tile.first + inner - 1) / inner, end_row = tile.last / inner;
    if (summing || !wide_steps || end_row - first_row < 2 || inner < kTileColumns) {
        linear(tile.first, tile.last);
        return;
    }
    HWY_ALIGN float transposed[kInputs][kTileRows * kTileColumns];
    const float* given[kMaxInputs] = {};
    // How many rows ahead of the one computing the operands read along rows are asked for (1, 2 and 4
    // measured alike on the Zen 5; a whole block ahead was slower, see prefetch_part).
    constexpr int64_t kRowsAhead = 2;
    // When the operands not transposed could take the fused path (one dtype for all inputs, each contiguous
    // or constant along rows, out contiguous along rows), the rows go through the fused row kernel: in bands
    // of whole rows (FusedRowsInBands), or where no band fits, a block's rows one at a time. The kernel
    // reads the transposed operands, kept in their dtype, from a buffer like contiguous ones: the same
    // instructions per vector, so the same bits, without the per-block buffers and checks of `process`
    // (in cache the transposed backward ran at about a third of the contiguous rate without it).
    FusedRowsFunction fused_rows = nullptr;
#if !ACLNN_CPU_BLOCKED_KERNELS_ONLY
    bool rows_fusable = out.inner == out.size;
    for (int k = 0; k < kInputs; ++k) {
        const TileOperand& op = ops[k];
        rows_fusable = rows_fusable && op.type == ops[0].type &&
                       (RunsDownColumns(op) || op.inner == 0 || op.inner == op.size);
    }
    if (rows_fusable) {
        // Streaming stores need every row of the blocks to start on a vector boundary (kTileColumns is a
        // multiple of the lanes).
        const uintptr_t vector_bytes = static_cast<uintptr_t>(lanes * out.size);
        const bool aligned = reinterpret_cast<uintptr_t>(out.origin) % vector_bytes == 0 &&
                             static_cast<uintptr_t>(out.outer) % vector_bytes == 0;
        fused_rows = ChooseFusedRows<Op>(ops[0].type, out_type, config.stream_stores && aligned);
    }
#endif
    linear(tile.first, first_row * inner);  // a partial first row
    const bool in_bands =
        fused_rows != nullptr && FusedRowsInBands(config, tile, ops, kInputs, first_row, end_row, fused_rows);
    for (int64_t band = first_row; !in_bands && band < end_row; band += kTileRows) {
        const int64_t rows = std::min(kTileRows, end_row - band);
        for (int64_t column = 0; column < inner; column += kTileColumns) {
            const int64_t columns = std::min(kTileColumns, inner - column);
            // The next block: along the band, else the start of the next band.
            const bool band_ends = column + kTileColumns >= inner;
            const int64_t next_row = band_ends ? band + kTileRows : band;
            const int64_t next_column = band_ends ? 0 : column + kTileColumns;
            const bool prefetch = next_row < end_row;
            const int64_t next_rows = std::min(kTileRows, end_row - next_row);
            const int64_t next_columns = std::min(kTileColumns, inner - next_column);
            // While row `part` of the block computes: part `part` of the next block's transposed columns, and
            // the row kRowsAhead further of each operand read along rows (into the next block at the end).
            // Asked for a whole block ahead, those rows' lines were evicted before use: with a power-of-two
            // pitch every row of a block lands in the same few L1 sets.
            auto prefetch_part = [&](int64_t part) {
                for (int k = 0; k < kInputs; ++k) {
                    const TileOperand& op = ops[k];
                    if (RunsDownColumns(op)) {
                        if (prefetch) PrefetchColumnsPart(op, next_row, next_column, next_rows, next_columns, part);
                    } else if (op.inner == op.size) {
                        const int64_t ahead = part + kRowsAhead;
                        if (ahead < rows) {
                            PrefetchRow(op, band + ahead, column, columns);
                        } else if (prefetch && ahead - rows < next_rows) {
                            PrefetchRow(op, next_row + ahead - rows, next_column, next_columns);
                        }
                    }
                }
            };
            for (int k = 0; k < kInputs; ++k) {
                given[k] = nullptr;
                if (!RunsDownColumns(ops[k])) continue;
                if (fused_rows != nullptr) {
                    TransposeBlockRaw(ops[k], band, column, rows, columns, reinterpret_cast<char*>(transposed[k]));
                } else {
                    TransposeBlock(ops[k], band, column, rows, columns, transposed[k], raw);
                }
                given[k] = transposed[k];
            }
            for (int64_t r = 0; r < rows; ++r) {
                prefetch_part(r);
                if (fused_rows != nullptr) {
                    // One row per call, so the next block's prefetches stay spread between the rows.
                    FusedRows a;
                    for (int k = 0; k < kInputs; ++k) {
                        const TileOperand& op = ops[k];
                        a.in[k] = given[k] != nullptr
                                      ? reinterpret_cast<const char*>(given[k]) + r * kTileColumns * op.size
                                      : op.origin + (band + r) * op.outer + column * op.inner;
                        a.in_outer[k] = 0;
                        a.in_constant[k] = given[k] == nullptr && op.inner == 0;
                    }
                    a.out = tile.origin[kInputs] + (band + r) * out.outer + column * out.size;
                    a.out_outer = 0;
                    a.rows = 1;
                    a.count = columns;
                    fused_rows(config, a);
                    continue;
                }
                process((band + r) * inner + column, columns, given);
                for (int k = 0; k < kInputs; ++k)
                    if (given[k] != nullptr) given[k] += kTileColumns;
            }
            for (int64_t part = rows; part < kTileRows; ++part) prefetch_part(part);
        }
    }
    linear(end_row * inner, tile.last);  // a partial last row
}

// ---- the choice, made in phase 1 ---------------------------------------------------------------------------

template <class Op>
TileKernel ChooseFusedSum(ElementType in) {
#if ACLNN_CPU_SUM_LANE_VECTORS
    return WithElementType(in, [](auto in_type) -> TileKernel { return &FusedSumTile<Op, decltype(in_type)::value>; });
#else
    (void)in;
    return &BlockedTile<Op>;
#endif
}

// The tile function for config on this target: the fused instance for its dtypes when the engine found the
// tiles fusable, the blocked path otherwise.
template <class Op>
TileKernel ChooseTileKernel(const KernelConfig& config, bool fusable) {
#if ACLNN_CPU_BLOCKED_KERNELS_ONLY
    // The fuzz build: every tile takes the blocked path (the same bits), which spares the sanitized compiler the
    // fused instances. The test suites run both paths under the sanitizers.
    (void)config, (void)fusable;
    return &BlockedTile<Op>;
#else
    if (!fusable) return &BlockedTile<Op>;
    bool one_type = true;
    for (int k = 1; k < config.num_inputs; ++k) one_type = one_type && config.types[k] == config.types[0];
    if (config.output == OutputMode::kSum) return one_type ? ChooseFusedSum<Op>(config.types[0]) : &BlockedTile<Op>;
    if (!one_type) {
        // Inputs of different dtypes: each loaded in its own (a branch per load, taken the same way all along,
        // before the functor's branch-free stretch).
        return WithElementType(config.out_type(), [](auto out_type) -> TileKernel {
            return &FusedTile<Op, kMixedTypes, decltype(out_type)::value>;
        });
    }
    return WithElementType(config.types[0], [&](auto in_type) {
        return WithElementType(config.out_type(), [](auto out_type) -> TileKernel {
            return &FusedTile<Op, decltype(in_type)::value, decltype(out_type)::value>;
        });
    });
#endif
}

}  // namespace aclnn_cpu::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // include guard
