// log1p(exp(-a)) for a = |t| -- the forward loss's softplus term -- in one range reduction instead of a whole
// exp followed by a whole log1p; the project's own (by the same ruling as its exp). The design:
//   a = k ln2 + r, k = round(a / ln2), |r| <= ln2/2   (the exp's reduction: shifter, two-constant Cody-Waite);
//   log1p(exp(-a)) = log1p(2^-k exp(-r)) = 2^-k h_k(r),  h_k(r) = 2^k log1p(2^-k exp(-r));
//   h_k is smooth in r, so one degree-6 polynomial per k approximates it (relative error below 0.5 x 2^-24
//   with fp32 coefficients): rows k = 0..14 of kernels/softplus_table.h. For k >= 15, log1p(e) =
//   e - e^2/2 + (below 2^-30 e), so row 15 holds exp(-r) and the term e^2/2 is subtracted after scaling:
//   E = 2^-k P_row(r),  result = E - w E^2,  w = 1/2 on row 15, 0 on the others.
// The seven coefficients of a lane's row come from table lookups (a permute of the 16 entries on AVX-512,
// NEON's 64-byte TBL, a few permutes and blends on narrower vectors), all exact, so every target with FMA
// computes the same arithmetic and gives the same bits. Per 16 results on AVX-512 the whole loss takes 29
// instructions, 13 of them multiplies, multiply-adds or scales and 7 permutes, against 30 (23 multiplies,
// multiply-adds or scales) for the exp followed by a log1p polynomial it replaced (docs/design.md).
// a is clamped to 104 first: beyond it every result rounds to 0 (exp(-104) < 2^-150), and the clamp keeps the
// scale in range; a NaN passes through the clamp and the arithmetic. 2^-k is applied with a single rounding
// (vscalefps on AVX-512, two exponent-field multiplies elsewhere), so subnormal results are rounded once.
// Verified through the forward's per-element loss over every fp32 t on every compiled target
// (tests/exhaustive/exhaustive_math.cpp, function "loss"; the rule is 2 ulp): at most 1 ulp from the correctly
// rounded loss everywhere, worst exact error 1.34 ulp with FMA and 1.47 without (docs/compatibility.md).

#if defined(ACLNN_CPU_KERNELS_VECTOR_SOFTPLUS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLNN_CPU_KERNELS_VECTOR_SOFTPLUS_INL_H_
#undef ACLNN_CPU_KERNELS_VECTOR_SOFTPLUS_INL_H_
#else
#define ACLNN_CPU_KERNELS_VECTOR_SOFTPLUS_INL_H_
#endif

#include <cstdint>

#include "hwy/highway.h"
#include "kernels/softplus_table.h"
#include "kernels/vector_exp-inl.h"
#include "kernels/vector_nan-inl.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Coefficient `column` of each lane's row (0..15) of the table. A pure function of (column, row): the index
// preparation it shares between the seven lookups of one call (byte indices, masks) is computed once by the
// compiler. A function rather than a class holding the row: SVE's vectors cannot be members.
#if HWY_TARGET == HWY_NEON
// NEON: TBL with four registers looks up 64 bytes -- a whole 16-entry column -- by byte index.
template <class D>
HWY_INLINE hn::Vec<D> SoftplusCoefficient(D /*d*/, const float* column, hn::Vec<hn::RebindToUnsigned<D>> row) {
    // Lane i's four byte indices: 4 row + {0, 1, 2, 3}.
    const uint8x16_t bytes =
        vreinterpretq_u8_u32(vmlaq_u32(vdupq_n_u32(0x03020100u), row.raw, vdupq_n_u32(0x04040404u)));
    const uint8_t* table = reinterpret_cast<const uint8_t*>(column);
    const uint8x16x4_t pieces = {{vld1q_u8(table), vld1q_u8(table + 16), vld1q_u8(table + 32), vld1q_u8(table + 48)}};
    return hn::Vec<D>{vreinterpretq_f32_u8(vqtbl4q_u8(pieces, bytes))};
}
#elif HWY_TARGET == HWY_SCALAR
template <class D>
HWY_INLINE hn::Vec<D> SoftplusCoefficient(D d, const float* column, hn::Vec<hn::RebindToUnsigned<D>> row) {
    return hn::Set(d, column[hn::GetLane(row)]);
}
#else
// Any other width: permutes within vectors of N lanes, over the 16 / N pieces of a column, the pieces after
// the first blended in where the row lies in them (N = 16: one permute; AVX2: two and a blend; 128-bit
// vectors: four and three). Scalable SVE learns N at run time; beyond 16 lanes it gathers.
template <class D>
HWY_INLINE hn::Vec<D> SoftplusPiece(D d, const float* piece, hn::Vec<hn::RebindToUnsigned<D>> index) {
    return hn::TableLookupLanes(hn::LoadU(d, piece), hn::IndicesFromVec(d, index));
}

