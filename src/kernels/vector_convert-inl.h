// Per-target vector conversions between fp32 and FLOAT16/BFLOAT16 bit patterns (held in 32-bit lanes),
// for Highway's foreach_target. Narrowing rounds to nearest, ties to even; NaN stays NaN (whatever its
// payload); overflow gives infinity; subnormals are exact. Highway 1.0.3's own bf16 demotion truncates and its
// software f16 path does not round, so only the F16C instructions of the AVX2/AVX-512 targets are used as
// they are; every other conversion is written here with integer operations (the same algorithm as
// common/float_convert.h).

// Include guard toggled per target, as Highway's per-target headers require.
#if defined(ACLNN_CPU_KERNELS_VECTOR_CONVERT_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLNN_CPU_KERNELS_VECTOR_CONVERT_INL_H_
#undef ACLNN_CPU_KERNELS_VECTOR_CONVERT_INL_H_
#else
#define ACLNN_CPU_KERNELS_VECTOR_CONVERT_INL_H_
#endif

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#undef ACLNN_CPU_HARDWARE_F16
#undef ACLNN_CPU_BF16_PAIRS
#if HWY_ARCH_X86 && (HWY_TARGET <= HWY_AVX2) && !defined(HWY_DISABLE_F16C)
#define ACLNN_CPU_HARDWARE_F16 1  // vcvtph2ps / vcvtps2ph: exact widening, RNE narrowing
#else
#define ACLNN_CPU_HARDWARE_F16 0
#endif

// FLOAT16 bits (low 16 bits of each lane) -> fp32, exactly.
template <class DF>
HWY_INLINE hn::Vec<DF> HalfBitsToFloat(DF df, hn::Vec<hn::RebindToUnsigned<DF>> half) {
    const hn::RebindToUnsigned<DF> du;
    const hn::RebindToSigned<DF> di;
#if ACLNN_CPU_HARDWARE_F16
    const hn::Rebind<uint16_t, DF> du16;
    const hn::Rebind<hwy::float16_t, DF> df16;
    (void)du;
    (void)di;
    return hn::PromoteTo(df, hn::BitCast(df16, hn::DemoteTo(du16, hn::BitCast(di, half))));
#else
    const auto sign = hn::ShiftLeft<16>(hn::And(half, hn::Set(du, 0x8000u)));
    const auto exponent = hn::And(hn::ShiftRight<10>(half), hn::Set(du, 0x1fu));
    const auto mantissa = hn::And(half, hn::Set(du, 0x3ffu));
    const auto normal = hn::Or(hn::ShiftLeft<23>(hn::Add(exponent, hn::Set(du, 112u))), hn::ShiftLeft<13>(mantissa));
    const auto special = hn::Or(hn::Set(du, 0x7f800000u), hn::ShiftLeft<13>(mantissa));  // inf, NaN
    // zero and subnormals: mantissa * 2^-24 is exact in fp32
    const auto tiny = hn::BitCast(du, hn::Mul(hn::ConvertTo(df, hn::BitCast(di, mantissa)),
                                             hn::Set(df, 5.9604644775390625e-8f)));
    const auto is_zero_exp = hn::RebindMask(du, hn::Eq(hn::BitCast(di, exponent), hn::Zero(di)));
    const auto is_max_exp = hn::RebindMask(du, hn::Eq(hn::BitCast(di, exponent), hn::Set(di, 0x1f)));
    const auto magnitude = hn::IfThenElse(is_zero_exp, tiny, hn::IfThenElse(is_max_exp, special, normal));
    return hn::BitCast(df, hn::Or(sign, magnitude));
#endif
}

