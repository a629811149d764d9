// log1p(exp(-a)) for a = |t| -- the forward loss's softplus term -- from polynomial tables instead of a whole
// exp followed by a whole log1p; the project's own (by the same ruling as its exp). Two forms:
//   near (a < 15.75, nearly every loss): j = round(2a), r = a - j/2 (exact, |r| <= 1/4); one degree-5
//     polynomial per j = 0..31 approximates log1p(exp(-(j/2 + r))) directly (error at most 0.61 ulp with fp32
//     coefficients): no scaling and no correction term, the row's six coefficients from table lookups.
//   far (a >= 15.75, and NaN; blended in only where a lane needs it):
//     a = k ln2 + r, k = round(a / ln2), |r| <= ln2/2   (the exp's reduction: shifter, two-constant Cody-Waite);
//     log1p(exp(-a)) = log1p(2^-k exp(-r)) = 2^-k h_k(r),  h_k(r) = 2^k log1p(2^-k exp(-r));
//     one degree-6 polynomial per k = 0..14 approximates h_k (relative error below 0.5 x 2^-24); for
//     k >= 15, log1p(e) = e - e^2/2 + (below 2^-30 e), so row 15 holds exp(-r) and e^2/2 is subtracted after
//     scaling: E = 2^-k P_row(r), result = E - w E^2, w = 1/2 on row 15, 0 on the others. a is clamped to 104
//     first (beyond it every result rounds to 0; the clamp keeps the scale in range; NaN passes through), and
//     2^-k is applied with one rounding (vscalefps on AVX-512, two exponent-field multiplies elsewhere).
// Both tables are in kernels/softplus_table.h (scripts/fit_softplus_table.py). The lookups (AVX-512's two-table
// permute for 32 rows, NEON's TBL/TBX, permutes and blends or gathers on other widths) are exact, so every
// target with FMA computes the same arithmetic and gives the same bits. Per 16 results on AVX-512 the loss
// takes 20 instructions (5 multiply-adds, 6 permutes) where the far form alone took 29 (13 multiplies,
// multiply-adds or scales, 7 permutes), and an exp followed by a log1p polynomial 30 (docs/design.md).
// Verified through the forward's per-element loss over every fp32 t on every compiled target
// (tests/exhaustive/exhaustive_math.cpp, function "loss"; the rule is 2 ulp): at most 1 ulp from the correctly
// rounded loss everywhere (worst exact errors per range in docs/compatibility.md).

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

// 1.5 * 2^22: added to 0 <= a < 2^21, the sum's ulp is 1/2, so the sum holds a rounded to a multiple of 1/2.
constexpr float kHalvesShifter = 6291456.0f;

// Whether D is a whole 16-lane AVX-512 vector: there the row need not be masked (see
// SoftplusOfMinusMagnitude) and a mask is tested through a general register.
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
template <class D>
constexpr bool kWholeAvx512Vector = hn::MaxLanes(D()) == 16 && sizeof(hn::TFromD<D>) == 4;
#else
template <class D>
constexpr bool kWholeAvx512Vector = false;
#endif

// AllTrue. On a whole AVX-512 vector the mask is moved to a general register and compared there: kortestw,
// which AllTrue compiles to, takes a slot on the vector pipes that the permutes and multiply-adds share (a
// throughput test on the Zen 5 guest paired it with vpermt2ps at 2 per cycle in all; kmovw with vpermt2ps
// ran at 4), and this loop is bound by those pipes.
template <class D>
HWY_INLINE bool AllLanesTrue(D d, hn::Mask<D> mask) {
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
    if constexpr (kWholeAvx512Vector<D>) return _cvtmask16_u32(mask.raw) == 0xFFFFu;
#endif
    return hn::AllTrue(d, mask);
}

