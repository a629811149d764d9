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

#include <cstddef>
#include <type_traits>
#include <utility>

#include "hwy/highway.h"
#include "kernels/mask_test-inl.h"
#include "kernels/operand_access-inl.h"
#include "kernels/tile_kernel.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <class Op, class = void>
struct TakesParameters : std::false_type {};
template <class Op>
struct TakesParameters<Op, std::void_t<typename Op::Parameters>> : std::true_type {};

// An operator's functor for a call: built from the struct phase 1 set (its `Parameters`: beta, a mean's
// coefficient, ...) when it declares one, else default-constructed. Cheap to build (a few scalars), so each tile
// function builds its own and passes it through its loops by reference.
template <class Op>
HWY_INLINE Op MakeFunctor(const KernelConfig& config) {
    if constexpr (TakesParameters<Op>::value) {
        return Op(config.parameters.As<typename Op::Parameters>());
    } else {
        (void)config;
        return Op();
    }
}

// An operator's functor may declare faster forms of itself, each giving operator()'s bits on the inputs it
// admits (binary cross-entropy: one log where every label is 0 or 1; the logs' fast path where every x and
// 1 - x is normal):
//   static constexpr int kForms = N;
//   template <int kForm, class D> hn::Mask<D> Admits(D, inputs...) const;  // the lanes form kForm serves
//   template <int kForm, class D> hn::Vec<D> Form(D, inputs...) const;      // branch-free
// and operator() then serves any input. The loops test a form on all the vectors they hold (one, two or four)
// and apply it to them together in one branch-free stretch, where the compiler interleaves their dependency
// chains: a functor that branched on each vector inside operator() would keep every vector's chain apart
// (docs/performance.md, "Measurements behind the kernel choices").
template <class Op, class = void>
struct FormCount : std::integral_constant<int, 0> {};
template <class Op>
struct FormCount<Op, std::void_t<decltype(Op::kForms)>> : std::integral_constant<int, Op::kForms> {};

// The functor on one vector's inputs v: the first form that admits every lane, else operator().
template <int kForm = 0, class Op, class... V>
HWY_INLINE hn::Vec<DF> ApplyForms(const Op& op, DF df, V... v) {
    if constexpr (kForm == FormCount<Op>::value) {
        return op(df, v...);
    } else {
        if (AllLanesTrue(df, op.template Admits<kForm>(df, v...))) return op.template Form<kForm>(df, v...);
        return ApplyForms<kForm + 1>(op, df, v...);
    }
}

// The same out of line: where several vectors held together share no form, each takes its own (rare inputs:
// the forms' code is not instantiated again for each of them).
template <class Op, class... V>
HWY_NOINLINE hn::Vec<DF> ApplyFormsOutOfLine(const Op& op, DF df, V... v) {
    return ApplyForms(op, df, v...);
}

// The functor applied to its inputs, input(k) giving the k-th as an fp32 vector. The inputs come from a
// function, not an array: SVE's vector types are sizeless, and C++ allows them in neither arrays nor structs,
// so one source serves fixed-size (x86, NEON) and scalable (SVE) targets only if vectors stay in locals,
// arguments and return values -- here, a parameter pack.
template <class Op, class Input, size_t... K>
HWY_INLINE hn::Vec<DF> ApplyToInputs(const Op& op, DF df, Input& input, std::index_sequence<K...>) {
    return ApplyForms(op, df, input(static_cast<int>(K))...);
}

template <class Op, class Input>
HWY_INLINE hn::Vec<DF> ApplyTo(const Op& op, DF df, Input&& input) {
    static_assert(Op::kInputs >= 1 && Op::kInputs <= kMaxInputs, "an operator has 1 to kMaxInputs inputs");
    return ApplyToInputs(op, df, input, std::make_index_sequence<Op::kInputs>());
}

// The n-th of its arguments (vectors pass through a pack as arguments; no array holds them).
template <size_t N, class First, class... Rest>
HWY_INLINE First NthOf(First first, Rest... rest) {
    if constexpr (N == 0) {
        return first;
    } else {
        return NthOf<N - 1>(rest...);
    }
}

// Vector n's part of the loaded inputs v (vector 0's inputs, then vector 1's, ...; kInputs each): the test of
// form kForm, the form, and the functor with no form known to hold (each form tried in turn, out of line where
// the functor has forms, so that they are not instantiated again for every vector of a step).
template <size_t kVector, int kForm, class Op, size_t... K, class... V>
HWY_INLINE hn::Mask<DF> AdmittedBy(const Op& op, DF df, std::index_sequence<K...>, V... v) {
    return op.template Admits<kForm>(df, NthOf<kVector * sizeof...(K) + K>(v...)...);
}
template <size_t kVector, int kForm, class Op, size_t... K, class... V>
HWY_INLINE hn::Vec<DF> FormOf(const Op& op, DF df, std::index_sequence<K...>, V... v) {
    return op.template Form<kForm>(df, NthOf<kVector * sizeof...(K) + K>(v...)...);
}
template <size_t kVector, class Op, size_t... K, class... V>
HWY_INLINE hn::Vec<DF> AppliedTo(const Op& op, DF df, std::index_sequence<K...>, V... v) {
    if constexpr (FormCount<Op>::value > 0) {
        return ApplyFormsOutOfLine(op, df, NthOf<kVector * sizeof...(K) + K>(v...)...);
    } else {
        return op(df, NthOf<kVector * sizeof...(K) + K>(v...)...);
    }
}

