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
#include "kernels/table_lookup-inl.h"
#include "kernels/vector_exp-inl.h"
#include "kernels/vector_nan-inl.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// 1.5 * 2^22: added to 0 <= a < 2^21, the sum's ulp is 1/2, so the sum holds a rounded to a multiple of 1/2.
constexpr float kHalvesShifter = 6291456.0f;

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
