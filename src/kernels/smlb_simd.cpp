// Highway kernels for aclnnSoftMarginLossBackward, compiled once per SIMD target (foreach_target) and chosen
// at run time, so a build without -march runs at the full width of the CPU it runs on.
//
// A tile is processed in blocks of kBlock elements in three stages, each always vectorised:
//   1. widen: each input's block becomes fp32 (contiguous fp32 is read in place; FLOAT16/BFLOAT16 are widened
//      into an L1-resident buffer; strided and broadcast-by-row inputs are first gathered as raw bits; an
//      input broadcast over the whole tile is one value in every lane);
//   2. compute: CANN's fp32 sequence, then rounding to the promote type;
//   3. narrow: into out's dtype, stored straight to a contiguous out (streaming stores for large outputs),
//      otherwise through a raw buffer scattered to out's addresses.
// Tails are padded to whole vectors, so every element meets exactly the same instructions wherever it lies.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/smlb_simd.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include <algorithm>
#include <cstring>
#include <limits>

#include "hwy/cache_control.h"
#include "hwy/contrib/math/math-inl.h"
#include "hwy/highway.h"
#include "kernels/smlb_simd.h"
#include "kernels/vector_convert-inl.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

constexpr int64_t kBlock = 512;  // elements per block: 2 KiB per fp32 buffer; all buffers stay in L1

using DF = hn::ScalableTag<float>;
using DU = hn::RebindToUnsigned<DF>;
using DI = hn::RebindToSigned<DF>;
using DU16 = hn::Rebind<uint16_t, DF>;

// exp(t) with IEEE behaviour. Highway's Exp is accurate (1 ulp) up to +104 and overflows to +inf correctly
// there, but gives garbage further up and maps NaN to 0. Replacing every t that is not <= 100 by 100 fixes
// both: anything above 100 gives +inf, and so does a NaN t -- which still yields NaN below, because
// e = +inf makes the quotient (-y*e)/(e+1) NaN, and every NaN t comes from a NaN (or inf*0) input that the
// operator must turn into NaN anyway. On x86 (every target, the scalar one included) Min(t, bound) returns
// bound when t is NaN, so one instruction does it; elsewhere Min may return the NaN, hence the blend.
HWY_INLINE hn::Vec<DF> ClampedExp(DF df, hn::Vec<DF> t) {
    const auto bound = hn::Set(df, 100.0f);
#if HWY_ARCH_X86
    return hn::Exp(df, hn::Min(t, bound));
#else
    return hn::Exp(df, hn::IfThenElse(hn::Le(t, bound), t, bound));
#endif
}

// CANN's kernel, in its order: p = x*y; e = exp(-p); q = (-y*e) / (e+1); r = q * gs, with gs = g*cof
// formed by the caller (once, for a gradOutput that is constant along the row; not at all when cof is 1,
// whose product would change nothing). -p is formed as x * (-y), which rounds to exactly -(x*y), so -y is
// computed once.
HWY_INLINE hn::Vec<DF> SoftMarginLossGrad(DF df, hn::Vec<DF> x, hn::Vec<DF> y, hn::Vec<DF> gs) {
    const auto minus_y = hn::Neg(y);
    const auto e = ClampedExp(df, hn::Mul(x, minus_y));
    const auto q = hn::Div(hn::Mul(minus_y, e), hn::Add(e, hn::Set(df, 1.0f)));
    return hn::Mul(q, gs);
}

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

// Whether streaming stores of 16-bit results write exactly one whole vector register (not on 128-bit
// targets, whose 16-bit half vectors are 8 bytes).
constexpr bool kCanStream16 = hn::MaxLanes(DU16()) * sizeof(uint16_t) >= 16;

