// The Highway tile loops every elementwise operator shares, parameterised by an operator functor. An
// operator's file includes this header inside its own foreach_target translation unit and returns
// ChooseTileKernel<Functor> (a loss) or ChooseStoreKernel<Functor> (a gradient, an elementwise function), through
// the chooser macros of tile_kernel.h; everything else -- loads, dtype conversions, gathers, scatters, streaming
// stores, tails, sums -- is here, once.
//
// The functor (see docs/design.md, "How to add an operator"):
//   struct MyOp {
//       static constexpr int kInputs = 2;         // 1..kMaxInputs fp32 inputs, in the plan's operand order
//       static constexpr int kScaledInput = -1;   // or an input index: multiplied by config.input_scale first
//       template <class D> hn::Vec<D> operator()(D d, hn::Vec<D> a, hn::Vec<D> b) const;  // one per input
//       static constexpr bool kOutTypeIsInputType = true;  // optional: CANN ties out's dtype to the inputs'
//   };
// It gets fp32 vectors and returns the fp32 result; the loops round it to the promote type and store it in
// out's dtype, or add it to the sum.
//
// A tile (Tile: the two innermost dims of the iteration) goes one of two ways, chosen in phase 1:
//   fused   -- every input is contiguous or constant along rows and out is contiguous along rows (or the
//              values are summed): rows go straight from memory through the functor to memory, or into
//              float64 sums held in registers, with the dtypes as template arguments (and BFLOAT16 in even/odd
//              pairs); inputs of different dtypes (INT32 among them where the promote type is FLOAT) go
//              through one instance that loads each in its own (kMixedTypes);
//   blocked -- anything else: blocks of kBlock elements, each input widened into an L1 buffer (gathered first
//              when strided), computed, then narrowed and stored or scattered, or summed.
// Tails are padded to whole vectors, so every element meets exactly the same instructions wherever it lies:
// results are bit-identical across layouts and thread counts.

// Include guard toggled per target, as Highway's per-target headers require.
#if defined(ACLNN_CPU_KERNELS_ELEMENTWISE_TILES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLNN_CPU_KERNELS_ELEMENTWISE_TILES_INL_H_
#undef ACLNN_CPU_KERNELS_ELEMENTWISE_TILES_INL_H_
#else
#define ACLNN_CPU_KERNELS_ELEMENTWISE_TILES_INL_H_
#endif

#include <type_traits>

#include "hwy/highway.h"
#include "kernels/blocked_tile-inl.h"
#include "kernels/fused_column_sum-inl.h"
#include "kernels/fused_rows-inl.h"
#include "kernels/fused_sum-inl.h"
#include "kernels/tile_kernel.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::kernels::HWY_NAMESPACE {

// ---- the choice, made in phase 1 ---------------------------------------------------------------------------

// Whether Op declares kOutTypeIsInputType = true: its operator requires out of its inputs' dtype (CANN ties
// them), so the fused instances for an out of another dtype would never run and are not compiled (a call
// breaking the rule would still be served, by the blocked path).
template <class Op, class = void>
constexpr bool kOutTypeIsInputType = false;
template <class Op>
constexpr bool kOutTypeIsInputType<Op, std::void_t<decltype(Op::kOutTypeIsInputType)>> = Op::kOutTypeIsInputType;

// The fused sum for inputs of one dtype, or (one_type false) each loaded in its own.
template <class Op>
TileKernel ChooseFusedSum(ElementType in, bool one_type) {
#if ACLNN_CPU_SUM_LANE_VECTORS
    if (!one_type) return &FusedSumTile<Op, kMixedTypes>;
    return WithElementType(in, [](auto in_type) -> TileKernel { return &FusedSumTile<Op, decltype(in_type)::value>; });
#else
    (void)in, (void)one_type;
    return &BlockedTile<Op>;
#endif
}

// The tile function for config on this target: the fused instance for its dtypes when the engine found the
// tiles fusable, the blocked path otherwise. kSums: the functor's values are also summed (a loss under mean or
// sum); a functor only ever stored (a gradient, an elementwise function) compiles no fused sums, and a sum of it
// would still be served, by the blocked path.
template <class Op, bool kSums>
TileKernel ChooseKernelOf(const KernelConfig& config, bool fusable) {
#if ACLNN_CPU_BLOCKED_KERNELS_ONLY
    // The fuzz build: every tile takes the blocked path (the same bits), which spares the sanitized compiler the
    // fused instances. The test suites run both paths under the sanitizers.
    (void)config, (void)fusable;
    return &BlockedTile<Op>;
#else
    if (!fusable) return &BlockedTile<Op>;
    const bool one_type = InputsShareOneType(config);
    if (config.output == OutputMode::kSum) {
        if constexpr (kSums) return ChooseFusedSum<Op>(config.types[0], one_type);
        return &BlockedTile<Op>;
    }
    if (!one_type) {
        // Inputs of different dtypes: each loaded in its own (a branch per load, taken the same way all along,
        // before the functor's branch-free stretch).
        return WithElementType(config.out_type(), [](auto out_type) -> TileKernel {
            return &FusedTile<Op, kMixedTypes, decltype(out_type)::value>;
        });
    }
    return WithElementType(config.types[0], [&](auto in_type) -> TileKernel {
        constexpr ElementType kIn = decltype(in_type)::value;
        if constexpr (kOutTypeIsInputType<Op>) {
            // The operator ties out's dtype to its inputs': one instance per dtype, not per pair.
            return config.out_type() == kIn ? &FusedTile<Op, kIn, kIn> : &BlockedTile<Op>;
        } else {
            return WithElementType(config.out_type(), [](auto out_type) -> TileKernel {
                return &FusedTile<Op, kIn, decltype(out_type)::value>;
            });
        }
    });
#endif
}

// A loss's tile function (stored or summed), and a gradient's or an elementwise function's (stored).
template <class Op>
TileKernel ChooseTileKernel(const KernelConfig& config, bool fusable) {
    return ChooseKernelOf<Op, true>(config, fusable);
}
template <class Op>
TileKernel ChooseStoreKernel(const KernelConfig& config, bool fusable) {
    return ChooseKernelOf<Op, false>(config, fusable);
}

// The sum-over-the-first-dim kernel for config on this target: the fused instance for inputs of one dtype when
// the engine found every tile fusable; nullptr otherwise (the engine then stores into a buffer and adds that).
// Only operators with such a sum instantiate it.
template <class Op>
ColumnSumKernel ChooseColumnSumKernel(const KernelConfig& config, bool fusable) {
#if ACLNN_CPU_BLOCKED_KERNELS_ONLY || !HWY_HAVE_FLOAT64
    (void)config, (void)fusable;
    return nullptr;
#else
    if (!fusable || !InputsShareOneType(config)) return nullptr;
    return WithElementType(config.types[0], [](auto in_type) -> ColumnSumKernel {
        return &FusedColumnSumTile<Op, decltype(in_type)::value>;
    });
#endif
}

}  // namespace aclnn_cpu::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // include guard
