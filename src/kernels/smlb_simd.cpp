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

// exp(t) with IEEE behaviour: Highway's Exp is accurate to 1 ulp only up to +104 and maps NaN to 0, so
// lanes above expf's overflow threshold (and NaN lanes) take t * inf instead: +inf, or NaN for NaN.
HWY_INLINE hn::Vec<DF> GuardedExp(DF df, hn::Vec<DF> t) {
    const auto finite_range = hn::Le(t, hn::Set(df, 88.7228317f));
    return hn::IfThenElse(finite_range, hn::Exp(df, t),
                          hn::Mul(t, hn::Set(df, std::numeric_limits<float>::infinity())));
}

// num / den for den in [1, +inf] or NaN: a reciprocal estimate refined by one Newton step (about 1 ulp),
// cheaper than a division. Reciprocal estimates flush results below 2^-126 to zero, so a den above 2^64 is
// scaled by 2^-64 first (exactly) and the quotient scaled back. den = +inf gives NaN (inf * 0 in the Newton
// step), as inf/inf would.
HWY_INLINE hn::Vec<DF> DivideByAtLeastOne(DF df, hn::Vec<DF> num, hn::Vec<DF> den) {
    const auto huge = hn::Gt(den, hn::Set(df, 18446744073709551616.0f));  // 2^64
    const auto scale = hn::IfThenElse(huge, hn::Set(df, 5.42101086242752217e-20f), hn::Set(df, 1.0f));  // 2^-64
    const auto scaled = hn::Mul(den, scale);
    const auto estimate = hn::ApproximateReciprocal(scaled);
    const auto refined = hn::Mul(estimate, hn::NegMulAdd(scaled, estimate, hn::Set(df, 2.0f)));
    return hn::Mul(hn::Mul(num, refined), scale);
}

// CANN's kernel, in its order: p = x*y; e = exp(-p); q = (-y*e) / (e+1); r = q * (g*cof).
HWY_INLINE hn::Vec<DF> SoftMarginLossGrad(DF df, hn::Vec<DF> x, hn::Vec<DF> y, hn::Vec<DF> g, hn::Vec<DF> cof) {
    const auto e = GuardedExp(df, hn::Neg(hn::Mul(x, y)));
    const auto q = DivideByAtLeastOne(df, hn::Mul(hn::Neg(y), e), hn::Add(e, hn::Set(df, 1.0f)));
    return hn::Mul(q, hn::Mul(g, cof));
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
        packed = hn::DemoteTo(du16, hn::BitCast(DI(), bits));
    }
    // 16-bit results fill half a vector: on 128-bit targets that is not a whole store, so no streaming.
    hn::StoreU(packed, du16, reinterpret_cast<uint16_t*>(p));
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

hn::Vec<DF> BroadcastValue(ElementType type, const char* src) {
    const DF df;
    HWY_ALIGN char raw[hn::MaxLanes(df) * sizeof(float)] = {};
    std::memcpy(raw, src, static_cast<size_t>(ElementSize(type)));
    return hn::Set(df, hn::GetLane(LoadAsFloat(df, type, raw)));
}

// Computes a block and stores it through store(i, vector) for i = 0, lanes, ... < padded.
template <class Store>
HWY_INLINE void ComputeBlock(const SmlbSimdConfig& config, const Operand* in, const float* const* values,
                             int64_t padded, Store&& store) {
    const DF df;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
    const auto cof = hn::Set(df, config.cof);
    const ElementType promote = config.types.promote;
    // Rounding to the promote type changes nothing when out has that very type: narrowing rounds the same way.
    const bool round = promote != ElementType::kFloat32 && promote != config.types.operand[kOut];
    for (int64_t i = 0; i < padded; i += lanes) {
        const auto g = in[kGradOutput].broadcast ? in[kGradOutput].value : hn::LoadU(df, values[kGradOutput] + i);
        const auto x = in[kSelf].broadcast ? in[kSelf].value : hn::LoadU(df, values[kSelf] + i);
        const auto y = in[kTarget].broadcast ? in[kTarget].value : hn::LoadU(df, values[kTarget] + i);
        const auto r = SoftMarginLossGrad(df, x, y, g, cof);
        store(i, round ? RoundToType(df, promote, r) : r);
    }
}

void SmlbTile(const SmlbSimdConfig& config, const engine::Tile& tile) {
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
        op.value = op.broadcast ? BroadcastValue(op.type, op.origin) : hn::Zero(df);
    }
    const Operand& out = ops[kOut];
    const ElementType out_type = out.type;

    for (int64_t first = tile.first; first < tile.last; first += kBlock) {
        const int64_t len = tile.last - first < kBlock ? tile.last - first : kBlock;
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
    }
}

// Converts n contiguous elements through LoadAsFloat and StoreAsType (for the conversion tests).
void ConvertRow(ElementType from, const void* src, ElementType to, void* dst, int64_t n) {
    const DF df;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
    HWY_ALIGN char raw_in[kBlock * sizeof(float)];
    HWY_ALIGN char raw_out[kBlock * sizeof(float)];
    const int64_t from_size = ElementSize(from), to_size = ElementSize(to);
    for (int64_t start = 0; start < n; start += kBlock) {
        const int64_t len = n - start < kBlock ? n - start : kBlock;
        const int64_t padded = (len + lanes - 1) / lanes * lanes;
        std::memset(raw_in, 0, sizeof raw_in);
        std::memcpy(raw_in, static_cast<const char*>(src) + start * from_size, static_cast<size_t>(len * from_size));
        for (int64_t i = 0; i < padded; i += lanes)
            StoreAsType<false>(df, to, LoadAsFloat(df, from, raw_in + i * from_size), raw_out + i * to_size);
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

void ConvertRowSimd(ElementType from, const void* src, ElementType to, void* dst, int64_t n) {
    HWY_DYNAMIC_DISPATCH(ConvertRow)(from, src, to, dst, n);
}

void FlushStreamingStores() { hwy::FlushStream(); }

std::string ActiveSimdTarget() { return HWY_DYNAMIC_DISPATCH(TargetName)(); }

}  // namespace aclnn_cpu::kernels
#endif  // HWY_ONCE
