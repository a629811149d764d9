// log(x) from a 16-row table and one short polynomial -- the binary cross-entropy's two logs per element; the
// project's own, by the ruling that covers its exp and log1p (the design of table-driven logs such as Arm's
// optimized-routines logf, with Gal's accurate tables for the row constants, evaluated in fp32):
//   b = bits(x) - bits(0.703125), k = b >> 23, z = x / 2^k in [0.703125, 1.40625) (the exponent bits moved),
//   row j = the next four bits of b (1.0 lies in the middle of row 9, whose i_j is 1),
//   r = z i_j - 1 (one rounding), log(x) = k ln2 + (L_j + (r + r^2 P(r))), P of degree 3 for every row.
// i_j is about the inverse of the row's centre, chosen so that L_j = -log(i_j) is within 0.0003 ulp of its fp32
// value. In row 9, r = z - 1 exactly and log(z) = log1p(r): the results near x = 1, which are small, stay
// accurate relative to themselves. Two lookups (AVX-512: two one-register permutes) and six multiply-adds per
// vector; the lookups and multiply-adds share the pipes that bound the binary cross-entropy's forward.
// The table is kernels/log_table.h (scripts/fit_log_table.py). Every target with FMA gives the same bits.
// Verified over every fp32 input on every compiled target (tests/exhaustive/exhaustive_math.cpp, function
// "log"; the rule is 2 ulp; the measured worst errors are in docs/compatibility.md).

#if defined(ACLNN_CPU_KERNELS_VECTOR_LOG_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLNN_CPU_KERNELS_VECTOR_LOG_INL_H_
#undef ACLNN_CPU_KERNELS_VECTOR_LOG_INL_H_
#else
#define ACLNN_CPU_KERNELS_VECTOR_LOG_INL_H_
#endif

#include <cmath>
#include <cstdint>
#include <iterator>

#include "hwy/highway.h"
#include "kernels/log_table.h"
#include "kernels/table_lookup-inl.h"
#include "kernels/vector_exp-inl.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

constexpr float kLn2 = 0.693147182f;  // ln2 rounded to fp32
// The weight of k in the exponent field's bits (the mantissa is 23 bits wide): the reduction holds k times this,
// and so does LogOfNormal's exponent_offset.
constexpr float kExponentFieldUnit = 0x1p23f;

// Lanes whose x is normal and positive and below the float whose bits are kEndBits: bits in
// [0x00800000, kEndBits), one unsigned compare. kEndBits = bits(+inf): where LogOfNormal applies.
template <uint32_t kEndBits = 0x7f800000u, class D>
HWY_INLINE hn::Mask<D> IsNormalPositive(D d, hn::Vec<D> x) {
    static_assert(kEndBits > 0x00800000u && kEndBits <= 0x7f800000u, "an end among the positive floats");
    const hn::RebindToUnsigned<D> du;
    const auto from_smallest = hn::Sub(hn::BitCast(du, x), hn::Set(du, 0x00800000u));
    return hn::RebindMask(d, hn::Lt(from_smallest, hn::Set(du, kEndBits - 0x00800000u)));
}

