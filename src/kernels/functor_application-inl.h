// How the tile loops apply an operator's functor to its inputs: to one vector, or to two or four
// independent vectors at once so that their dependency chains interleave. Included by the tile loops inside
// each target's namespace pass.

// Include guard toggled per target, as Highway's per-target headers require.
#if defined(ACLNN_CPU_KERNELS_FUNCTOR_APPLICATION_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLNN_CPU_KERNELS_FUNCTOR_APPLICATION_INL_H_
#undef ACLNN_CPU_KERNELS_FUNCTOR_APPLICATION_INL_H_
#else
#define ACLNN_CPU_KERNELS_FUNCTOR_APPLICATION_INL_H_
#endif

#include "hwy/highway.h"
#include "kernels/operand_access-inl.h"
#include "kernels/tile_kernel.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The functor applied to its inputs, input(k) giving the k-th as an fp32 vector. The inputs come from a
// function, not an array: SVE's vector types are sizeless, and C++ allows them in neither arrays nor structs,
// so one source serves fixed-size (x86, NEON) and scalable (SVE) targets only if vectors stay in locals,
// arguments and return values.
template <class Op, class Input>
HWY_INLINE hn::Vec<DF> ApplyTo(DF df, Input&& input) {
    static_assert(Op::kInputs >= 1 && Op::kInputs <= kMaxInputs, "an operator has 1 to kMaxInputs inputs");
    if constexpr (Op::kInputs == 1) {
        return Op()(df, input(0));
    } else if constexpr (Op::kInputs == 2) {
        return Op()(df, input(0), input(1));
    } else {
        return Op()(df, input(0), input(1), input(2));
    }
}

// The functor on two vectors, input(k, i) giving input k of the vector at element i, handed to
// consume(r0, r1). Every input of both is loaded before either is computed: the loads may branch (a
// row-constant input is a broadcast), and only two computations in one branch-free stretch are interleaved
// by the scheduler; computing each right after its own loads leaves the chains apart (docs/performance.md,
// "Measurements behind the kernel choices").
template <class Op, class Input, class Consume>
HWY_INLINE void ApplyToTwo(DF df, Input&& input, int64_t i0, int64_t i1, Consume&& consume) {
    if constexpr (Op::kInputs == 1) {
        const auto a0 = input(0, i0), a1 = input(0, i1);
        consume(Op()(df, a0), Op()(df, a1));
    } else if constexpr (Op::kInputs == 2) {
        const auto a0 = input(0, i0), b0 = input(1, i0), a1 = input(0, i1), b1 = input(1, i1);
        consume(Op()(df, a0, b0), Op()(df, a1, b1));
    } else {
        const auto a0 = input(0, i0), b0 = input(1, i0), c0 = input(2, i0);
        const auto a1 = input(0, i1), b1 = input(1, i1), c1 = input(2, i1);
        consume(Op()(df, a0, b0, c0), Op()(df, a1, b1, c1));
    }
}

// The same for four vectors (the fused sum's step).
template <class Op, class Input, class Consume>
HWY_INLINE void ApplyToFour(DF df, Input&& input, int64_t i, int64_t step, Consume&& consume) {
    if constexpr (Op::kInputs == 1) {
        const auto a0 = input(0, i), a1 = input(0, i + step), a2 = input(0, i + 2 * step),
                   a3 = input(0, i + 3 * step);
        consume(Op()(df, a0), Op()(df, a1), Op()(df, a2), Op()(df, a3));
    } else if constexpr (Op::kInputs == 2) {
        const auto a0 = input(0, i), b0 = input(1, i), a1 = input(0, i + step), b1 = input(1, i + step);
        const auto a2 = input(0, i + 2 * step), b2 = input(1, i + 2 * step);
        const auto a3 = input(0, i + 3 * step), b3 = input(1, i + 3 * step);
        consume(Op()(df, a0, b0), Op()(df, a1, b1), Op()(df, a2, b2), Op()(df, a3, b3));
    } else {
        const auto a0 = input(0, i), b0 = input(1, i), c0 = input(2, i);
        const auto a1 = input(0, i + step), b1 = input(1, i + step), c1 = input(2, i + step);
        const auto a2 = input(0, i + 2 * step), b2 = input(1, i + 2 * step), c2 = input(2, i + 2 * step);
        const auto a3 = input(0, i + 3 * step), b3 = input(1, i + 3 * step), c3 = input(2, i + 3 * step);
        consume(Op()(df, a0, b0, c0), Op()(df, a1, b1, c1), Op()(df, a2, b2, c2), Op()(df, a3, b3, c3));
    }
}

}  // namespace aclnn_cpu::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // include guard
