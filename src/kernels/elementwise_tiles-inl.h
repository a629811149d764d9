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
// A tile (engine::Tile: the two innermost dims of the iteration) goes one of two ways, chosen in phase 1:
//   fused   -- every input is contiguous or constant along rows, all inputs share one dtype and out is
//              contiguous along rows: rows go straight from memory through the functor to memory, with the
//              dtypes as template arguments (and BFLOAT16 in even/odd pairs);
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
#include <cstring>

#include "hwy/cache_control.h"
#include "hwy/highway.h"
#include "kernels/simd_support.h"
#include "kernels/tile_kernel.h"
#include "kernels/vector_convert-inl.h"

#ifndef ACLNN_CPU_BLOCKED_KERNELS_ONLY
#define ACLNN_CPU_BLOCKED_KERNELS_ONLY 0
#endif

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

constexpr int64_t kBlock = 512;  // elements per block: 2 KiB per fp32 buffer; all buffers stay in L1

using DF = hn::ScalableTag<float>;
using DU = hn::RebindToUnsigned<DF>;
using DU16 = hn::Rebind<uint16_t, DF>;

HWY_INLINE hn::Vec<DF> RoundToType(DF df, ElementType type, hn::Vec<DF> r) {
    if (type == ElementType::kFloat16) return HalfBitsToFloat(df, FloatToHalfBits(df, r));
    if (type == ElementType::kBFloat16) return Bf16BitsToFloat(df, FloatToBf16Bits(df, r));
    return r;
}

// One vector of `type` elements at p, as fp32.
HWY_INLINE hn::Vec<DF> LoadAsFloat(DF df, ElementType type, const char* p) {
    if (type == ElementType::kFloat32) return hn::LoadU(df, reinterpret_cast<const float*>(p));
#if ACLNN_CPU_HARDWARE_F16
    if (type == ElementType::kFloat16) {
        const hn::Rebind<hwy::float16_t, DF> df16;
        return hn::PromoteTo(df, hn::LoadU(df16, reinterpret_cast<const hwy::float16_t*>(p)));
    }
#endif
    const auto bits = hn::PromoteTo(DU(), hn::LoadU(DU16(), reinterpret_cast<const uint16_t*>(p)));
    return type == ElementType::kFloat16 ? HalfBitsToFloat(df, bits) : Bf16BitsToFloat(df, bits);
}

// One vector of fp32 values stored at p as `type` elements.
template <bool kStream>
HWY_INLINE void StoreAsType(DF df, ElementType type, hn::Vec<DF> v, char* p) {
    if (type == ElementType::kFloat32) {
        float* out = reinterpret_cast<float*>(p);
        if (kStream) hn::Stream(v, df, out); else hn::StoreU(v, df, out);
        return;
    }
    const DU16 du16;
    hn::Vec<DU16> packed;
#if ACLNN_CPU_HARDWARE_F16
    if (type == ElementType::kFloat16) {
        packed = hn::BitCast(du16, hn::DemoteTo(hn::Rebind<hwy::float16_t, DF>(), v));
    } else
#endif
    {
        const auto bits = type == ElementType::kFloat16 ? FloatToHalfBits(df, v) : FloatToBf16Bits(df, v);
        packed = hn::TruncateTo(du16, bits);
    }
    // 16-bit results fill half a vector; callers stream them only where that is at least 16 bytes.
    uint16_t* out = reinterpret_cast<uint16_t*>(p);
    if (kStream) hn::Stream(packed, du16, out); else hn::StoreU(packed, du16, out);
}

// One element at p, widened exactly, in every lane (widening is exact, so this equals what the loads give).
HWY_INLINE hn::Vec<DF> BroadcastAsFloat(DF df, ElementType type, const char* p) {
    if (type == ElementType::kFloat32) {
        float value;
        std::memcpy(&value, p, sizeof value);
        return hn::Set(df, value);
    }
    uint16_t bits;
    std::memcpy(&bits, p, sizeof bits);
    const auto lanes = hn::Set(DU(), static_cast<uint32_t>(bits));
    return type == ElementType::kFloat16 ? HalfBitsToFloat(df, lanes) : Bf16BitsToFloat(df, lanes);
}