// Rows of a tile in which every input is contiguous along the row or constant along it (one value per
// row), all inputs have dtype kIn, and out is contiguous along the row with dtype kOut. The dtypes are
// template arguments so loads and conversions compile to straight-line vector code, and the constants
// of the arithmetic are set up once for all the rows.
struct FusedRows {
    const char* in[3];        // first element of the first row
    int64_t in_outer[3];      // bytes from one row to the next
    bool in_constant[3];      // one value per row (inner stride 0)
    char* out;
    int64_t out_outer;
    int64_t rows;
    int64_t count;            // elements per row
};

template <ElementType kIn, ElementType kOut, bool kStream>
void FusedKernel(const SmlbSimdConfig& config, const FusedRows& a) {
    const DF df;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
    constexpr int64_t kInSize = kIn == ElementType::kFloat32 ? 4 : 2;
    constexpr int64_t kOutSize = kOut == ElementType::kFloat32 ? 4 : 2;
    // The inputs' common dtype is the promote type; rounding to it is implied when out has it too.
    constexpr bool kRound = kIn != ElementType::kFloat32 && kIn != kOut;
    constexpr bool kStreamHere = kStream && (kOut == ElementType::kFloat32 || kCanStream16);
    const auto cof = hn::Set(df, config.cof);
    const bool scale = config.cof != 1.0f;
    const int64_t full = a.count / lanes * lanes;
    const int64_t rest = a.count - full;
    HWY_ALIGN char tail_in[3][hn::MaxLanes(df) * sizeof(float)] = {};
    HWY_ALIGN char tail_out[hn::MaxLanes(df) * sizeof(float)];
    for (int64_t row = 0; row < a.rows; ++row) {
        const char* p[3];
        hn::Vec<DF> constant[3];
        for (int k = 0; k < 3; ++k) {
            p[k] = a.in[k] + row * a.in_outer[k];
            constant[k] = a.in_constant[k] ? BroadcastAsFloat(df, kIn, p[k]) : hn::Zero(df);
        }
        // A constant gradOutput is scaled once per row; a varying one per vector.
        if (a.in_constant[kGradOutput] && scale) constant[kGradOutput] = hn::Mul(constant[kGradOutput], cof);
        const bool scale_each = scale && !a.in_constant[kGradOutput];
        char* out = a.out + row * a.out_outer;
        auto input = [&](int k, const char* at) { return a.in_constant[k] ? constant[k] : LoadAsFloat(df, kIn, at); };
        auto scaled_grad = [&](const char* at) {
            const auto g = input(kGradOutput, at);
            return scale_each ? hn::Mul(g, cof) : g;
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
                hn::Vec<DF> even[3], odd[3];
                for (int k = 0; k < 3; ++k) {
                    if (a.in_constant[k]) {
                        even[k] = odd[k] = constant[k];
                    } else {
                        const auto bits = hn::LoadU(du16, reinterpret_cast<const uint16_t*>(p[k] + i * kInSize));
                        Bf16PairToFloat(df, bits, even[k], odd[k]);
                    }
                }
                if (scale_each) {
                    even[kGradOutput] = hn::Mul(even[kGradOutput], cof);
                    odd[kGradOutput] = hn::Mul(odd[kGradOutput], cof);
                }
                const auto r_even = SoftMarginLossGrad(df, even[kSelf], even[kTarget], even[kGradOutput]);
                const auto r_odd = SoftMarginLossGrad(df, odd[kSelf], odd[kTarget], odd[kGradOutput]);
                const auto packed = NarrowBf16Pair(df, r_even, r_odd, hardware_bf16);
                uint16_t* to = reinterpret_cast<uint16_t*>(out + i * kOutSize);
                if (stream_pairs) hn::Stream(packed, du16, to); else hn::StoreU(packed, du16, to);
            }
        }
#endif
        for (; i < full; i += lanes) {
            auto r = SoftMarginLossGrad(df, input(kSelf, p[kSelf] + i * kInSize), input(kTarget, p[kTarget] + i * kInSize),
                                        scaled_grad(p[kGradOutput] + i * kInSize));
            if (kRound) r = RoundToType(df, kIn, r);
            StoreAsType<kStreamHere>(df, kOut, r, out + i * kOutSize);
        }
        if (rest == 0) continue;
        // The tail goes through the same vector code on zero-padded copies.
        for (int k = 0; k < 3; ++k)
            if (!a.in_constant[k]) std::memcpy(tail_in[k], p[k] + full * kInSize, static_cast<size_t>(rest * kInSize));
        auto r = SoftMarginLossGrad(df, input(kSelf, tail_in[kSelf]), input(kTarget, tail_in[kTarget]),
                                    scaled_grad(tail_in[kGradOutput]));
        if (kRound) r = RoundToType(df, kIn, r);
        StoreAsType<false>(df, kOut, r, tail_out);
        std::memcpy(out + full * kOutSize, tail_out, static_cast<size_t>(rest * kOutSize));
    }
}

