// The fused path's sums: rows of a tile from the inputs' memory through the functor into the float64 sum
// lanes held in registers (kernels/sum_accumulation-inl.h), with software prefetches ahead of the loads and
// a ring of results in L1 that keeps the widening off the functor's dependency chain. Included by
// elementwise_tiles-inl.h inside each target's namespace pass.

// Include guard toggled per target, as Highway's per-target headers require.
#if defined(ACLNN_CPU_KERNELS_FUSED_SUM_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLNN_CPU_KERNELS_FUSED_SUM_INL_H_
#undef ACLNN_CPU_KERNELS_FUSED_SUM_INL_H_
#else
#define ACLNN_CPU_KERNELS_FUSED_SUM_INL_H_
#endif

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "hwy/highway.h"
#include "kernels/functor_application-inl.h"
#include "kernels/fused_rows-inl.h"
#include "kernels/operand_access-inl.h"
#include "kernels/simd_support.h"
#include "kernels/sum_accumulation-inl.h"
#include "kernels/tile_kernel.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if ACLNN_CPU_SUM_LANE_VECTORS
// Steps of a summed row whose results wait in a small ring in L1 before they are widened and added to the
// lanes. The functor's dependency chain is long (the forward: product, reduction, six lookups feeding five
// dependent multiply-adds), and the widening and adds at its end would otherwise be issued with it and wait
// in the scheduler for all of it, crowding out the next steps' work; read back a few steps later, their
// inputs are ready (docs/design.md, "Sums"). The same additions in the same order: the same bits.
constexpr int64_t kSumRingSteps = 4;

// Rows with at least this many elements in whole groups try Widening::kScaledBits: loading, checking and
// storing its scaled lanes costs a few dozen instructions per row.
constexpr int64_t kScaledBitsMinElements = 1024;

// Whether Op declares `static constexpr bool kNonNegativeResults = true` (every result >= +0 or NaN): its
// sums try Widening::kScaledBits, which redoes a row whose results include a negative value, so a functor
// with such results should not declare it.
template <class Op, class = void>
struct NonNegativeResults : std::false_type {};
template <class Op>
struct NonNegativeResults<Op, std::void_t<decltype(Op::kNonNegativeResults)>>
    : std::bool_constant<Op::kNonNegativeResults> {};

// Adds elements [from, to) of a row -- whole groups of kSumLanes, `from` at a group's start -- to lanes.
template <class Op, ElementType kIn, Widening kWidening>
HWY_INLINE void AddGroupsOfRow(const RowInputs<Op, kIn>& inputs, int64_t from, int64_t to, int64_t prefetch_bytes,
                               SumLaneVectors<kWidening>* lanes) {
    const DF df;
    constexpr int64_t kLanes = static_cast<int64_t>(hn::MaxLanes(DF()));
    constexpr int64_t kSlots = SumLaneVectors<kWidening>::kSlots;
    // Four independent vectors per step (see FusedRowsKernel): a whole number of groups on every target.
    constexpr int64_t kStep = 4 * kLanes;
    static_assert(kStep % kSumLanes == 0, "a step is a whole number of groups");
    HWY_ALIGN float waiting[kSumRingSteps][kStep];
    // Adds a step's four waiting result vectors, in order.
    auto add_step = [&](const float* results) {
        for (int v = 0; v < 4; ++v) lanes->Add(v % kSlots, hn::Load(df, results + v * kLanes));
    };
    const char* const* p = inputs.p;
    int64_t i = from;
    int64_t step = 0;
    FormStart form_start;
    for (; i + kStep <= to; i += kStep, ++step) {
        if (prefetch_bytes > 0) inputs.PrefetchAhead(i, kStep, prefetch_bytes);
        float* slot = waiting[step % kSumRingSteps];
        ApplyToFour(inputs.op, df, form_start, [&](int k, int64_t at) { return inputs.Load(k, p, at); }, i, kLanes,
                        [&](hn::Vec<DF> r0, hn::Vec<DF> r1, hn::Vec<DF> r2, hn::Vec<DF> r3) {
                            // The step kSumRingSteps back first, then this one in its place.
                            if (step >= kSumRingSteps) add_step(slot);
                            hn::Store(r0, df, slot);
                            hn::Store(r1, df, slot + kLanes);
                            hn::Store(r2, df, slot + 2 * kLanes);
                            hn::Store(r3, df, slot + 3 * kLanes);
                        });
    }
    for (int64_t s = std::max<int64_t>(step - kSumRingSteps, 0); s < step; ++s) add_step(waiting[s % kSumRingSteps]);
    for (; i < to; i += kLanes) lanes->Add((i - from) / kLanes % kSlots, inputs.Apply(p, i));
}

