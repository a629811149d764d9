// How the tile loops add fp32 results to a sum (kernels/tile_kernel.h, SumAccumulator): the element with
// linear index i goes to float64 lane i % kSumLanes, in increasing i. SumLaneVectors holds the lanes in
// registers while whole groups of kSumLanes results are added; the fused path feeds it straight from the
// functor, AccumulateSums from a buffer of results (the blocked path, and the ends of fused rows). One piece
// of code makes every group's additions, so both paths give the same bits.
// Included by elementwise_tiles-inl.h inside each target's namespace pass.

// Include guard toggled per target, as Highway's per-target headers require.
#if defined(ACLNN_CPU_KERNELS_SUM_ACCUMULATION_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLNN_CPU_KERNELS_SUM_ACCUMULATION_INL_H_
#undef ACLNN_CPU_KERNELS_SUM_ACCUMULATION_INL_H_
#else
#define ACLNN_CPU_KERNELS_SUM_ACCUMULATION_INL_H_
#endif

#include <cstdint>

#include "hwy/highway.h"
#include "kernels/operand_access-inl.h"
#include "kernels/tile_kernel.h"

// The register lanes need float64 vectors of half a float vector's lanes, fixed at compile time.
#undef ACLNN_CPU_SUM_LANE_VECTORS
#if HWY_TARGET != HWY_SCALAR && HWY_HAVE_FLOAT64 && !HWY_HAVE_SCALABLE
#define ACLNN_CPU_SUM_LANE_VECTORS 1
#else
#define ACLNN_CPU_SUM_LANE_VECTORS 0
#endif

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if ACLNN_CPU_SUM_LANE_VECTORS
// The kSumLanes lanes of a SumAccumulator in float64 vectors, while a run of whole groups is added.
class SumLaneVectors {
public:
    using DD = hn::Repartition<double, DF>;
    // fp32 vectors per group of kSumLanes consecutive elements.
    static constexpr int64_t kSlots = kSumLanes / static_cast<int64_t>(hn::MaxLanes(DF()));
    static_assert(kSlots >= 1 && kSumLanes % hn::MaxLanes(DF()) == 0, "a group is a whole number of vectors");

    explicit SumLaneVectors(const SumAccumulator& sums) {
        for (int64_t v = 0; v < kVectors; ++v) lane_[v] = hn::Load(DD(), sums.lanes + v * kPerVector);
    }
    void StoreTo(SumAccumulator* sums) const {
        for (int64_t v = 0; v < kVectors; ++v) hn::Store(lane_[v], DD(), sums->lanes + v * kPerVector);
    }
    // Adds the fp32 vector that holds lanes [slot * Lanes(DF), (slot + 1) * Lanes(DF)) of a group: each half
    // widened exactly and added to its float64 vector.
    HWY_INLINE void Add(int64_t slot, hn::Vec<DF> values) {
        const hn::Half<DF> dh;
        lane_[2 * slot] = hn::Add(lane_[2 * slot], hn::PromoteTo(DD(), hn::LowerHalf(dh, values)));
        lane_[2 * slot + 1] = hn::Add(lane_[2 * slot + 1], hn::PromoteTo(DD(), hn::UpperHalf(dh, values)));
    }

private:
    static constexpr int64_t kPerVector = static_cast<int64_t>(hn::MaxLanes(DD()));
    static constexpr int64_t kVectors = kSumLanes / kPerVector;
    static_assert(kVectors == 2 * kSlots, "a float64 vector holds half an fp32 vector");
    hn::Vec<DD> lane_[kVectors];
};
#endif

// Adds values[0, count) -- the elements with linear indices position, position + 1, ... -- to sums: a scalar
// head up to an index that is a multiple of kSumLanes, whole groups through SumLaneVectors (the lanes a vector
// covers are fixed by the index alone, so every SIMD width adds the same values in the same order), a scalar
// tail.
HWY_INLINE void AccumulateSums(const float* values, int64_t count, int64_t position, SumAccumulator* sums) {
    double* lanes = sums->lanes;
    int64_t i = 0;
    for (; i < count && (position + i) % kSumLanes != 0; ++i) lanes[(position + i) % kSumLanes] += values[i];
#if ACLNN_CPU_SUM_LANE_VECTORS
    if (i + kSumLanes <= count) {
        const DF df;
        constexpr int64_t kLanes = static_cast<int64_t>(hn::MaxLanes(DF()));
        SumLaneVectors group_lanes(*sums);
        for (; i + kSumLanes <= count; i += kSumLanes) {
            for (int64_t slot = 0; slot < SumLaneVectors::kSlots; ++slot)
                group_lanes.Add(slot, hn::LoadU(df, values + i + slot * kLanes));
        }
        group_lanes.StoreTo(sums);
    }
#endif
    for (; i < count; ++i) lanes[(position + i) % kSumLanes] += values[i];
}

}  // namespace aclnn_cpu::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // include guard
