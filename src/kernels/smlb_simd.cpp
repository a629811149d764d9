// Highway kernels for aclnnSoftMarginLossBackward, compiled once per SIMD target (foreach_target) and chosen
// at run time, so a build without -march runs at the full width of the CPU it runs on.
//
// A row is processed in blocks of kBlock elements in three stages, each always vectorised:
//   1. widen: each input's block becomes fp32 in an L1-resident buffer (contiguous fp32 is used in place;
//      strided inputs are first gathered as raw bits; a stride-0 input is one value broadcast to all lanes);
//   2. compute: CANN's fp32 sequence, then rounding to the promote type;
//   3. narrow: into out's dtype, stored straight to out when it is contiguous (streaming stores for large
//      outputs), otherwise through a raw buffer scattered to out's addresses.
// Tails are padded to whole vectors, so every element meets exactly the same instructions.
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

constexpr int64_t kBlock = 512;  // elements per block: 2 KiB per fp32 buffer, all buffers fit in L1

using DF = hn::ScalableTag<float>;
using DU = hn::RebindToUnsigned<DF>;
using DU16 = hn::Rebind<uint16_t, DF>;

// exp(t) with IEEE behaviour: Highway's Exp is accurate to 1 ulp only up to +104 and maps NaN to 0, so
// lanes above expf's overflow threshold (and NaN lanes) take t * inf instead: +inf, or NaN for NaN.
HWY_INLINE hn::Vec<DF> GuardedExp(DF df, hn::Vec<DF> t) {
    const auto finite_range = hn::Le(t, hn::Set(df, 88.7228317f));
    return hn::IfThenElse(finite_range, hn::Exp(df, t), hn::Mul(t, hn::Set(df, std::numeric_limits<float>::infinity())));
}

// CANN's kernel, step by step in fp32: p = x*y; e = exp(-p); q = (-y*e) / (e+1); r = q * (g*cof).
HWY_INLINE hn::Vec<DF> SoftMarginLossGrad(DF df, hn::Vec<DF> x, hn::Vec<DF> y, hn::Vec<DF> g, hn::Vec<DF> cof) {
    const auto e = GuardedExp(df, hn::Neg(hn::Mul(x, y)));
    const auto q = hn::Div(hn::Mul(hn::Neg(y), e), hn::Add(e, hn::Set(df, 1.0f)));
    return hn::Mul(q, hn::Mul(g, cof));
}

HWY_INLINE hn::Vec<DF> RoundToPromote(DF df, ElementType promote, hn::Vec<DF> r) {
    if (promote == ElementType::kFloat16) return HalfBitsToFloat(df, FloatToHalfBits(df, r));
    if (promote == ElementType::kBFloat16) return Bf16BitsToFloat(df, FloatToBf16Bits(df, r));
    return r;
}

// Widens `padded` elements of contiguous raw data of `type` into fp32 at dst.
void WidenContiguous(ElementType type, const char* raw, int64_t padded, float* HWY_RESTRICT dst) {
    const DF df;
    const DU16 du16;
    const DU du;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
    for (int64_t i = 0; i < padded; i += lanes) {
        if (type == ElementType::kFloat32) {
            hn::Store(hn::LoadU(df, reinterpret_cast<const float*>(raw) + i), df, dst + i);
            continue;
        }
        const auto bits = hn::PromoteTo(du, hn::LoadU(du16, reinterpret_cast<const uint16_t*>(raw) + i));
        hn::Store(type == ElementType::kFloat16 ? HalfBitsToFloat(df, bits) : Bf16BitsToFloat(df, bits), df, dst + i);
    }
}

// Copies len elements of element_size bytes from a strided source into a dense buffer, zero-padding to padded.
void Gather(const char* src, int64_t stride, int64_t element_size, int64_t len, int64_t padded,
            char* HWY_RESTRICT dst) {
    if (element_size == 4) {
        for (int64_t i = 0; i < len; ++i) std::memcpy(dst + 4 * i, src + i * stride, 4);
    } else {
        for (int64_t i = 0; i < len; ++i) std::memcpy(dst + 2 * i, src + i * stride, 2);
    }
    std::memset(dst + len * element_size, 0, static_cast<size_t>((padded - len) * element_size));
}

void Scatter(const char* HWY_RESTRICT src, int64_t element_size, int64_t len, char* dst, int64_t stride) {
    if (element_size == 4) {
        for (int64_t i = 0; i < len; ++i) std::memcpy(dst + i * stride, src + 4 * i, 4);
    } else {
        for (int64_t i = 0; i < len; ++i) std::memcpy(dst + i * stride, src + 2 * i, 2);
    }
}

// One input operand's block as fp32: in place when it is contiguous fp32 and the block is whole vectors,
// else widened into buffer. A broadcast operand (stride 0) is widened once, into lane 0 of *scalar.
const float* InputBlock(ElementType type, const char* src, int64_t stride, int64_t len, int64_t padded,
                        float* HWY_RESTRICT buffer, char* HWY_RESTRICT raw) {
    const int64_t size = ElementSize(type);
    const bool contiguous = stride == size;
    if (contiguous && len == padded) {
        if (type == ElementType::kFloat32) return reinterpret_cast<const float*>(src);
        WidenContiguous(type, src, padded, buffer);
        return buffer;
    }
    Gather(src, stride, size, len, padded, raw);
    WidenContiguous(type, raw, padded, buffer);
    return buffer;
}

float BroadcastValue(ElementType type, const char* src) {
    const DF df;
    HWY_ALIGN char raw[hn::MaxLanes(df) * sizeof(float)] = {};
    HWY_ALIGN float value[hn::MaxLanes(df)];
    std::memcpy(raw, src, static_cast<size_t>(ElementSize(type)));
    WidenContiguous(type, raw, static_cast<int64_t>(hn::Lanes(df)), value);
    return value[0];
}