// fp32 -> FLOAT16 bits in the low 16 bits of each lane, rounded to nearest even.
template <class DF>
HWY_INLINE hn::Vec<hn::RebindToUnsigned<DF>> FloatToHalfBits(DF df, hn::Vec<DF> value) {
    const hn::RebindToUnsigned<DF> du;
    const hn::RebindToSigned<DF> di;
#if ACLNN_CPU_HARDWARE_F16
    const hn::Rebind<uint16_t, DF> du16;
    const hn::Rebind<hwy::float16_t, DF> df16;
    (void)di;
    return hn::PromoteTo(du, hn::BitCast(du16, hn::DemoteTo(df16, value)));
#else
    const auto bits = hn::BitCast(du, value);
    const auto sign = hn::And(hn::ShiftRight<16>(bits), hn::Set(du, 0x8000u));
    const auto magnitude = hn::And(bits, hn::Set(du, 0x7fffffffu));
    const auto m = hn::BitCast(di, magnitude);  // non-negative: signed compares are exact
    const auto nan = hn::Or(hn::Set(du, 0x7e00u), hn::And(hn::ShiftRight<13>(magnitude), hn::Set(du, 0x1ffu)));
    const auto rounded = hn::Add(magnitude, hn::Add(hn::Set(du, 0x0fffu), hn::And(hn::ShiftRight<13>(magnitude),
                                                                                  hn::Set(du, 1u))));
    const auto normal = hn::ShiftRight<13>(hn::Sub(rounded, hn::Set(du, 0x38000000u)));
    // Subnormal halves: adding 0.5 puts the value's 2^-24 units in the low mantissa bits, rounded by the FPU.
    const auto shifted = hn::BitCast(du, hn::Add(hn::BitCast(df, magnitude), hn::Set(df, 0.5f)));
    const auto subnormal = hn::Sub(shifted, hn::Set(du, 0x3f000000u));
    auto result = hn::IfThenElse(hn::RebindMask(du, hn::Lt(m, hn::Set(di, 0x38800000))), subnormal, normal);
    result = hn::IfThenElse(hn::RebindMask(du, hn::Gt(m, hn::Set(di, 0x477fefff))), hn::Set(du, 0x7c00u), result);
    result = hn::IfThenElse(hn::RebindMask(du, hn::Gt(m, hn::Set(di, 0x7f800000))), nan, result);
    return hn::Or(sign, result);
#endif
}

// BFLOAT16 bits (low 16 bits of each lane) -> fp32, exactly.
template <class DF>
HWY_INLINE hn::Vec<DF> Bf16BitsToFloat(DF df, hn::Vec<hn::RebindToUnsigned<DF>> bf16) {
    return hn::BitCast(df, hn::ShiftLeft<16>(bf16));
}

// fp32 bits with the BFLOAT16 rounded to nearest even in the high half (the low half is left over). A NaN
// keeps its sign and high payload, quieted; IsNaN, not Ne(value, value): Highway 1.0.3's float != is an
// ordered compare, false for NaN on x86, and a NaN with a full payload would round into -0.
template <class DF>
HWY_INLINE hn::Vec<hn::RebindToUnsigned<DF>> Bf16RoundedHigh(DF df, hn::Vec<DF> value) {
    const hn::RebindToUnsigned<DF> du;
    (void)df;
    const auto bits = hn::BitCast(du, value);
    const auto lsb = hn::And(hn::ShiftRight<16>(bits), hn::Set(du, 1u));
    const auto rounded = hn::Add(bits, hn::Add(lsb, hn::Set(du, 0x7fffu)));
    return hn::IfThenElse(hn::RebindMask(du, hn::IsNaN(value)), hn::Or(bits, hn::Set(du, 0x00400000u)), rounded);
}

// fp32 -> BFLOAT16 bits in the low 16 bits of each lane, rounded to nearest even; NaN stays NaN (quieted).
template <class DF>
HWY_INLINE hn::Vec<hn::RebindToUnsigned<DF>> FloatToBf16Bits(DF df, hn::Vec<DF> value) {
    return hn::ShiftRight<16>(Bf16RoundedHigh(df, value));
}