// The functor applied to the first Op::kInputs vectors of in.
template <class Op>
HWY_INLINE hn::Vec<DF> Apply(DF df, const hn::Vec<DF>* in) {
    static_assert(Op::kInputs >= 1 && Op::kInputs <= kMaxInputs, "an operator has 1 to kMaxInputs inputs");
    if constexpr (Op::kInputs == 1) {
        return Op()(df, in[0]);
    } else if constexpr (Op::kInputs == 2) {
        return Op()(df, in[0], in[1]);
    } else {
        return Op()(df, in[0], in[1], in[2]);
    }
}

// Whether streaming stores of 16-bit results write exactly one whole vector register (not on 128-bit
// targets, whose 16-bit half vectors are 8 bytes).
constexpr bool kCanStream16 = hn::MaxLanes(DU16()) * sizeof(uint16_t) >= 16;

// ---- sums --------------------------------------------------------------------------------------------------

// Adds values[0, count) -- the elements with linear indices position, position + 1, ... -- to sums, each to
// lanes[index % 16] (SumAccumulator). Whole groups of 16 aligned indices go through float64 vectors; the
// lanes a vector covers are fixed by the index alone, so every SIMD width adds the same values in the same
// order.
HWY_INLINE void AccumulateSums(const float* values, int64_t count, int64_t position, SumAccumulator* sums) {
    double* lanes = sums->lanes;
    int64_t i = 0;
    for (; i < count && (position + i) % kSumLanes != 0; ++i) lanes[(position + i) % kSumLanes] += values[i];
#if HWY_TARGET != HWY_SCALAR && HWY_HAVE_FLOAT64
    const hn::ScalableTag<double> dd;
    const hn::Rebind<float, decltype(dd)> dhalf;
    const int64_t lanes_d = static_cast<int64_t>(hn::Lanes(dd));
    if (lanes_d <= kSumLanes && kSumLanes % lanes_d == 0) {
        HWY_ALIGN double local[kSumLanes];
        std::memcpy(local, lanes, sizeof local);
        for (; i + kSumLanes <= count; i += kSumLanes) {
            for (int64_t g = 0; g < kSumLanes; g += lanes_d) {
                const auto widened = hn::PromoteTo(dd, hn::LoadU(dhalf, values + i + g));
                hn::Store(hn::Add(hn::Load(dd, local + g), widened), dd, local + g);
            }
        }
        std::memcpy(lanes, local, sizeof local);
    }
#endif
    for (; i < count; ++i) lanes[(position + i) % kSumLanes] += values[i];
}

// ---- the fused path ----------------------------------------------------------------------------------------

// Rows of a tile in which every input is contiguous along the row or constant along it (one value per row),
// all inputs have dtype kIn, and out is contiguous along the row with dtype kOut.
struct FusedRows {
    const char* in[kMaxInputs];    // first element of the first row
    int64_t in_outer[kMaxInputs];  // bytes from one row to the next
    bool in_constant[kMaxInputs];  // one value per row (inner stride 0)
    char* out;
    int64_t out_outer;
    int64_t rows;
    int64_t count;  // elements per row
};