using FusedKernelFn = void (*)(const SmlbSimdConfig&, const FusedRows&);

template <ElementType kIn, bool kStream>
FusedKernelFn PickFusedOut(ElementType out) {
    switch (out) {
        case ElementType::kFloat16: return &FusedKernel<kIn, ElementType::kFloat16, kStream>;
        case ElementType::kBFloat16: return &FusedKernel<kIn, ElementType::kBFloat16, kStream>;
        default: return &FusedKernel<kIn, ElementType::kFloat32, kStream>;
    }
}

template <bool kStream>
FusedKernelFn PickFused(ElementType in, ElementType out) {
    switch (in) {
        case ElementType::kFloat16: return PickFusedOut<ElementType::kFloat16, kStream>(out);
        case ElementType::kBFloat16: return PickFusedOut<ElementType::kBFloat16, kStream>(out);
        default: return PickFusedOut<ElementType::kFloat32, kStream>(out);
    }
}

// An operand as the kernel sees it within one tile.
struct Operand {
    ElementType type;
    int64_t size;  // bytes per element
    const char* origin;
    int64_t inner, outer;  // byte strides
    bool broadcast;        // one value for the whole tile
    hn::Vec<DF> value;     // that value, when broadcast
};

// Copies count elements of type T from a strided source to a dense destination (stride 0: repeats one).
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

// Visits [first, first + len) of the tile (row-major) as runs within rows: visit(address, count, done).
template <class Visit>
HWY_INLINE void ForEachRun(const Operand& op, int64_t inner_size, int64_t first, int64_t len, Visit&& visit) {
    int64_t done = 0;
    while (done < len) {
        const int64_t row = (first + done) / inner_size, column = (first + done) % inner_size;
        const int64_t count = inner_size - column < len - done ? inner_size - column : len - done;
        visit(op.origin + row * op.outer + column * op.inner, count, done);
        done += count;
    }
}