// Rows summed: each result goes to its lane (linear index % kSumLanes) in increasing index order, as in
// AccumulateSums -- the same additions, so the same bits as the blocked path -- but from the functor through a
// ring of a few steps' results in L1 into float64 lanes held in registers (AddGroupsOfRow), with no buffer of
// the row's results. Long rows of a functor with non-negative results widen by moving bits, and add the row
// again by converting where that cannot represent a value. `linear` is the linear index of the first
// row's first element, `pitch` the distance between rows. The ends of a row that do not fill an aligned
// group of kSumLanes go through the zero-padded vector code and AccumulateSums.
template <class Op, ElementType kIn>
void FusedSumRowsKernel(const KernelConfig& config, const FusedRows& a, int64_t linear, int64_t pitch,
                        SumAccumulator* sums) {
    const DF df;
    constexpr int64_t kLanes = static_cast<int64_t>(hn::MaxLanes(DF()));
    HWY_ALIGN char tail_in[kMaxInputs][kLanes * sizeof(float)] = {};
    HWY_ALIGN float results[kLanes];
    const int64_t prefetch_bytes = SumPrefetchBytes(kCheapFunctor<Op>);
    const Op op = MakeFunctor<Op>(config);
    for (int64_t row = 0; row < a.rows; ++row) {
        const RowInputs<Op, kIn> inputs(config, op, a, row);
        const int64_t row_linear = linear + row * pitch;
        // Elements [from, from + count) of the row, count < one vector each time, through padded copies.
        auto add_end = [&](int64_t from, int64_t count) {
            for (int64_t i = from; i < from + count; i += kLanes) {
                const int64_t n = std::min(kLanes, from + count - i);
                const char* tails[kMaxInputs];
                inputs.CopyEnd(i, n, tail_in, tails);
                hn::Store(inputs.Apply(tails, 0), df, results);
                AccumulateSums(results, n, row_linear + i, sums);
            }
        };
        const int64_t head = std::min(a.count, (kSumLanes - row_linear % kSumLanes) % kSumLanes);
        const int64_t groups_end = head + (a.count - head) / kSumLanes * kSumLanes;
        add_end(0, head);
        if (groups_end > head) {
            bool added = false;
            if constexpr (kScaledBitsPays && NonNegativeResults<Op>::value) {
                if (groups_end - head >= kScaledBitsMinElements) {
                    SumLaneVectors<Widening::kScaledBits> lanes(*sums);
                    if (lanes.Usable()) {
                        AddGroupsOfRow(inputs, head, groups_end, prefetch_bytes, &lanes);
                        // False where a result was negative, inf or NaN, or a lane reached 2^127: the row's
                        // groups are added again below, from the lanes as they were.
                        added = lanes.StoreTo(sums);
                    }
                }
            }
            if (!added) {
                SumLaneVectors<Widening::kConvert> lanes(*sums);
                AddGroupsOfRow(inputs, head, groups_end, prefetch_bytes, &lanes);
                lanes.StoreTo(sums);
            }
        }
        add_end(groups_end, a.count - groups_end);
    }
}
#endif

#if ACLNN_CPU_SUM_LANE_VECTORS
// A tile whose rows are all fusable, summed. The sum's iteration order is the dense row-major order of the
// broadcast shape (elementwise_plan.cpp), so element (row, column) has linear index
// tile.linear_origin + row * inner_size + column.
template <class Op, ElementType kIn>
void FusedSumTile(const KernelConfig& config, const Tile& tile, SumAccumulator* sums) {
    constexpr int kInputs = Op::kInputs;
    ForEachFusedRun<kInputs>(config, tile, sizeof(float), [&](int64_t row, int64_t column, int64_t rows,
                                                              int64_t count) {
        const int64_t linear = tile.linear_origin + row * tile.inner_size + column;
        FusedSumRowsKernel<Op, kIn>(config, FusedRun<kInputs>(tile, row, column, rows, count), linear,
                                    tile.inner_size, sums);
    });
}
#endif

}  // namespace aclnn_cpu::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // include guard
