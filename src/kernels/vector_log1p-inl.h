// log1p(e) for e in [0, 1] -- the forward operator's log(1 + exp(-|t|)) -- vectorised with Highway ops; the
// project's own (by the same ruling as its exp), written from the classic reduction that Arm's
// optimized-routines and fdlibm use for log/log1p:
//   s = 1 + e rounded, c = e - (s - 1) exactly (what the rounding lost; log1p(e) = log(s) + c/s to 2^-48);
//   s in [1, 2]: m = s, or s/2 when s >= sqrt(2), so m is in [sqrt(1/2), sqrt(2)] and f = m - 1 is exact;
//   log(m) = f + f^2 (f P(f) - 1/2), P a 7-term minimax polynomial fitted for this file (relative error of
//   the polynomial 3.7e-8, 0.6 x 2^-24, coefficients rounded to fp32);
//   the result is (k ln2_high + f) + (f^2 (f P - 1/2) + k ln2_low + c/s), k = 0 or 1: the first sum is exact
//   (ln2_high has 15 significant bits and f is a multiple of 2^-24), so the result rounds once.
// Below e = 2^-10 three terms of the series e - e^2/2 + e^3/3 are used (exact to 2^-30 relative), because
// there c/s is most of the result and the approximate reciprocal behind it has only 12 correct bits.
// Verified on every fp32 e in [0, 1] on every compiled target (tests/exhaustive/exhaustive_math.cpp) against
// the correctly rounded log1p: within 2 ulp. A NaN e gives NaN (through the arithmetic).

#if defined(ACLNN_CPU_KERNELS_VECTOR_LOG1P_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLNN_CPU_KERNELS_VECTOR_LOG1P_INL_H_
#undef ACLNN_CPU_KERNELS_VECTOR_LOG1P_INL_H_
#else
#define ACLNN_CPU_KERNELS_VECTOR_LOG1P_INL_H_
#endif

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <class D>
HWY_INLINE hn::Vec<D> Log1pOfUnitInterval(D d, hn::Vec<D> e) {
    const auto one = hn::Set(d, 1.0f);
    const auto sum = hn::Add(one, e);
    const auto lost = hn::Sub(e, hn::Sub(sum, one));  // exact
    const auto halve = hn::Ge(sum, hn::Set(d, 1.41421354f));
    const auto m = hn::IfThenElse(halve, hn::Mul(sum, hn::Set(d, 0.5f)), sum);
    const auto f = hn::Sub(m, one);  // exact (Sterbenz)
    // P(f) = p0 + p1 f + ... + p6 f^6, Estrin's scheme.
    const auto f2 = hn::Mul(f, f);
    const auto f4 = hn::Mul(f2, f2);
    const auto p01 = hn::MulAdd(hn::Set(d, -0.250014961f), f, hn::Set(d, 0.333339036f));
    const auto p23 = hn::MulAdd(hn::Set(d, -0.165727392f), f, hn::Set(d, 0.199635655f));
    const auto p45 = hn::MulAdd(hn::Set(d, -0.143024042f), f, hn::Set(d, 0.149036929f));
    const auto p0123 = hn::MulAdd(p23, f2, p01);
    const auto p456 = hn::MulAdd(hn::Set(d, 0.0877901241f), f2, p45);
    const auto p = hn::MulAdd(p456, f4, p0123);
    const auto t = hn::MulAdd(f, p, hn::Set(d, -0.5f));
    const auto zero = hn::Zero(d);
    const auto ln2_high = hn::IfThenElse(halve, hn::Set(d, 0.693145751953125f), zero);
    const auto ln2_low = hn::IfThenElse(halve, hn::Set(d, 1.42860677e-6f), zero);
    const auto high = hn::Add(ln2_high, f);  // exact
    const auto correction = hn::MulAdd(lost, hn::ApproximateReciprocal(sum), ln2_low);
    const auto logarithm = hn::Add(high, hn::MulAdd(f2, t, correction));
    const auto cubic = hn::NegMulAdd(e, hn::Set(d, 1.0f / 3.0f), hn::Set(d, 0.5f));  // 1/2 - e/3
    const auto series = hn::Mul(e, hn::NegMulAdd(e, cubic, one));                    // e (1 - e (1/2 - e/3))
    // A NaN e fails the comparison and its logarithm is NaN: no blend needed for it.
    return hn::IfThenElse(hn::Lt(e, hn::Set(d, 0x1p-10f)), series, logarithm);
}

}  // namespace aclnn_cpu::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // ACLNN_CPU_KERNELS_VECTOR_LOG1P_INL_H_