template <class Op, ElementType kIn, ElementType kOut, bool kStream>
void FusedRowsKernel(const KernelConfig& config, const FusedRows& a) {
    constexpr int kInputs = Op::kInputs;
    constexpr int kScaled = Op::kScaledInput;
    const DF df;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
    constexpr int64_t kInSize = kIn == ElementType::kFloat32 ? 4 : 2;
    constexpr int64_t kOutSize = kOut == ElementType::kFloat32 ? 4 : 2;
    // The inputs' common dtype is the promote type; rounding to it is implied when out has it too.
    constexpr bool kRound = kIn != ElementType::kFloat32 && kIn != kOut;
    constexpr bool kStreamHere = kStream && (kOut == ElementType::kFloat32 || kCanStream16);
    const auto scale_by = hn::Set(df, config.input_scale);
    const bool scale = kScaled >= 0 && config.input_scale != 1.0f;
    const int64_t full = a.count / lanes * lanes;
    const int64_t rest = a.count - full;
    HWY_ALIGN char tail_in[kMaxInputs][hn::MaxLanes(df) * sizeof(float)] = {};
    HWY_ALIGN char tail_out[hn::MaxLanes(df) * sizeof(float)];
    for (int64_t row = 0; row < a.rows; ++row) {
        const char* p[kMaxInputs];
        hn::Vec<DF> constant[kMaxInputs];
        for (int k = 0; k < kInputs; ++k) {
            p[k] = a.in[k] + row * a.in_outer[k];
            constant[k] = a.in_constant[k] ? BroadcastAsFloat(df, kIn, p[k]) : hn::Zero(df);
        }
        // The pre-scale hook: an input constant along the row is scaled once per row, a varying one per vector.
        bool scale_each = false;
        if constexpr (kScaled >= 0) {
            if (scale && a.in_constant[kScaled]) constant[kScaled] = hn::Mul(constant[kScaled], scale_by);
            scale_each = scale && !a.in_constant[kScaled];
        }
        char* out = a.out + row * a.out_outer;
        // The functor's inputs for the vector at offset i of the row (or of the tail copies).
        auto inputs = [&](hn::Vec<DF>* v, const char* const* from, int64_t i) {
            for (int k = 0; k < kInputs; ++k)
                v[k] = a.in_constant[k] ? constant[k] : LoadAsFloat(df, kIn, from[k] + i * kInSize);
            if constexpr (kScaled >= 0) {
                if (scale_each) v[kScaled] = hn::Mul(v[kScaled], scale_by);
            }
        };
        int64_t i = 0;
#if ACLNN_CPU_BF16_PAIRS
        // All BFLOAT16: two vectors per step, widened and narrowed in even/odd halves (fewer instructions
        // than one vector at a time; the same exact widening and RNE narrowing, so the same bits).
        if constexpr (kIn == ElementType::kBFloat16 && kOut == ElementType::kBFloat16) {
            const hn::Repartition<uint16_t, DF> du16;
            const bool hardware_bf16 = CpuHasAvx512Bf16();
            // A pair fills a whole vector: twice the alignment the caller checked for single vectors.
            const bool stream_pairs = kStreamHere && reinterpret_cast<uintptr_t>(out) % (2 * lanes * kOutSize) == 0;
            for (; i + 2 * lanes <= full; i += 2 * lanes) {
                hn::Vec<DF> even[kMaxInputs], odd[kMaxInputs];
                for (int k = 0; k < kInputs; ++k) {
                    if (a.in_constant[k]) {
                        even[k] = odd[k] = constant[k];
                    } else {
                        const auto bits = hn::LoadU(du16, reinterpret_cast<const uint16_t*>(p[k] + i * kInSize));
                        Bf16PairToFloat(df, bits, even[k], odd[k]);
                    }
                }
                if constexpr (kScaled >= 0) {
                    if (scale_each) {
                        even[kScaled] = hn::Mul(even[kScaled], scale_by);
                        odd[kScaled] = hn::Mul(odd[kScaled], scale_by);
                    }
                }
                const auto packed = NarrowBf16Pair(df, Apply<Op>(df, even), Apply<Op>(df, odd), hardware_bf16);
                uint16_t* to = reinterpret_cast<uint16_t*>(out + i * kOutSize);
                if (stream_pairs) hn::Stream(packed, du16, to); else hn::StoreU(packed, du16, to);
            }
        }
#endif
        hn::Vec<DF> v[kMaxInputs], w[kMaxInputs];
        // Two independent vectors per step: the functor's long dependency chains (exp, log, division)
        // interleave, where one at a time would leave the out-of-order window waiting on a single chain.
        for (; i + 2 * lanes <= full; i += 2 * lanes) {
            inputs(v, p, i);
            inputs(w, p, i + lanes);
            auto r = Apply<Op>(df, v);
            auto r2 = Apply<Op>(df, w);
            if (kRound) {
                r = RoundToType(df, kIn, r);
                r2 = RoundToType(df, kIn, r2);
            }
            StoreAsType<kStreamHere>(df, kOut, r, out + i * kOutSize);
            StoreAsType<kStreamHere>(df, kOut, r2, out + (i + lanes) * kOutSize);
        }
        for (; i < full; i += lanes) {
            inputs(v, p, i);
            auto r = Apply<Op>(df, v);
            if (kRound) r = RoundToType(df, kIn, r);
            StoreAsType<kStreamHere>(df, kOut, r, out + i * kOutSize);
        }
        if (rest == 0) continue;
        // The tail goes through the same vector code on zero-padded copies.
        const char* tails[kMaxInputs];
        for (int k = 0; k < kInputs; ++k) {
            tails[k] = tail_in[k];
            if (!a.in_constant[k]) std::memcpy(tail_in[k], p[k] + full * kInSize, static_cast<size_t>(rest * kInSize));
        }
        inputs(v, tails, 0);
        auto r = Apply<Op>(df, v);
        if (kRound) r = RoundToType(df, kIn, r);
        StoreAsType<false>(df, kOut, r, tail_out);
        std::memcpy(out + full * kOutSize, tail_out, static_cast<size_t>(rest * kOutSize));
    }
}