// log(x * 2^(exponent_offset / kExponentFieldUnit)) for normal, positive, finite x (other lanes get some finite
// or NaN value, to be replaced); exponent_offset is an integer times kExponentFieldUnit. kOffset: whether
// exponent_offset is used (VectorLog's pre-scaling of subnormals); a lane with offset 0 gives the bits it
// gives without.
template <bool kOffset, class D>
HWY_INLINE hn::Vec<D> LogOfNormal(D d, hn::Vec<D> x, hn::Vec<D> exponent_offset) {
    const hn::RebindToSigned<D> di;
    const hn::RebindToUnsigned<D> du;
    const auto bits = hn::BitCast(di, x);
    const auto reduced = hn::Sub(bits, hn::Set(di, static_cast<int32_t>(kLogOffsetBits)));
    // z = x / 2^k: the exponent field moved by k (reduced's top bits are k * 2^23, two's complement).
    const auto k_bits = hn::And(reduced, hn::Set(di, static_cast<int32_t>(0xff800000u)));
    const auto z = hn::BitCast(d, hn::Sub(bits, k_bits));
    // k kExponentFieldUnit, converted exactly (|k| <= 2^8), the unit divided out of ln2's constants below: the
    // same products k ln2 as shifting k down first, one instruction fewer.
    auto k_scaled = hn::ConvertTo(d, k_bits);
    if constexpr (kOffset) k_scaled = hn::Add(k_scaled, exponent_offset);
    // AVX-512's one-register permute reads only the low four bits of the row.
    auto row = hn::ShiftRight<kLogRowShift>(hn::BitCast(du, reduced));
    if constexpr (!kWholeAvx512Vector<D>) row = hn::And(row, hn::Set(du, kLogRows - 1));
    const auto inverse = TableCoefficient<kLogRows>(d, kLogRowInverse, row);
#if HWY_NATIVE_FMA
    // z i - 1 with one rounding: the product is exact inside the multiply-add.
    const auto r = hn::MulSub(z, inverse, hn::Set(d, 1.0f));
#else
    // Without FMA the product would round first, by up to 2^-25 -- many ulps of a result near its row's L.
    // z i - 1 = (z - c) i + (c i - 1) with c = 1 / i rounded: z - c is exact (within a factor 2), c i - 1 is
    // the table's e, and the rounding of (z - c) i is relative to r itself.
    const auto r = hn::MulAdd(hn::Sub(z, TableCoefficient<kLogRows>(d, kLogRowPoint, row)), inverse,
                              TableCoefficient<kLogRows>(d, kLogRowPointError, row));
#endif
    // P by Horner's scheme, its degree the generated table's.
    constexpr int kLast = static_cast<int>(std::size(kLog1pPolynomial)) - 1;
    auto p = hn::Set(d, kLog1pPolynomial[kLast]);
    for (int j = kLast - 1; j >= 0; --j) p = hn::MulAdd(p, r, hn::Set(d, kLog1pPolynomial[j]));
    // log1p(r) = r + r^2 P rounds once, and L is added next (exactly where L = 0, row 9): a result near L
    // keeps the error of log1p(r) relative to the smaller r (folding r into the polynomial or adding L first
    // rounds twice at the result's magnitude; worst 1.9 and 2.0 ulp against 1.25 in a float64 simulation).
    const auto log1p_r = hn::MulAdd(hn::Mul(r, r), p, r);
    const auto log_z = hn::Add(log1p_r, TableCoefficient<kLogRows>(d, kLogRowLog, row));
    // With FMA, k ln2 is taken exactly from ln2's fp32 value, whose own error (1.9e-9) is below 0.07 ulp of any
    // result with k != 0. Without FMA the product would round first; there k kLn2High is exact (|k| < 2^8) and
    // k kLn2Low follows as a correction.
    // Dividing a constant by the power of two kExponentFieldUnit is exact, and so the products of k_scaled are
    // those of k.
#if HWY_NATIVE_FMA
    return hn::MulAdd(k_scaled, hn::Set(d, kLn2 / kExponentFieldUnit), log_z);
#else
    return hn::MulAdd(k_scaled, hn::Set(d, kLn2Low / kExponentFieldUnit),
                      hn::MulAdd(k_scaled, hn::Set(d, kLn2High / kExponentFieldUnit), log_z));
#endif
}

// log(x) for normal, positive, finite x.
template <class D>
HWY_INLINE hn::Vec<D> LogOfNormal(D d, hn::Vec<D> x) {
    return LogOfNormal<false>(d, x, hn::Zero(d));
}

// log(x) for every x that is not normal, positive and finite, as IEEE's log: subnormals scaled by 2^23 first
// (exactly), log(+-0) = -inf, a negative x or NaN gives NaN, log(+inf) = +inf. Normal lanes get LogOfNormal's
// bits: a lane's result does not depend on its neighbours.
template <class D>
HWY_NOINLINE hn::Vec<D> LogOfAny(D d, hn::Vec<D> x) {
    const auto subnormal = hn::Lt(x, hn::Set(d, 1.17549435e-38f));  // also 0 and negatives, replaced below
    const auto scaled = hn::IfThenElse(subnormal, hn::Mul(x, hn::Set(d, 8388608.0f)), x);
    auto log = LogOfNormal<true>(d, scaled, hn::IfThenElseZero(subnormal, hn::Set(d, -23.0f * kExponentFieldUnit)));
    log = hn::IfThenElse(hn::Eq(x, hn::Zero(d)), hn::Set(d, -HUGE_VALF), log);
    log = hn::IfThenElse(hn::Lt(x, hn::Zero(d)), hn::Set(d, NAN), log);
    log = hn::IfThenElse(hn::Eq(x, hn::Set(d, HUGE_VALF)), x, log);
    return hn::IfThenElse(hn::IsNaN(x), x, log);
}

// log(x) for any x (IEEE's special values, see LogOfAny), through the table's fast form wherever a whole
// vector is normal and positive.
template <class D>
HWY_INLINE hn::Vec<D> VectorLog(D d, hn::Vec<D> x) {
    if (HWY_LIKELY(AllLanesTrue(d, IsNormalPositive(d, x)))) return LogOfNormal(d, x);
    return LogOfAny(d, x);
}

}  // namespace aclnn_cpu::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // ACLNN_CPU_KERNELS_VECTOR_LOG_INL_H_