// Coefficient `column` of each lane's row of a table of kRows (16 or 32) entries per column. A pure function
// of (column, row): the index preparation it shares between the lookups of one call (byte indices, masks) is
// computed once by the compiler. A function rather than a class holding the row: SVE's vectors cannot be
// members. Rows must be below kRows (callers mask them), except in AVX-512's two-table permute, which reads
// only the low five bits.
#if HWY_TARGET == HWY_NEON
// NEON: TBL with four registers looks up 64 bytes -- 16 entries -- by byte index, giving 0 for an index past
// them; for 32 rows, TBX looks up the next 16 with the indices moved down by 64 and leaves the lanes whose
// moved index is out of its range (rows below 16, wrapped past 191) as TBL set them.
template <int kRows, class D>
HWY_INLINE hn::Vec<D> SoftplusCoefficient(D /*d*/, const float* column, hn::Vec<hn::RebindToUnsigned<D>> row) {
    static_assert(kRows == 16 || kRows == 32, "one or two 64-byte lookups");
    // Lane i's four byte indices: 4 row + {0, 1, 2, 3}.
    const uint8x16_t bytes =
        vreinterpretq_u8_u32(vmlaq_u32(vdupq_n_u32(0x03020100u), row.raw, vdupq_n_u32(0x04040404u)));
    const uint8_t* table = reinterpret_cast<const uint8_t*>(column);
    const uint8x16x4_t low = {{vld1q_u8(table), vld1q_u8(table + 16), vld1q_u8(table + 32), vld1q_u8(table + 48)}};
    uint8x16_t value = vqtbl4q_u8(low, bytes);
    if constexpr (kRows == 32) {
        const uint8x16x4_t high = {
            {vld1q_u8(table + 64), vld1q_u8(table + 80), vld1q_u8(table + 96), vld1q_u8(table + 112)}};
        value = vqtbx4q_u8(value, high, vsubq_u8(bytes, vdupq_n_u8(64)));
    }
    return hn::Vec<D>{vreinterpretq_f32_u8(value)};
}
#elif HWY_TARGET == HWY_SCALAR
template <int kRows, class D>
HWY_INLINE hn::Vec<D> SoftplusCoefficient(D d, const float* column, hn::Vec<hn::RebindToUnsigned<D>> row) {
    return hn::Set(d, column[hn::GetLane(row)]);
}
#else
// Any other width: permutes within vectors of N lanes, over the kRows / N pieces of a column, the pieces after
// the first blended in where the row lies in them (N = 16: one permute for 16 rows, AVX-512's two-table
// permute for 32; AVX2: two or four permutes and one or three blends). Four lanes or fewer (SSE, 128-bit
// SVE) gather the 32-entry column instead of eight permutes and seven blends; scalable SVE learns N at run
// time and gathers beyond kRows lanes.
template <class D>
HWY_INLINE hn::Vec<D> SoftplusPiece(D d, const float* piece, hn::Vec<hn::RebindToUnsigned<D>> index) {
    return hn::TableLookupLanes(hn::LoadU(d, piece), hn::IndicesFromVec(d, index));
}

