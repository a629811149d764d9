// Min and Max that pass a NaN operand v through, for Highway's foreach_target. Highway leaves Min's and
// Max's NaN behaviour to the target; on x86, MINPS and MAXPS return their second operand when either is NaN,
// so putting v second is all it takes (no compare, no blend); elsewhere -- Highway's scalar target on x86
// too, whose Min returns the other operand -- the NaN is passed through with a blend. Used where a kernel
// would otherwise need a separate NaN pass-through after a clamp.

// Include guard toggled per target, as Highway's per-target headers require.
#if defined(ACLNN_CPU_KERNELS_VECTOR_NAN_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLNN_CPU_KERNELS_VECTOR_NAN_INL_H_
#undef ACLNN_CPU_KERNELS_VECTOR_NAN_INL_H_
#else
#define ACLNN_CPU_KERNELS_VECTOR_NAN_INL_H_
#endif

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// min(bound, v), NaN where v is NaN.
template <class D>
HWY_INLINE hn::Vec<D> MinPassingNaN(D d, hn::Vec<D> bound, hn::Vec<D> v) {
#if HWY_ARCH_X86 && HWY_TARGET != HWY_SCALAR
    (void)d;
    return hn::Min(bound, v);
#else
    (void)d;
    return hn::IfThenElse(hn::IsNaN(v), v, hn::Min(bound, v));
#endif
}

// max(bound, v), NaN where v is NaN.
template <class D>
HWY_INLINE hn::Vec<D> MaxPassingNaN(D d, hn::Vec<D> bound, hn::Vec<D> v) {
#if HWY_ARCH_X86 && HWY_TARGET != HWY_SCALAR
    (void)d;
    return hn::Max(bound, v);
#else
    (void)d;
    return hn::IfThenElse(hn::IsNaN(v), v, hn::Max(bound, v));
#endif
}

}  // namespace aclnn_cpu::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // ACLNN_CPU_KERNELS_VECTOR_NAN_INL_H_
