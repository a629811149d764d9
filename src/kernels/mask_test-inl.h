// Tests of a whole mask in the branches of the vector math and of the tile loops, and what they need to know
// of the vector: shared by kernels/table_lookup-inl.h and kernels/functor_application-inl.h.

#if defined(ACLNN_CPU_KERNELS_MASK_TEST_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLNN_CPU_KERNELS_MASK_TEST_INL_H_
#undef ACLNN_CPU_KERNELS_MASK_TEST_INL_H_
#else
#define ACLNN_CPU_KERNELS_MASK_TEST_INL_H_
#endif

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Whether D is a whole 16-lane AVX-512 vector: there a 32-row lookup reads only the low five bits of the row and
// a 16-row lookup the low four (callers need not mask it), and a mask is tested through a general register.
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
// ran at 4), and the loops that test masks are bound by those pipes.
template <class D>
HWY_INLINE bool AllLanesTrue(D d, hn::Mask<D> mask) {
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
    if constexpr (kWholeAvx512Vector<D>) return _cvtmask16_u32(mask.raw) == 0xFFFFu;
#endif
    return hn::AllTrue(d, mask);
}

}  // namespace aclnn_cpu::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // ACLNN_CPU_KERNELS_MASK_TEST_INL_H_