// Copies the raw elements [first, first + len) of the tile to dst, zero-padding to padded.
void Gather(const Operand& op, int64_t inner_size, int64_t first, int64_t len, int64_t padded, char* HWY_RESTRICT dst) {
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

void Scatter(const char* HWY_RESTRICT src, const Operand& op, int64_t inner_size, int64_t first, int64_t len) {
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
const char* ContiguousBlock(const Operand& op, int64_t inner_size, int64_t first, int64_t len) {
    if (op.inner != op.size) return nullptr;
    const int64_t row = first / inner_size, column = first % inner_size;
    const bool one_row = column + len <= inner_size;
    if (!one_row && op.outer != inner_size * op.size) return nullptr;
    return op.origin + row * op.outer + column * op.inner;
}

// The fp32 values of an input block: in place for contiguous fp32, otherwise widened into buffer.
const float* InputBlock(const Operand& op, int64_t inner_size, int64_t first, int64_t len, int64_t padded,
                        float* HWY_RESTRICT buffer, char* HWY_RESTRICT raw) {
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


// Computes a block and stores it through store(i, vector) for i = 0, lanes, ... < padded.
template <class Store>
HWY_INLINE void ComputeBlock(const SmlbSimdConfig& config, const Operand* in, const float* const* values,
                             int64_t padded, Store&& store) {
    const DF df;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
    const auto cof = hn::Set(df, config.cof);
    const bool scale = config.cof != 1.0f;
    const ElementType promote = config.types.promote;
    // Rounding to the promote type changes nothing when out has that very type: narrowing rounds the same way.
    const bool round = promote != ElementType::kFloat32 && promote != config.types.operand[kOut];
    for (int64_t i = 0; i < padded; i += lanes) {
        const auto g = in[kGradOutput].broadcast ? in[kGradOutput].value : hn::LoadU(df, values[kGradOutput] + i);
        const auto x = in[kSelf].broadcast ? in[kSelf].value : hn::LoadU(df, values[kSelf] + i);
        const auto y = in[kTarget].broadcast ? in[kTarget].value : hn::LoadU(df, values[kTarget] + i);
        const auto r = SoftMarginLossGrad(df, x, y, scale ? hn::Mul(g, cof) : g);
        store(i, round ? RoundToType(df, promote, r) : r);
    }
}

// The general path: blocks of kBlock elements through fp32 buffers (any dtypes, any strides).
void BlockedTile(const SmlbSimdConfig& config, const engine::Tile& tile) {
    const DF df;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
    HWY_ALIGN float buffers[3][kBlock];
    HWY_ALIGN char raw[kBlock * sizeof(float)];

    Operand ops[4];
    for (int k = 0; k < 4; ++k) {
        Operand& op = ops[k];
        op.type = config.types.operand[k];
        op.size = ElementSize(op.type);
        op.origin = tile.origin[k];
        op.inner = tile.inner_stride[k];
        op.outer = tile.outer_stride[k];
        op.broadcast = k != kOut && op.inner == 0 && op.outer == 0;
        op.value = op.broadcast ? BroadcastAsFloat(df, op.type, op.origin) : hn::Zero(df);
    }
    const Operand& out = ops[kOut];
    const ElementType out_type = out.type;

    // One block of up to kBlock consecutive elements (row-major within the tile).
    auto process = [&](int64_t first, int64_t len) {
        const int64_t padded = (len + lanes - 1) / lanes * lanes;
        const float* values[3] = {nullptr, nullptr, nullptr};
        for (int k = 0; k < 3; ++k) {
            if (!ops[k].broadcast) values[k] = InputBlock(ops[k], tile.inner_size, first, len, padded, buffers[k], raw);
        }
        char* direct = len == padded ? const_cast<char*>(ContiguousBlock(out, tile.inner_size, first, len)) : nullptr;
        const bool stream = direct != nullptr && config.stream_stores && out_type == ElementType::kFloat32 &&
                            reinterpret_cast<uintptr_t>(direct) % (static_cast<uintptr_t>(lanes) * 4) == 0;
        if (stream) {
            ComputeBlock(config, ops, values, padded,
                         [&](int64_t i, hn::Vec<DF> r) { StoreAsType<true>(df, out_type, r, direct + i * 4); });
        } else if (direct != nullptr) {
            ComputeBlock(config, ops, values, padded, [&](int64_t i, hn::Vec<DF> r) {
                StoreAsType<false>(df, out_type, r, direct + i * out.size);
            });
        } else {
            ComputeBlock(config, ops, values, padded,
                         [&](int64_t i, hn::Vec<DF> r) { StoreAsType<false>(df, out_type, r, raw + i * out.size); });
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
    bool wide_steps = false;
    for (int k = 0; k < 4; ++k) wide_steps = wide_steps || ops[k].inner > 64 || ops[k].inner < -64;
    const int64_t inner = tile.inner_size;
    const int64_t first_row = (tile.first + inner - 1) / inner, end_row = tile.last / inner;
    if (!wide_steps || end_row - first_row < 2 || inner <= kBlock) {
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

// True when every input is contiguous or constant along rows, out is contiguous along rows, and the inputs
// share one dtype: then whole row runs go through FusedRun, straight from and to memory.
bool Fusable(const SmlbSimdConfig& config, const engine::Tile& tile) {
    const SmlbTypes& types = config.types;
    if (types.operand[kGradOutput] != types.operand[kSelf] || types.operand[kSelf] != types.operand[kTarget])
        return false;
    const int64_t in_size = ElementSize(types.operand[kSelf]);
    for (int k = 0; k < 3; ++k)
        if (tile.inner_stride[k] != 0 && tile.inner_stride[k] != in_size) return false;
    return tile.inner_stride[kOut] == ElementSize(types.operand[kOut]);
}

void FusedTile(const SmlbSimdConfig& config, const engine::Tile& tile) {
    const DF df;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
    const ElementType in_type = config.types.operand[kSelf], out_type = config.types.operand[kOut];
    const int64_t in_size = ElementSize(in_type), out_size = ElementSize(out_type);
    // Rows merge into one run where every operand continues seamlessly from one row to the next.
    bool seamless = tile.outer_stride[kOut] == tile.inner_size * out_size;
    for (int k = 0; k < 3; ++k) {
        seamless = seamless && (tile.inner_stride[k] == 0 ? tile.outer_stride[k] == 0
                                                           : tile.outer_stride[k] == tile.inner_size * in_size);
    }
    const int64_t row_length = seamless ? tile.last : tile.inner_size;
    auto run = [&](int64_t row, int64_t column, int64_t rows, int64_t count) {
        FusedRows a;
        for (int k = 0; k < 3; ++k) {
            a.in[k] = tile.origin[k] + row * tile.outer_stride[k] + column * tile.inner_stride[k];
            a.in_outer[k] = tile.outer_stride[k];
            a.in_constant[k] = tile.inner_stride[k] == 0;
        }
        a.out = tile.origin[kOut] + row * tile.outer_stride[kOut] + column * out_size;
        a.out_outer = tile.outer_stride[kOut];
        a.rows = rows;
        a.count = count;
        // Streaming stores need every row to start on a vector boundary.
        const uintptr_t vector_bytes = static_cast<uintptr_t>(lanes * out_size);
        const bool aligned = reinterpret_cast<uintptr_t>(a.out) % vector_bytes == 0 &&
                             (rows == 1 || static_cast<uintptr_t>(a.out_outer) % vector_bytes == 0);
        (config.stream_stores && aligned ? PickFused<true>(in_type, out_type)
                                         : PickFused<false>(in_type, out_type))(config, a);
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

void SmlbTile(const SmlbSimdConfig& config, const engine::Tile& tile) {
    if (Fusable(config, tile)) {
        FusedTile(config, tile);
    } else {
        BlockedTile(config, tile);
    }
}

// The even/odd conversions of the all-BFLOAT16 kernel over one padded block, element by element in order:
// bf16 -> fp32 or fp32 -> bf16. Returns false where they do not exist (the scalar target).
bool ConvertBlockInPairs(ElementType from, const char* raw_in, char* raw_out, int64_t padded, bool hardware) {
#if ACLNN_CPU_BF16_PAIRS
    const DF df;
    const hn::Repartition<uint16_t, DF> du16;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
    HWY_ALIGN float even[hn::MaxLanes(df)];
    HWY_ALIGN float odd[hn::MaxLanes(df)];
    for (int64_t i = 0; i < padded; i += 2 * lanes) {
        if (from == ElementType::kBFloat16) {
            hn::Vec<DF> e, o;
            Bf16PairToFloat(df, hn::LoadU(du16, reinterpret_cast<const uint16_t*>(raw_in) + i), e, o);
            hn::Store(e, df, even);
            hn::Store(o, df, odd);
            float* to = reinterpret_cast<float*>(raw_out) + i;
            for (int64_t j = 0; j < lanes; ++j) {
                to[2 * j] = even[j];
                to[2 * j + 1] = odd[j];
            }
        } else {
            const float* values = reinterpret_cast<const float*>(raw_in) + i;
            for (int64_t j = 0; j < lanes; ++j) {
                even[j] = values[2 * j];
                odd[j] = values[2 * j + 1];
            }
            hn::StoreU(NarrowBf16Pair(df, hn::Load(df, even), hn::Load(df, odd), hardware), du16,
                       reinterpret_cast<uint16_t*>(raw_out) + i);
        }
    }
    return true;
#else
    (void)from, (void)raw_in, (void)raw_out, (void)padded, (void)hardware;
    return false;
#endif
}

// Converts n contiguous elements through LoadAsFloat and StoreAsType or, between fp32 and BFLOAT16, through
// the conversions `bf16` names (for the conversion tests).
void ConvertRow(ElementType from, const void* src, ElementType to, void* dst, int64_t n, Bf16Conversion bf16) {
    const DF df;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
    HWY_ALIGN char raw_in[kBlock * sizeof(float)];
    HWY_ALIGN char raw_out[kBlock * sizeof(float)];
    const int64_t from_size = ElementSize(from), to_size = ElementSize(to);
    const bool pairs = bf16 != Bf16Conversion::kOneVector &&
                       ((from == ElementType::kBFloat16 && to == ElementType::kFloat32) ||
                        (from == ElementType::kFloat32 && to == ElementType::kBFloat16));
    const bool hardware = bf16 == Bf16Conversion::kPairsWithHardware && CpuHasAvx512Bf16();
    for (int64_t start = 0; start < n; start += kBlock) {
        const int64_t len = n - start < kBlock ? n - start : kBlock;
        const int64_t padded = (len + 2 * lanes - 1) / (2 * lanes) * (2 * lanes);  // kBlock is a multiple
        std::memset(raw_in, 0, sizeof raw_in);
        std::memcpy(raw_in, static_cast<const char*>(src) + start * from_size, static_cast<size_t>(len * from_size));
        if (!pairs || !ConvertBlockInPairs(from, raw_in, raw_out, padded, hardware)) {
            for (int64_t i = 0; i < padded; i += lanes)
                StoreAsType<false>(df, to, LoadAsFloat(df, from, raw_in + i * from_size), raw_out + i * to_size);
        }
        std::memcpy(static_cast<char*>(dst) + start * to_size, raw_out, static_cast<size_t>(len * to_size));
    }
}

const char* TargetName() { return hwy::TargetName(HWY_TARGET); }

}  // namespace aclnn_cpu::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace aclnn_cpu::kernels {

HWY_EXPORT(SmlbTile);
HWY_EXPORT(ConvertRow);
HWY_EXPORT(TargetName);

void SmlbTileSimd(const SmlbSimdConfig& config, const engine::Tile& tile) {
    HWY_DYNAMIC_DISPATCH(SmlbTile)(config, tile);
}

void ConvertRowSimd(ElementType from, const void* src, ElementType to, void* dst, int64_t n, Bf16Conversion bf16) {
    HWY_DYNAMIC_DISPATCH(ConvertRow)(from, src, to, dst, n, bf16);
}

void FlushStreamingStores() { hwy::FlushStream(); }

bool CpuHasAvx512Bf16() {
#if HWY_ARCH_X86 && (defined(__GNUC__) || defined(__clang__))
    static const bool has = __builtin_cpu_supports("avx512bf16");
    return has;
#else
    return false;
#endif
}

std::string ActiveSimdTarget() { return HWY_DYNAMIC_DISPATCH(TargetName)(); }

}  // namespace aclnn_cpu::kernels
#endif  // HWY_ONCE