template <class D>
HWY_INLINE hn::Vec<D> SoftplusCoefficient(D d, const float* column, hn::Vec<hn::RebindToUnsigned<D>> row) {
    const hn::RebindToUnsigned<D> du;
    const hn::RebindToSigned<D> di;  // rows are 0..15: signed compares (every target has them) are exact
    const size_t lanes = hn::Lanes(d);
    if (lanes > kSoftplusRows) return hn::GatherIndex(d, column, hn::BitCast(di, row));
    if (lanes == kSoftplusRows) return SoftplusPiece(d, column, row);
    const auto within = hn::And(row, hn::Set(du, static_cast<uint32_t>(lanes - 1)));
    auto value = SoftplusPiece(d, column, within);
    for (size_t first = lanes; first < kSoftplusRows; first += lanes) {
        const auto last_before = hn::Set(di, static_cast<int32_t>(first) - 1);
        const auto in_piece = hn::RebindMask(d, hn::Gt(hn::BitCast(di, row), last_before));
        value = hn::IfThenElse(in_piece, SoftplusPiece(d, column + first, within), value);
    }
    return value;
}
#endif

#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
// 2^minus_k applied with the exp's vscalefps: one rounding, into the subnormal range too.
template <class D>
HWY_INLINE hn::Vec<D> TimesPowerOfTwo(D /*d*/, hn::Vec<D> p, hn::Vec<D> minus_k,
                                      hn::Vec<hn::RebindToUnsigned<D>> /*k*/) {
    return hn::Vec<D>{ScaleByPowerOfTwo(p.raw, minus_k.raw)};
}
#else
// p * 2^-k for k in [0, 150] as (p * 2^-k2) * 2^-k1, k1 = floor(k / 2), k2 = k - k1: both factors are normal,
// the first product is exact (p is near 1), so only the second rounds -- the same bits as vscalefps.
template <class D>
HWY_INLINE hn::Vec<D> TimesPowerOfTwo(D d, hn::Vec<D> p, hn::Vec<D> /*minus_k*/, hn::Vec<hn::RebindToUnsigned<D>> k) {
    const hn::RebindToUnsigned<D> du;
    const auto k1 = hn::ShiftRight<1>(k);
    const auto k2 = hn::Sub(k, k1);
    const auto bias = hn::Set(du, 127);
    const auto scale1 = hn::BitCast(d, hn::ShiftLeft<23>(hn::Sub(bias, k1)));
    const auto scale2 = hn::BitCast(d, hn::ShiftLeft<23>(hn::Sub(bias, k2)));
    return hn::Mul(hn::Mul(p, scale2), scale1);
}
#endif

// log1p(exp(-a)) for a >= 0 (a = |t|, so also +inf: 0); NaN gives NaN.
template <class D>
HWY_INLINE hn::Vec<D> SoftplusOfMinusMagnitude(D d, hn::Vec<D> a) {
    const hn::RebindToUnsigned<D> du;
    const auto clamped = MinPassingNaN(d, hn::Set(d, 104.0f), a);
    // shifted = a / ln2 + 1.5 * 2^23 rounds a / ln2 to the integer k in its low mantissa bits.
    const auto shifter = hn::Set(d, kRoundingShifter);
    const auto shifted = hn::MulAdd(clamped, hn::Set(d, kInverseLn2), shifter);
    const auto minus_k = hn::Sub(shifter, shifted);
    // The exp's two-constant reduction (kernels/vector_exp-inl.h, ReduceByLn2: the same products and
    // roundings), written with -k rather than k so that -k, not a negation of k, also feeds the scale.
    const auto r = hn::MulAdd(minus_k, hn::Set(d, kLn2Low), hn::MulAdd(minus_k, hn::Set(d, kLn2High), clamped));
    // k from the bits (a NaN gives a huge k, which the unsigned minimum sends to row 15; the result is NaN).
    const auto k = hn::Sub(hn::BitCast(du, shifted), hn::BitCast(du, shifter));
    const auto row = hn::Min(k, hn::Set(du, kSoftplusRows - 1));
    // P(r) by Horner's scheme: the terms shrink fast (|r| <= 0.35), so the last, largest steps round least
    // (Estrin's shorter chain measured no faster: the lookups and multiply-adds share two pipes, and those
    // bound it, not latency).
    auto p = SoftplusCoefficient(d, kSoftplusTable[6], row);
    for (int j = 5; j >= 0; --j) p = hn::MulAdd(p, r, SoftplusCoefficient(d, kSoftplusTable[j], row));
    const auto e = TimesPowerOfTwo(d, p, minus_k, k);
    const auto w = hn::IfThenElseZero(hn::RebindMask(d, hn::Eq(row, hn::Set(du, kSoftplusRows - 1))),
                                      hn::Set(d, 0.5f));
    return hn::NegMulAdd(hn::Mul(w, e), e, e);
}

}  // namespace aclnn_cpu::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // ACLNN_CPU_KERNELS_VECTOR_SOFTPLUS_INL_H_