// The lanes set in every one of the masks.
template <class M, class... Rest>
HWY_INLINE M AndOfAll(M first, Rest... rest) {
    if constexpr (sizeof...(Rest) == 0) {
        return first;
    } else {
        return hn::And(first, AndOfAll(rest...));
    }
}

// The form a loop's steps are tried from first. A step that a later form served after the earlier ones failed
// makes the next steps start there, for kRetrySteps steps, and then from form 0 again: soft labels fail the
// binary cross-entropy's hard-label test on every step, and that test costs about 4 of the 50-odd vector
// operations per vector of its soft-label form (docs/design.md, "Kernels"); a row whose labels turn hard gets
// the cheaper form back within kRetrySteps steps. Which form serves a step decides only the speed: each gives
// operator()'s bits. One per loop (a local: each thread its own).
class FormStart {
public:
    static constexpr int kRetrySteps = 16;
    int first() const { return first_; }
    // A step begins: the countdown to trying every form again.
    void Step() {
        if (steps_left_ > 0 && --steps_left_ == 0) first_ = 0;
    }
    // Form `form` served a step after the forms before it failed.
    void StartAt(int form) {
        first_ = form;
        steps_left_ = kRetrySteps;
    }

private:
    int first_ = 0;
    int steps_left_ = 0;
};

// The functor on the vectors N... whose inputs v are all loaded, handed to consume(r0, r1, ...). Form kForm and
// the later ones are tried on all of them together, from start's first; where none admits them all, each vector
// goes its own way.
template <int kForm = 0, class Op, class Consume, size_t... K, size_t... N, class... V>
HWY_INLINE void ApplyLoaded(const Op& op, DF df, Consume& consume, FormStart& start, std::index_sequence<K...> inputs,
                            std::index_sequence<N...> vectors, V... v) {
    if constexpr (kForm < FormCount<Op>::value) {
        if constexpr (kForm == 0) start.Step();
        if (kForm >= start.first() && AllLanesTrue(df, AndOfAll(AdmittedBy<N, kForm>(op, df, inputs, v...)...))) {
            if (kForm > start.first()) start.StartAt(kForm);
            consume(FormOf<N, kForm>(op, df, inputs, v...)...);
        } else {
            ApplyLoaded<kForm + 1>(op, df, consume, start, inputs, vectors, v...);
        }
    } else {
        consume(AppliedTo<N>(op, df, inputs, v...)...);
    }
}

template <class Op, class Input, class Consume, size_t... K>
HWY_INLINE void LoadTwo(const Op& op, DF df, Input& input, int64_t i0, int64_t i1, Consume& consume,
                        FormStart& start, std::index_sequence<K...> inputs) {
    ApplyLoaded(op, df, consume, start, inputs, std::make_index_sequence<2>(), input(static_cast<int>(K), i0)...,
                input(static_cast<int>(K), i1)...);
}
template <class Op, class Input, class Consume, size_t... K>
HWY_INLINE void LoadFour(const Op& op, DF df, Input& input, int64_t i, int64_t step, Consume& consume,
                         FormStart& start, std::index_sequence<K...> inputs) {
    ApplyLoaded(op, df, consume, start, inputs, std::make_index_sequence<4>(), input(static_cast<int>(K), i)...,
                input(static_cast<int>(K), i + step)..., input(static_cast<int>(K), i + 2 * step)...,
                input(static_cast<int>(K), i + 3 * step)...);
}

// The functor on two vectors, input(k, i) giving input k of the vector at element i, handed to
// consume(r0, r1). Every input of both is loaded before either is computed (they are the arguments of the call
// that computes them): the loads may branch (a row-constant input is a broadcast), and only computations in one
// branch-free stretch are interleaved by the scheduler; computing each right after its own loads leaves the
// chains apart (docs/performance.md, "Measurements behind the kernel choices"). start: the loop's FormStart.
template <class Op, class Input, class Consume>
HWY_INLINE void ApplyToTwo(const Op& op, DF df, FormStart& start, Input&& input, int64_t i0, int64_t i1,
                           Consume&& consume) {
    LoadTwo(op, df, input, i0, i1, consume, start, std::make_index_sequence<Op::kInputs>());
}

// The same for four vectors (the fused sum's step), at i, i + step, i + 2 step, i + 3 step.
template <class Op, class Input, class Consume>
HWY_INLINE void ApplyToFour(const Op& op, DF df, FormStart& start, Input&& input, int64_t i, int64_t step,
                            Consume&& consume) {
    LoadFour(op, df, input, i, step, consume, start, std::make_index_sequence<Op::kInputs>());
}

}  // namespace aclnn_cpu::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // include guard
