// The fused path's stores: rows of a tile go straight from the inputs' memory through the functor to out,
// one instance per dtype pair (BFLOAT16 in even/odd pairs), with streaming stores for large outputs and
// tails through the same vector code on zero-padded copies. Included by elementwise_tiles-inl.h inside each
// target's namespace pass.

// Include guard toggled per target, as Highway's per-target headers require.
#if defined(ACLNN_CPU_KERNELS_FUSED_ROWS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLNN_CPU_KERNELS_FUSED_ROWS_INL_H_
#undef ACLNN_CPU_KERNELS_FUSED_ROWS_INL_H_
#else
#define ACLNN_CPU_KERNELS_FUSED_ROWS_INL_H_
#endif

#include <cstdint>
#include <type_traits>
#include <cstring>

#include "hwy/highway.h"
#include "kernels/functor_application-inl.h"
#include "kernels/operand_access-inl.h"
#include "kernels/simd_support.h"
#include "kernels/tile_kernel.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Whether Op declares kCheap = true: a few vector instructions per result, so that a sum of it issues its loads
// often enough for the hardware prefetcher alone (SumPrefetchBytes).
template <class Op, class = void>
constexpr bool kCheapFunctor = false;
template <class Op>
constexpr bool kCheapFunctor<Op, std::void_t<decltype(Op::kCheap)>> = Op::kCheap;

// The kIn of a fused instance whose inputs have different dtypes, read from the KernelConfig at run time (not
// an element type: no operand has it).
constexpr ElementType kMixedTypes = static_cast<ElementType>(0xff);

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
    RowInputs(const KernelConfig& config, const Op& functor, const FusedRows& a, int64_t row)
        : op(functor), rows(a), scale(config.input_scale) {
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
        return ApplyTo(op, DF(), [&](int k) { return Load(k, from, i); });
    }
    // Copies the count (< one vector) elements at element i of the row to tail, for Apply(tails, 0).
    void CopyEnd(int64_t i, int64_t count, char (*tail)[hn::MaxLanes(DF()) * sizeof(float)],
                 const char** tails) const {
        for (int k = 0; k < Op::kInputs; ++k) {
            tails[k] = tail[k];
            if (!rows.in_constant[k]) std::memcpy(tail[k], p[k] + i * InSize(k), static_cast<size_t>(count * InSize(k)));
        }
    }
    // Asks for the cache lines of the elements [i, i + count) of every input that varies along the row,
    // `ahead` bytes before they are loaded. A sum only reads, and with a few vector instructions between one
    // line's loads and the next the demand loads (and the hardware prefetchers they train) keep too few lines in
    // flight to reach the memory's speed. Past an input's end these only name lines that are never read:
    // prefetches do not fault.
    HWY_INLINE void PrefetchAhead(int64_t i, int64_t count, int64_t ahead) const {
        for (int k = 0; k < Op::kInputs; ++k) {
            if (rows.in_constant[k]) continue;
            const int64_t bytes = count * InSize(k);
            const char* at = p[k] + i * InSize(k) + ahead;
            for (int64_t b = 0; b < bytes; b += kCacheLine) PrefetchLine<PrefetchTo::kL1>(at + b);
        }
    }
    // Input k's dtype and element size: constants of the instance, except with mixed dtypes.
    HWY_INLINE ElementType Type(int k) const { return kIn == kMixedTypes ? type[k] : kIn; }
    HWY_INLINE int64_t InSize(int k) const { return ElementSize(Type(k)); }

    const Op& op;
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
    const Op op = MakeFunctor<Op>(config);
    for (int64_t row = 0; row < a.rows; ++row) {
        const RowInputs<Op, kIn> inputs(config, op, a, row);
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
                const auto even = ApplyTo(op, df, [&](int k) { return half(k, false); });
                const auto odd = ApplyTo(op, df, [&](int k) { return half(k, true); });
                const auto packed = NarrowBf16Pair(df, even, odd, hardware_bf16);
                uint16_t* to = reinterpret_cast<uint16_t*>(out + i * kOutSize);
                if (stream_pairs) hn::Stream(packed, du16, to); else hn::StoreU(packed, du16, to);
            }
        }
#endif
        // Two independent vectors per step: the functor's long dependency chains (exp, log, division)
        // interleave, where one at a time would leave the out-of-order window waiting on a single chain.
        FormStart form_start;
        for (; i + 2 * lanes <= full; i += 2 * lanes) {
            ApplyToTwo(op, df, form_start, [&](int k, int64_t at) { return inputs.Load(k, p, at); }, i, i + lanes,
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

}  // namespace aclnn_cpu::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // include guard