// A tile whose rows are all fusable (the engine checked the strides and dtypes in phase 1).
template <class Op, ElementType kIn, ElementType kOut>
void FusedTile(const KernelConfig& config, const engine::Tile& tile, SumAccumulator* /*sums: kStore only*/) {
    constexpr int kInputs = Op::kInputs;
    const DF df;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
    const int64_t in_size = ElementSize(kIn), out_size = ElementSize(kOut);
    // Rows merge into one run where every operand continues seamlessly from one row to the next.
    bool seamless = tile.outer_stride[kInputs] == tile.inner_size * out_size;
    for (int k = 0; k < kInputs; ++k) {
        seamless = seamless && (tile.inner_stride[k] == 0 ? tile.outer_stride[k] == 0
                                                           : tile.outer_stride[k] == tile.inner_size * in_size);
    }
    const int64_t row_length = seamless ? tile.last : tile.inner_size;
    auto run = [&](int64_t row, int64_t column, int64_t rows, int64_t count) {
        FusedRows a;
        for (int k = 0; k < kInputs; ++k) {
            a.in[k] = tile.origin[k] + row * tile.outer_stride[k] + column * tile.inner_stride[k];
            a.in_outer[k] = tile.outer_stride[k];
            a.in_constant[k] = tile.inner_stride[k] == 0;
        }
        a.out = tile.origin[kInputs] + row * tile.outer_stride[kInputs] + column * out_size;
        a.out_outer = tile.outer_stride[kInputs];
        a.rows = rows;
        a.count = count;
        // Streaming stores need every row to start on a vector boundary.
        const uintptr_t vector_bytes = static_cast<uintptr_t>(lanes * out_size);
        const bool aligned = reinterpret_cast<uintptr_t>(a.out) % vector_bytes == 0 &&
                             (rows == 1 || static_cast<uintptr_t>(a.out_outer) % vector_bytes == 0);
        if (config.stream_stores && aligned) {
            FusedRowsKernel<Op, kIn, kOut, true>(config, a);
        } else {
            FusedRowsKernel<Op, kIn, kOut, false>(config, a);
        }
    };
    // A partial first row, the whole rows, a partial last row.
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

// ---- the blocked path --------------------------------------------------------------------------------------

// An operand as the blocked path sees it within one tile.
struct TileOperand {
    ElementType type;
    int64_t size;  // bytes per element
    const char* origin;
    int64_t inner, outer;  // byte strides
    bool broadcast;        // one value for the whole tile
    hn::Vec<DF> value;     // that value, when broadcast
};

// Visits [first, first + len) of the tile (row-major) as runs within rows: visit(address, count, done).
template <class Visit>
HWY_INLINE void ForEachRun(const TileOperand& op, int64_t inner_size, int64_t first, int64_t len, Visit&& visit) {
    int64_t done = 0;
    while (done < len) {
        const int64_t row = (first + done) / inner_size, column = (first + done) % inner_size;
        const int64_t count = inner_size - column < len - done ? inner_size - column : len - done;
        visit(op.origin + row * op.outer + column * op.inner, count, done);
        done += count;
    }
}

// Copies count elements of type T between a strided address and a dense buffer (stride 0 repeats one).
template <typename T>
HWY_INLINE void CopyIn(const char* src, int64_t stride, int64_t count, char* HWY_RESTRICT dst) {
    T* to = reinterpret_cast<T*>(dst);
    for (int64_t i = 0; i < count; ++i) std::memcpy(&to[i], src + i * stride, sizeof(T));
}
template <typename T>
HWY_INLINE void CopyOut(const char* HWY_RESTRICT src, int64_t count, char* dst, int64_t stride) {
    const T* from = reinterpret_cast<const T*>(src);
    for (int64_t i = 0; i < count; ++i) std::memcpy(dst + i * stride, &from[i], sizeof(T));
}

// Copies the raw elements [first, first + len) of the tile to dst, zero-padding to padded.
inline void Gather(const TileOperand& op, int64_t inner_size, int64_t first, int64_t len, int64_t padded,
                   char* HWY_RESTRICT dst) {
    ForEachRun(op, inner_size, first, len, [&](const char* src, int64_t count, int64_t done) {
        char* to = dst + done * op.size;
        if (op.inner == op.size) {
            std::memcpy(to, src, static_cast<size_t>(count * op.size));
        } else if (op.size == 4) {
            CopyIn<uint32_t>(src, op.inner, count, to);
        } else {
            CopyIn<uint16_t>(src, op.inner, count, to);
        }
    });
    std::memset(dst + len * op.size, 0, static_cast<size_t>((padded - len) * op.size));
}

inline void Scatter(const char* HWY_RESTRICT src, const TileOperand& op, int64_t inner_size, int64_t first,
                    int64_t len) {
    ForEachRun(op, inner_size, first, len, [&](const char* address, int64_t count, int64_t done) {
        char* to = const_cast<char*>(address);
        const char* from = src + done * op.size;
        if (op.inner == op.size) {
            std::memcpy(to, from, static_cast<size_t>(count * op.size));
        } else if (op.size == 4) {
            CopyOut<uint32_t>(from, count, to, op.inner);
        } else {
            CopyOut<uint16_t>(from, count, to, op.inner);
        }
    });
}

// Address of element `first` when [first, first + len) is contiguous in memory, else nullptr.
inline const char* ContiguousBlock(const TileOperand& op, int64_t inner_size, int64_t first, int64_t len) {
    if (op.inner != op.size) return nullptr;
    const int64_t row = first / inner_size, column = first % inner_size;
    const bool one_row = column + len <= inner_size;
    if (!one_row && op.outer != inner_size * op.size) return nullptr;
    return op.origin + row * op.outer + column * op.inner;
}

// The fp32 values of an input block: in place for contiguous fp32, otherwise widened into buffer.
inline const float* InputBlock(const TileOperand& op, int64_t inner_size, int64_t first, int64_t len,
                               int64_t padded, float* HWY_RESTRICT buffer, char* HWY_RESTRICT raw) {
    const DF df;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
    const char* src = len == padded ? ContiguousBlock(op, inner_size, first, len) : nullptr;
    if (src != nullptr && op.type == ElementType::kFloat32) return reinterpret_cast<const float*>(src);
    if (src == nullptr) {
        Gather(op, inner_size, first, len, padded, raw);
        src = raw;
    }
    for (int64_t i = 0; i < padded; i += lanes) hn::Store(LoadAsFloat(df, op.type, src + i * op.size), df, buffer + i);
    return buffer;
}

// Computes a block and hands each result vector to store(i, vector), i = 0, lanes, ... < padded.
template <class Op, class Store>
HWY_INLINE void ComputeBlock(const KernelConfig& config, const TileOperand* in, const float* const* values,
                             int64_t padded, Store&& store) {
    constexpr int kInputs = Op::kInputs;
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
    hn::Vec<DF> v[kMaxInputs], w[kMaxInputs];
    auto inputs = [&](hn::Vec<DF>* to, int64_t i) {
        for (int k = 0; k < kInputs; ++k) to[k] = in[k].broadcast ? in[k].value : hn::LoadU(df, values[k] + i);
        if constexpr (kScaled >= 0) {
            if (scale) to[kScaled] = hn::Mul(to[kScaled], scale_by);
        }
    };
    int64_t i = 0;
    // Two independent vectors per step, as in the fused path, so that long dependency chains interleave.
    for (; i + 2 * lanes <= padded; i += 2 * lanes) {
        inputs(v, i);
        inputs(w, i + lanes);
        const auto r = Apply<Op>(df, v);
        const auto r2 = Apply<Op>(df, w);
        store(i, round ? RoundToType(df, promote, r) : r);
        store(i + lanes, round ? RoundToType(df, promote, r2) : r2);
    }
    for (; i < padded; i += lanes) {
        inputs(v, i);
        const auto r = Apply<Op>(df, v);
        store(i, round ? RoundToType(df, promote, r) : r);
    }
}

// Any dtypes, any strides: blocks of kBlock elements through fp32 buffers; stores, scatters or sums.
template <class Op>
void BlockedTile(const KernelConfig& config, const engine::Tile& tile, SumAccumulator* sums) {
    constexpr int kInputs = Op::kInputs;
    const DF df;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
    HWY_ALIGN float buffers[kInputs][kBlock];
    HWY_ALIGN char raw[kBlock * sizeof(float)];
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
        op.value = op.broadcast ? BroadcastAsFloat(df, op.type, op.origin) : hn::Zero(df);
    }
    const TileOperand& out = ops[kInputs];
    const ElementType out_type = out.type;

    // One block of up to kBlock consecutive elements (row-major within the tile).
    auto process = [&](int64_t first, int64_t len) {
        const int64_t padded = (len + lanes - 1) / lanes * lanes;
        const float* values[kMaxInputs] = {};
        for (int k = 0; k < kInputs; ++k) {
            if (!ops[k].broadcast) values[k] = InputBlock(ops[k], tile.inner_size, first, len, padded, buffers[k], raw);
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
        for (int64_t first = begin; first < end; first += kBlock) process(first, std::min(kBlock, end - first));
    };

    // An operand that jumps more than a cache line between neighbours in a row (a transposed view) would
    // touch a new line for every element. Whole rows are then visited in bands of kBandRows rows, a few
    // columns at a time, so the lines one row touches are still in cache for the next rows of the band (few
    // enough lines that even a power-of-two stride, which maps them all to one cache set, keeps them in L2).
    // Not for sums, whose order of additions must be the linear order.
    bool wide_steps = false;
    for (int k = 0; k <= kInputs; ++k) wide_steps = wide_steps || ops[k].inner > 64 || ops[k].inner < -64;
    const int64_t inner = tile.inner_size;
    const int64_t first_row = (tile.first + inner - 1) / inner, end_row = tile.last / inner;
    if (summing || !wide_steps || end_row - first_row < 2 || inner <= kBlock) {
        linear(tile.first, tile.last);
        return;
    }
    constexpr int64_t kBandRows = 16;
    constexpr int64_t kBandColumns = 64;
    linear(tile.first, first_row * inner);  // a partial first row
    for (int64_t band = first_row; band < end_row; band += kBandRows) {
        const int64_t band_end = std::min(end_row, band + kBandRows);
        for (int64_t column = 0; column < inner; column += kBandColumns) {
            const int64_t len = std::min(kBandColumns, inner - column);
            for (int64_t row = band; row < band_end; ++row) process(row * inner + column, len);
        }
    }
    linear(end_row * inner, tile.last);  // a partial last row
}

// ---- the choice, made in phase 1 ---------------------------------------------------------------------------

template <class Op, ElementType kIn>
TileKernel ChooseFusedOut(ElementType out) {
    switch (out) {
        case ElementType::kFloat16: return &FusedTile<Op, kIn, ElementType::kFloat16>;
        case ElementType::kBFloat16: return &FusedTile<Op, kIn, ElementType::kBFloat16>;
        default: return &FusedTile<Op, kIn, ElementType::kFloat32>;
    }
}

// The tile function for config on this target: the fused instance for its dtypes when the engine found the
// tiles fusable and the values are stored, the blocked path otherwise.
template <class Op>
TileKernel ChooseTileKernel(const KernelConfig& config, bool fusable) {
#if ACLNN_CPU_BLOCKED_KERNELS_ONLY
    // The fuzz build: every tile takes the blocked path (the same bits), which spares the sanitized compiler the
    // fused instances. The test suites run both paths under the sanitizers.
    (void)config, (void)fusable;
    return &BlockedTile<Op>;
#else
    if (!fusable || config.output != OutputMode::kStore) return &BlockedTile<Op>;
    switch (config.types[0]) {
        case ElementType::kFloat16: return ChooseFusedOut<Op, ElementType::kFloat16>(config.out_type());
        case ElementType::kBFloat16: return ChooseFusedOut<Op, ElementType::kBFloat16>(config.out_type());
        default: return ChooseFusedOut<Op, ElementType::kFloat32>(config.out_type());
    }
#endif
}

}  // namespace aclnn_cpu::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // include guard