// Two vectors' worth of BFLOAT16 at once, for the all-BFLOAT16 fused kernel: the elements at even positions
// of a full vector of 16-bit lanes widen to one fp32 vector, those at odd positions to another, one
// instruction each (a bf16 is the high half of its fp32). FloatPairToBf16 puts them back in order. Not on the
// scalar target, whose one-lane vectors cannot be split in two.
#if HWY_TARGET != HWY_SCALAR
#define ACLNN_CPU_BF16_PAIRS 1
template <class DF>
HWY_INLINE hn::Vec<DF> Bf16EvenToFloat(DF df, hn::Vec<hn::Repartition<uint16_t, DF>> bf16) {
    return hn::BitCast(df, hn::ShiftLeft<16>(hn::BitCast(hn::RebindToUnsigned<DF>(), bf16)));
}
template <class DF>
HWY_INLINE hn::Vec<DF> Bf16OddToFloat(DF df, hn::Vec<hn::Repartition<uint16_t, DF>> bf16) {
    const hn::RebindToUnsigned<DF> du;
    return hn::BitCast(df, hn::And(hn::BitCast(du, bf16), hn::Set(du, 0xffff0000u)));
}

// Inverse of Bf16EvenToFloat and Bf16OddToFloat, rounding each value to nearest even.
template <class DF>
HWY_INLINE hn::Vec<hn::Repartition<uint16_t, DF>> FloatPairToBf16(DF df, hn::Vec<DF> even, hn::Vec<DF> odd) {
    const hn::Repartition<uint16_t, DF> du16;
    return hn::OddEven(hn::BitCast(du16, Bf16RoundedHigh(df, odd)),
                       hn::BitCast(du16, FloatToBf16Bits(df, even)));
}

#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
// FloatPairToBf16 in two instructions with AVX512-BF16's vcvtne2ps2bf16, which rounds to nearest even and
// quiets NaNs exactly like the integer code, but flushes subnormal fp32 values to zero: a pair holding one
// takes the integer code instead. Highway 1.0.3 has no AVX512-BF16 target, so the instruction goes in as
// inline assembly, reached only when the CPU reports the extension (hardware).
template <class DF>
HWY_INLINE hn::Vec<hn::Repartition<uint16_t, DF>> NarrowBf16Pair(DF df, hn::Vec<DF> even, hn::Vec<DF> odd,
                                                                 bool hardware) {
    const hn::Repartition<uint16_t, DF> du16;
    constexpr int kSubnormal = 0x20;  // vfpclassps category: denormal
    const __mmask16 subnormal = _mm512_fpclass_ps_mask(even.raw, kSubnormal) |
                                _mm512_fpclass_ps_mask(odd.raw, kSubnormal);
    if (!hardware || subnormal != 0) return FloatPairToBf16(df, even, odd);
    __m512i halves;  // even's bf16 in 16-bit lanes 0-15, odd's in lanes 16-31
    asm("vcvtne2ps2bf16 %2, %1, %0" : "=v"(halves) : "v"(odd.raw), "v"(even.raw));
    alignas(64) static constexpr uint16_t kInterleave[32] = {0,  16, 1,  17, 2,  18, 3,  19, 4,  20, 5,
                                                             21, 6,  22, 7,  23, 8,  24, 9,  25, 10, 26,
                                                             11, 27, 12, 28, 13, 29, 14, 30, 15, 31};
    return hn::Vec<decltype(du16)>{_mm512_permutexvar_epi16(_mm512_load_si512(kInterleave), halves)};
}
#else
template <class DF>
HWY_INLINE hn::Vec<hn::Repartition<uint16_t, DF>> NarrowBf16Pair(DF df, hn::Vec<DF> even, hn::Vec<DF> odd,
                                                                 bool /*hardware: AVX-512 only*/) {
    return FloatPairToBf16(df, even, odd);
}
#endif
#else
#define ACLNN_CPU_BF16_PAIRS 0
#endif

}  // namespace aclnn_cpu::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // include guard