// Narrows padded fp32 results into out's dtype at dst (contiguous), with plain or streaming stores.
template <bool kStream>
void NarrowContiguous(ElementType type, const float* HWY_RESTRICT src, int64_t padded, char* dst) {
    const DF df;
    const DU16 du16;
    const hn::RebindToSigned<DF> di;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
    for (int64_t i = 0; i < padded; i += lanes) {
        const auto v = hn::Load(df, src + i);
        if (type == ElementType::kFloat32) {
            float* out = reinterpret_cast<float*>(dst) + i;
            if (kStream) hn::Stream(v, df, out); else hn::StoreU(v, df, out);
            continue;
        }
        const auto bits = type == ElementType::kFloat16 ? FloatToHalfBits(df, v) : FloatToBf16Bits(df, v);
        const auto packed = hn::DemoteTo(du16, hn::BitCast(di, bits));
        uint16_t* out = reinterpret_cast<uint16_t*>(dst) + i;
        if (kStream) hn::Stream(packed, du16, out); else hn::StoreU(packed, du16, out);
    }
}

void SmlbRow(const SmlbSimdConfig& config, const engine::OperandPointers& pointers,
             const std::array<int64_t, 4>& strides, int64_t n) {
    const DF df;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
    HWY_ALIGN float buffers[3][kBlock];
    HWY_ALIGN char raw[kBlock * sizeof(float)];
    HWY_ALIGN float results[kBlock];
    const ElementType out_type = config.types.operand[kOut];
    const int64_t out_size = ElementSize(out_type);
    const bool out_contiguous = strides[kOut] == out_size;
    const auto cof = hn::Set(df, config.cof);

    // Broadcast operands are widened once per row.
    bool broadcast[3];
    hn::Vec<DF> broadcast_value[3] = {hn::Zero(df), hn::Zero(df), hn::Zero(df)};
    for (int k = 0; k < 3; ++k) {
        broadcast[k] = strides[k] == 0;
        if (broadcast[k]) broadcast_value[k] = hn::Set(df, BroadcastValue(config.types.operand[k], pointers[k]));
    }

    for (int64_t start = 0; start < n; start += kBlock) {
        const int64_t len = n - start < kBlock ? n - start : kBlock;
        const int64_t padded = (len + lanes - 1) / lanes * lanes;
        const float* in[3] = {nullptr, nullptr, nullptr};
        for (int k = 0; k < 3; ++k) {
            if (!broadcast[k])
                in[k] = InputBlock(config.types.operand[k], pointers[k] + start * strides[k], strides[k], len, padded,
                                   buffers[k], raw);
        }
        for (int64_t i = 0; i < padded; i += lanes) {
            const auto g = broadcast[kGradOutput] ? broadcast_value[kGradOutput] : hn::LoadU(df, in[kGradOutput] + i);
            const auto x = broadcast[kSelf] ? broadcast_value[kSelf] : hn::LoadU(df, in[kSelf] + i);
            const auto y = broadcast[kTarget] ? broadcast_value[kTarget] : hn::LoadU(df, in[kTarget] + i);
            hn::Store(RoundToPromote(df, config.types.promote, SoftMarginLossGrad(df, x, y, g, cof)), df, results + i);
        }
        char* out = pointers[kOut] + start * strides[kOut];
        if (out_contiguous && len == padded) {
            const bool aligned = reinterpret_cast<uintptr_t>(out) % (static_cast<uintptr_t>(lanes) * out_size) == 0;
            if (config.stream_stores && aligned) {
                NarrowContiguous<true>(out_type, results, padded, out);
            } else {
                NarrowContiguous<false>(out_type, results, padded, out);
            }
        } else {
            NarrowContiguous<false>(out_type, results, padded, raw);
            Scatter(raw, out_size, len, out, strides[kOut]);
        }
    }
}

void ConvertRow(ElementType from, const void* src, ElementType to, void* dst, int64_t n) {
    const DF df;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
    HWY_ALIGN char raw[kBlock * sizeof(float)];
    HWY_ALIGN float values[kBlock];
    for (int64_t start = 0; start < n; start += kBlock) {
        const int64_t len = n - start < kBlock ? n - start : kBlock;
        const int64_t padded = (len + lanes - 1) / lanes * lanes;
        Gather(static_cast<const char*>(src) + start * ElementSize(from), ElementSize(from), ElementSize(from), len,
               padded, raw);
        WidenContiguous(from, raw, padded, values);
        NarrowContiguous<false>(to, values, padded, raw);
        std::memcpy(static_cast<char*>(dst) + start * ElementSize(to), raw, static_cast<size_t>(len * ElementSize(to)));
    }
}

const char* TargetName() { return hwy::TargetName(HWY_TARGET); }

}  // namespace aclnn_cpu::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace aclnn_cpu::kernels {

HWY_EXPORT(SmlbRow);
HWY_EXPORT(TargetName);
HWY_EXPORT(ConvertRow);

void ConvertRowSimd(ElementType from, const void* src, ElementType to, void* dst, int64_t n) {
    HWY_DYNAMIC_DISPATCH(ConvertRow)(from, src, to, dst, n);
}

void SmlbRowSimd(const SmlbSimdConfig& config, const engine::OperandPointers& pointers,
                 const std::array<int64_t, 4>& byte_strides, int64_t n) {
    HWY_DYNAMIC_DISPATCH(SmlbRow)(config, pointers, byte_strides, n);
}

void FlushStreamingStores() { hwy::FlushStream(); }

std::string ActiveSimdTarget() { return HWY_DYNAMIC_DISPATCH(TargetName)(); }

}  // namespace aclnn_cpu::kernels
#endif  // HWY_ONCE
