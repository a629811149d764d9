// Evaluating an fp32 functor's arithmetic in float64, for a formula whose true value fp32 steps cannot hold: a
// difference of two transcendental terms that cancels (the logits loss's gradient with a soft label near its
// minimum). Each half of the fp32 vectors is widened exactly, the formula runs on float64 vectors, and the
// result is rounded to fp32 once.
//   EvaluateInFloat64(d, fn, v...): fn(dd, w...) on the widened halves of v..., rounded to fp32.
//   ExpOfModerate(dd, a): e^a for float64 a in [-700, 700] (no NaN), within a few float64 ulp -- far below the
//     fp32 half ulp its callers round to: a = k ln2 + r (two-constant Cody-Waite, k from the shifter), |r| <=
//     ln2/2; e^r from its Taylor polynomial of degree 13; 2^k from k's bits.
// Verified through the logits gradient's per-element arithmetic over every fp32 x (tests/exhaustive, function
// "sigmoid").

#if defined(ACLNN_CPU_KERNELS_FLOAT64_EVALUATION_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLNN_CPU_KERNELS_FLOAT64_EVALUATION_INL_H_
#undef ACLNN_CPU_KERNELS_FLOAT64_EVALUATION_INL_H_
#else
#define ACLNN_CPU_KERNELS_FLOAT64_EVALUATION_INL_H_
#endif

#include <cmath>
#include <cstdint>

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if !HWY_HAVE_FLOAT64
#error "the float64 evaluation needs float64 vectors on every compiled target"
#endif

// v rounded to fp32 as IEEE rounds it. Highway's scalar demotion maps a value past fp32's range, infinity
// included, to the largest finite value; the vector targets' conversions are IEEE's.
template <class DF, class DD>
HWY_INLINE hn::Vec<DF> RoundToFloat(DF df, DD /*dd*/, hn::Vec<DD> v) {
#if HWY_TARGET == HWY_SCALAR
    const double value = hn::GetLane(v);
    if (std::fabs(value) >= 0x1.ffffffp127) return hn::Set(df, std::copysign(HUGE_VALF, static_cast<float>(value)));
#endif
    return hn::DemoteTo(df, v);
}

template <class D, class Fn, class... V>
HWY_INLINE hn::Vec<D> EvaluateInFloat64(D d, const Fn& fn, V... v) {
#if HWY_TARGET == HWY_SCALAR
    const hn::Rebind<double, D> dd;
    return RoundToFloat(d, dd, fn(dd, hn::PromoteTo(dd, v)...));
#else
    const hn::Half<D> dh;
    const hn::Rebind<double, decltype(dh)> dd;
    const auto lower = fn(dd, hn::PromoteTo(dd, hn::LowerHalf(dh, v))...);
    const auto upper = fn(dd, hn::PromoteTo(dd, hn::UpperHalf(dh, v))...);
    return hn::Combine(d, RoundToFloat(dh, dd, upper), RoundToFloat(dh, dd, lower));
#endif
}

template <class DD>
HWY_INLINE hn::Vec<DD> ExpOfModerate(DD dd, hn::Vec<DD> a) {
    const hn::RebindToSigned<DD> di;
    // 1.5 * 2^52: added to a * log2(e) (|.| < 2^51), the sum's low mantissa bits hold k = round(a * log2(e)).
    const auto shifter = hn::Set(dd, 0x1.8p52);
    const auto shifted = hn::MulAdd(a, hn::Set(dd, 0x1.71547652b82fep0), shifter);
    const auto k = hn::Sub(shifted, shifter);
    // ln2 = high + low, high with its low 32 bits zero, so k * high (|k| <= 1010) and a - k * high are exact.
    auto r = hn::NegMulAdd(k, hn::Set(dd, 0x1.62e42fee00000p-1), a);
    r = hn::NegMulAdd(k, hn::Set(dd, 0x1.a39ef35793c76p-33), r);
    // e^r = sum of r^n / n!, n = 0..13 (truncation below 5e-18 relative: the slope's cancellation near its zero
    // magnifies this error, and fp32 must not see it), by Estrin's scheme: the terms in pairs, then powers of r^2,
    // so the dependent chain is five operations long rather than thirteen.
    const auto r2 = hn::Mul(r, r);
    const auto r4 = hn::Mul(r2, r2);
    const auto r8 = hn::Mul(r4, r4);
    const auto c = [dd](double v) { return hn::Set(dd, v); };
    const auto p01 = hn::MulAdd(r, c(1.0), c(1.0));
    const auto p23 = hn::MulAdd(r, c(1.0 / 6), c(0.5));
    const auto p45 = hn::MulAdd(r, c(1.0 / 120), c(1.0 / 24));
    const auto p67 = hn::MulAdd(r, c(1.0 / 5040), c(1.0 / 720));
    const auto p89 = hn::MulAdd(r, c(1.0 / 362880), c(1.0 / 40320));
    const auto p10_11 = hn::MulAdd(r, c(1.0 / 39916800), c(1.0 / 3628800));
    const auto p12_13 = hn::MulAdd(r, c(1.0 / 6227020800), c(1.0 / 479001600));
    const auto p0_3 = hn::MulAdd(r2, p23, p01);
    const auto p4_7 = hn::MulAdd(r2, p67, p45);
    const auto p8_11 = hn::MulAdd(r2, p10_11, p89);
    const auto p0_7 = hn::MulAdd(r4, p4_7, p0_3);
    const auto p8_13 = hn::MulAdd(r4, p12_13, p8_11);
    const auto p = hn::MulAdd(r8, p8_13, p0_7);
    // 2^k: k's bits from the shifted sum, moved into the exponent field.
    const auto k_bits = hn::Sub(hn::BitCast(di, shifted), hn::BitCast(di, shifter));
    const auto scale = hn::BitCast(dd, hn::ShiftLeft<52>(hn::Add(k_bits, hn::Set(di, 1023))));
    return hn::Mul(p, scale);
}

}  // namespace aclnn_cpu::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // include guard