template <int kRows, class D>
HWY_INLINE hn::Vec<D> SoftplusCoefficient(D d, const float* column, hn::Vec<hn::RebindToUnsigned<D>> row) {
    const hn::RebindToUnsigned<D> du;
    const hn::RebindToSigned<D> di;  // rows are below 32: signed compares (every target has them) are exact
    const size_t lanes = hn::Lanes(d);
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
    if constexpr (kRows == 32 && hn::MaxLanes(D()) == 16) {
        return hn::Vec<D>{_mm512_permutex2var_ps(hn::Load(d, column).raw, hn::BitCast(di, row).raw,
                                                 hn::Load(d, column + 16).raw)};
    }
#endif
    if (lanes > static_cast<size_t>(kRows) || (kRows > 16 && lanes <= 4))
        return hn::GatherIndex(d, column, hn::BitCast(di, row));
    if (lanes == static_cast<size_t>(kRows)) return SoftplusPiece(d, column, row);
    const auto within = hn::And(row, hn::Set(du, static_cast<uint32_t>(lanes - 1)));
    auto value = SoftplusPiece(d, column, within);
    for (size_t first = lanes; first < static_cast<size_t>(kRows); first += lanes) {
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

// P(r) = c0 + c1 r + ... + c_kDegree r^kDegree, the coefficients of each lane's row looked up in `table`
// (coefficient-major, kRows entries each), by Horner's scheme: the terms shrink fast (|r| <= 0.35), so the
// last, largest steps round least (Estrin's shorter chain measured no faster: the lookups and multiply-adds
// share the pipes that bound it, not latency).
template <int kRows, int kDegree, class D>
HWY_INLINE hn::Vec<D> TablePolynomial(D d, const float (*table)[kRows], hn::Vec<hn::RebindToUnsigned<D>> row,
                                      hn::Vec<D> r) {
    auto p = SoftplusCoefficient<kRows>(d, table[kDegree], row);
    for (int j = kDegree - 1; j >= 0; --j) p = hn::MulAdd(p, r, SoftplusCoefficient<kRows>(d, table[j], row));
    return p;
}

// log1p(exp(-a)) for any a >= 0 (a = |t|, so also +inf: 0); NaN gives NaN. The range-reduced form and the far
// table; SoftplusOfMinusMagnitude uses it where a >= kSoftplusNearLimit.
template <class D>
HWY_INLINE hn::Vec<D> SoftplusOfMinusMagnitudeFar(D d, hn::Vec<D> a) {
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
    const auto row = hn::Min(k, hn::Set(du, kSoftplusFarRows - 1));
    const auto p = TablePolynomial<kSoftplusFarRows, kSoftplusFarDegree>(d, kSoftplusFarTable, row, r);
    const auto e = TimesPowerOfTwo(d, p, minus_k, k);
    const auto w = hn::IfThenElseZero(hn::RebindMask(d, hn::Eq(row, hn::Set(du, kSoftplusFarRows - 1))),
                                      hn::Set(d, 0.5f));
    return hn::NegMulAdd(hn::Mul(w, e), e, e);
}

// log1p(exp(-a)) for a >= 0 (a = |t|, so also +inf: 0); NaN gives NaN. Each lane's result depends on that lane
// alone: the far form is computed only when some lane needs it, and blended in where a lane does.
template <class D>
HWY_INLINE hn::Vec<D> SoftplusOfMinusMagnitude(D d, hn::Vec<D> a) {
    const hn::RebindToUnsigned<D> du;
    // shifted = a + 1.5 * 2^22 rounds a to a multiple of 1/2 (the sum's ulp), and 2a is the integer j in its
    // low mantissa bits. a - j/2 is exact (Sterbenz, or r = a when j = 0). Adds rather than multiply-adds:
    // they run beside the polynomial's, not on its pipes.
    const auto shifter = hn::Set(d, kHalvesShifter);
    const auto shifted = hn::Add(a, shifter);
    const auto r = hn::Sub(a, hn::Sub(shifted, shifter));
    // The row: the low five bits (all of j where a < 15.75; NaN and large lanes get some row, replaced below).
    // AVX-512's two-table permute reads only those five bits of its index, so a whole vector there skips the
    // mask (one operation fewer on the pipes the permutes and multiply-adds share).
    const auto shifted_bits = hn::BitCast(du, shifted);
    const auto row = kWholeAvx512Vector<D> ? shifted_bits : hn::And(shifted_bits, hn::Set(du, kSoftplusNearRows - 1));
    auto p = TablePolynomial<kSoftplusNearRows, kSoftplusNearDegree>(d, kSoftplusNearTable, row, r);
    const auto near = hn::Lt(a, hn::Set(d, kSoftplusNearLimit));  // false for NaN
    const bool all_near = AllLanesTrue(d, near);
    if (HWY_UNLIKELY(!all_near)) p = hn::IfThenElse(near, p, SoftplusOfMinusMagnitudeFar(d, a));
    return p;
}

}  // namespace aclnn_cpu::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // ACLNN_CPU_KERNELS_VECTOR_SOFTPLUS_INL_H_
