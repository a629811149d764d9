// log1p(e) for e in [0, 1] -- the forward operator's log(1 + exp(-|t|)) -- vectorised with Highway ops; the
// project's own (by the same ruling as its exp). The domain is one binade-free interval whose singularity
// (e = -1) lies a whole interval length away, so a single polynomial covers it without any range reduction,
// blend or division:
//   log1p(e) = e + e^2 Q(e),  Q a degree-9 polynomial fitted for this file (iteratively reweighted least
//   squares on the relative error of log1p; 8e-10 relative, 0.013 x 2^-24, before rounding the coefficients
//   to fp32).
// Writing the leading term e separately keeps the relative precision for small e (where the result is e to
// within e^2/2) and lets the last FMA round the result once. Q is evaluated by Estrin's scheme for its high
// terms and Horner's for the three low ones: the low terms carry most of the value, and Horner's steps there
// add the least rounding error (an all-Estrin evaluation of a degree-8 Q reached 2 ulp near e = 1).
// Verified on every fp32 e in [0, 1] on every compiled target (tests/exhaustive/exhaustive_math.cpp) against
// the correctly rounded log1p: within 2 ulp. A NaN e gives NaN through the arithmetic; 0 and subnormal e give
// e itself.

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
    const auto e2 = hn::Mul(e, e);
    const auto e4 = hn::Mul(e2, e2);
    // High part: q3 + q4 e + ... + q9 e^6, Estrin's scheme.
    const auto q34 = hn::MulAdd(hn::Set(d, -0.161293358f), e, hn::Set(d, 0.198979318f));
    const auto q56 = hn::MulAdd(hn::Set(d, -0.0830740631f), e, hn::Set(d, 0.124671213f));
    const auto q78 = hn::MulAdd(hn::Set(d, -0.013631478f), e, hn::Set(d, 0.0419813544f));
    const auto q3456 = hn::MulAdd(q56, e2, q34);
    const auto q789 = hn::MulAdd(hn::Set(d, 0.00207294710f), e2, q78);
    const auto high = hn::MulAdd(q789, e4, q3456);
    // Low part by Horner: Q = q0 + e (q1 + e (q2 + e high)).
    auto q = hn::MulAdd(high, e, hn::Set(d, -0.249885783f));
    q = hn::MulAdd(q, e, hn::Set(d, 0.333326906f));
    q = hn::MulAdd(q, e, hn::Set(d, -0.499999881f));
    return hn::MulAdd(e2, q, e);
}

}  // namespace aclnn_cpu::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // ACLNN_CPU_KERNELS_VECTOR_LOG1P_INL_H_
