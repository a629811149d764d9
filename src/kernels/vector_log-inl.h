// log(x) from a table of 32 short polynomials -- the binary cross-entropy's two logs per element; the
// project's own, by the ruling that covers its exp and log1p (the design of table-driven logs such as Arm's
// optimized-routines logf, with Gal's accurate tables for the row constants, evaluated in fp32):
//   b = bits(x) - bits(0.703125), k = b >> 23, z = x / 2^k in [0.703125, 1.40625) (the exponent bits moved),
//   row j = the next five bits of b (1.0 starts row 19: rows of 1/64 below it, of 1/32 above),
//   u = z - c_j (exact), log(x) = k ln2 + C0_j + u q_j(u), q_j of degree 4 from the table.
// Each row's point c_j is its end nearer to 1 (moved slightly towards 1 so that log(c_j) is within 0.0003 ulp
// of the fp32 C0_j), so where k = 0 the two terms C0_j and u q_j(u) have one sign and never cancel: the
// results near x = 1, which are small, stay accurate relative to themselves. No division: 7 lookups and
// 6 multiply-adds per vector (AVX-512: 7 two-table permutes), against Highway's Log with its division.
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

#include "hwy/highway.h"
#include "kernels/log_table.h"
#include "kernels/table_lookup-inl.h"
#include "kernels/vector_exp-inl.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

constexpr float kLn2 = 0.693147182f;  // ln2 rounded to fp32

// Lanes whose x is normal and positive and below the float whose bits are kEndBits: bits in
// [0x00800000, kEndBits), one unsigned compare. kEndBits = bits(+inf): where LogOfNormal applies.
template <uint32_t kEndBits = 0x7f800000u, class D>
HWY_INLINE hn::Mask<D> IsNormalPositive(D d, hn::Vec<D> x) {
    static_assert(kEndBits > 0x00800000u && kEndBits <= 0x7f800000u, "an end among the positive floats");
    const hn::RebindToUnsigned<D> du;
    const auto from_smallest = hn::Sub(hn::BitCast(du, x), hn::Set(du, 0x00800000u));
    return hn::RebindMask(d, hn::Lt(from_smallest, hn::Set(du, kEndBits - 0x00800000u)));
}

// log(x * 2^exponent_offset) for normal, positive, finite x (other lanes get some finite or NaN value, to be
// replaced). kOffset: whether exponent_offset is used (VectorLog's pre-scaling of subnormals); a lane with
// offset 0 gives the bits it gives without.
template <bool kOffset, class D>
HWY_INLINE hn::Vec<D> LogOfNormal(D d, hn::Vec<D> x, hn::Vec<D> exponent_offset) {
    const hn::RebindToSigned<D> di;
    const hn::RebindToUnsigned<D> du;
    const auto bits = hn::BitCast(di, x);
    const auto reduced = hn::Sub(bits, hn::Set(di, static_cast<int32_t>(kLogOffsetBits)));
    // z = x / 2^k: the exponent field moved by k (reduced's top bits are k * 2^23, two's complement).
    const auto k_bits = hn::And(reduced, hn::Set(di, static_cast<int32_t>(0xff800000u)));
    const auto z = hn::BitCast(d, hn::Sub(bits, k_bits));
    auto k = hn::ConvertTo(d, hn::ShiftRight<23>(reduced));  // arithmetic shift: k may be negative
    if constexpr (kOffset) k = hn::Add(k, exponent_offset);
    // AVX-512's two-table permute reads only the low five bits of the row.
    auto row = hn::ShiftRight<kLogRowShift>(hn::BitCast(du, reduced));
    if constexpr (!kWholeAvx512Vector<D>) row = hn::And(row, hn::Set(du, kLogRows - 1));
    const auto u = hn::Sub(z, TableCoefficient<kLogRows>(d, kLogRowPoint, row));
    auto q = TableCoefficient<kLogRows>(d, kLogTable[kLogDegree], row);
    for (int j = kLogDegree - 1; j >= 1; --j) q = hn::MulAdd(q, u, TableCoefficient<kLogRows>(d, kLogTable[j], row));
    // log(z) = C0 + u q with one rounding, then k ln2 added with the next (exact where k = 0). With FMA, k ln2
    // is taken exactly from ln2's fp32 value, whose own error (1.9e-9) is below 0.07 ulp of any result with
    // k != 0. Without FMA the product would round first; there k kLn2High is exact (|k| < 2^8) and k kLn2Low
    // follows as a correction.
    const auto log_z = hn::MulAdd(q, u, TableCoefficient<kLogRows>(d, kLogTable[0], row));
#if HWY_NATIVE_FMA
    return hn::MulAdd(k, hn::Set(d, kLn2), log_z);
#else
    return hn::MulAdd(k, hn::Set(d, kLn2Low), hn::MulAdd(k, hn::Set(d, kLn2High), log_z));
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
    auto log = LogOfNormal<true>(d, scaled, hn::IfThenElseZero(subnormal, hn::Set(d, -23.0f)));
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
