// exp(x) for every fp32 x, vectorised with Highway ops so that it compiles for every target; the project's
// own, written from the design of Arm's optimized-routines vector expf:
//   n = round(x / ln2), r = x - n ln2 (two-constant Cody-Waite reduction), |r| <= ln2/2;
//   exp(r) = 1 + p(r), p(r) = r + r^2 q(r) with q a degree-4 minimax polynomial (relative error of the
//   polynomial 3.7e-9, 0.06 ulp; coefficients fitted for this file and rounded to fp32);
//   exp(x) = 2^n (1 + p), with 2^n applied as two exponent-field powers 2^n1 * 2^n2 (n1 + n2 = n) so that one
//   formula covers overflow (n up to 129) and subnormal results (n down to -151) with a single rounding of
//   the result: s2 (1 + p) is a normal number and the product by s1 rounds only when the result is
//   subnormal or overflows. On AVX-512, vscalefps applies 2^n in one instruction instead (see there).
// Inputs are clamped to [-104, 89] first: below -104 every exp rounds to 0, above 89 every exp rounds to +inf,
// and the clamp keeps n in range. NaN in gives NaN out; -inf gives 0, +inf gives +inf.
// Verified over all 2^32 inputs on every compiled target (tests/exhaustive/exhaustive_math.cpp): within 2 ulp
// of the correctly rounded exp, +inf exactly where that is +inf, the same for 0 and subnormals.
// The multiply-adds are FMAs where the target has them; the bits may differ between targets, never between
// calls on one target (so layouts and thread counts still give identical results).

#if defined(ACLNN_CPU_KERNELS_VECTOR_EXP_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLNN_CPU_KERNELS_VECTOR_EXP_INL_H_
#undef ACLNN_CPU_KERNELS_VECTOR_EXP_INL_H_
#else
#define ACLNN_CPU_KERNELS_VECTOR_EXP_INL_H_
#endif

#include "hwy/highway.h"
#include "kernels/vector_nan-inl.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// p(r) = exp(r) - 1 for |r| <= ln2/2: r + r^2 (c2 + c3 r + c4 r^2 + c5 r^3 + c6 r^4), Estrin's scheme.
template <class D>
HWY_INLINE hn::Vec<D> ExpMinusOneOfReduced(D d, hn::Vec<D> r) {
    const auto r2 = hn::Mul(r, r);
    const auto low = hn::MulAdd(hn::Set(d, 0.166665211f), r, hn::Set(d, 0.49999997f));
    const auto high = hn::MulAdd(hn::Set(d, 0.00138796913f), r2,
                                 hn::MulAdd(hn::Set(d, 0.00836869329f), r, hn::Set(d, 0.0416672267f)));
    const auto q = hn::MulAdd(high, r2, low);
    return hn::MulAdd(q, r2, r);
}

// The reduction's constants, shared with kernels/vector_softplus-inl.h. ln2 = kLn2High + kLn2Low; kLn2High
// has 15 significant bits, so n * kLn2High (|n| <= 151) is exact, with or without FMA, and so is the
// subtraction from x (Sterbenz). Adding kRoundingShifter (1.5 * 2^23) to |v| < 2^22 rounds v to an integer,
// which then sits in the low mantissa bits.
constexpr float kInverseLn2 = 1.44269502f;
constexpr float kLn2High = 0.693145751953125f;
constexpr float kLn2Low = 1.42860677e-6f;
constexpr float kRoundingShifter = 12582912.0f;

template <class D>
HWY_INLINE hn::Vec<D> ReduceByLn2(D d, hn::Vec<D> x, hn::Vec<D> n) {
    const auto r_high = hn::NegMulAdd(n, hn::Set(d, kLn2High), x);
    return hn::NegMulAdd(n, hn::Set(d, kLn2Low), r_high);
}

#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
// AVX-512: vscalefps multiplies by 2^n with a single rounding into the subnormal range and a correct overflow
// to +inf, which replaces the two exponent-field scales of the portable path and the float-to-int
// conversion; n comes from the round-to-nearest "shifter" (x / ln2 + 1.5 * 2^23, then minus it again) in two
// single-uop instructions instead of a round. The clamp lets a NaN x through (kernels/vector_nan-inl.h: free
// on x86), and the NaN then propagates through the arithmetic, so this path needs no NaN blend. Saves 9 of
// the portable path's 23 instructions.
HWY_INLINE __m512 ScaleByPowerOfTwo(__m512 m, __m512 n) { return _mm512_scalef_ps(m, n); }
HWY_INLINE __m256 ScaleByPowerOfTwo(__m256 m, __m256 n) { return _mm256_scalef_ps(m, n); }
HWY_INLINE __m128 ScaleByPowerOfTwo(__m128 m, __m128 n) { return _mm_scalef_ps(m, n); }

template <class D>
HWY_INLINE hn::Vec<D> VectorExp(D d, hn::Vec<D> x) {
    const auto clamped = MinPassingNaN(d, hn::Set(d, 89.0f), MaxPassingNaN(d, hn::Set(d, -104.0f), x));
    const auto shifter = hn::Set(d, kRoundingShifter);
    const auto n = hn::Sub(hn::MulAdd(clamped, hn::Set(d, kInverseLn2), shifter), shifter);
    const auto p = ExpMinusOneOfReduced(d, ReduceByLn2(d, clamped, n));
    const auto m = hn::Add(p, hn::Set(d, 1.0f));
    return hn::Vec<D>{ScaleByPowerOfTwo(m.raw, n.raw)};
}
#else
template <class D>
HWY_INLINE hn::Vec<D> VectorExp(D d, hn::Vec<D> x) {
    const hn::RebindToSigned<D> di;
    const auto clamped = hn::Min(hn::Max(x, hn::Set(d, -104.0f)), hn::Set(d, 89.0f));
    const auto n = hn::Round(hn::Mul(clamped, hn::Set(d, kInverseLn2)));  // x / ln2, to nearest
    const auto p = ExpMinusOneOfReduced(d, ReduceByLn2(d, clamped, n));
    // 2^n = 2^n1 * 2^n2 with n1 = floor(n / 2): both exponents lie in [-76, 65], normal numbers.
    const auto n_int = hn::ConvertTo(di, n);
    const auto n1 = hn::ShiftRight<1>(n_int);
    const auto n2 = hn::Sub(n_int, n1);
    const auto bias = hn::Set(di, 127);
    const auto scale1 = hn::BitCast(d, hn::ShiftLeft<23>(hn::Add(n1, bias)));
    const auto scale2 = hn::BitCast(d, hn::ShiftLeft<23>(hn::Add(n2, bias)));
    const auto result = hn::Mul(hn::MulAdd(scale2, p, scale2), scale1);
    return hn::IfThenElse(hn::IsNaN(x), x, result);
}
#endif

}  // namespace aclnn_cpu::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // ACLNN_CPU_KERNELS_VECTOR_EXP_INL_H_
