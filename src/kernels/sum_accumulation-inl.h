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
// How SumLaneVectors widens each fp32 value to float64.
enum class Widening {
    // A conversion: exact for every value.
    kConvert,
    // The fp32 bits moved into float64 fields with integer shifts: no conversion, no lane extract, and lanes
    // held scaled by 2^-896 while a row is added (see ScaledBits below). Exact for every finite fp32 >= +0;
    // anything else is detected when the lanes are stored, and the caller adds the row again with kConvert.
    kScaledBits,
};

// Whether kScaledBits is worth trying on this target. x86: widening 16 values takes a lane extract and two
// conversions, which compete for the pipes (AMD) or the port (Intel) of the forward's table permutes, where
// two shifts and two ANDs run beside them (the figure: docs/performance.md, "Measurements behind the kernel
// choices"). Arm's FCVTL/FCVTL2 widen the halves in two instructions, fewer than the shifts and ANDs.
#if HWY_ARCH_X86
constexpr bool kScaledBitsPays = true;
#else
constexpr bool kScaledBitsPays = false;
#endif

// kScaledBits in detail. A 64-bit field holding an fp32 value's bits shifted left by 29 (bits 29..60), read
// as a float64, is that value times 2^-896 -- the exponent fields line up and their biases differ by
// 1023 - 127 = 896 -- exactly, for every finite fp32 value >= +0, subnormals and zero included. An fp32 sign
// bit lands in float64 exponent bit 8, so a negative value (even -0) reads as 2^-767 or more, and inf and
// NaN (exponent 255) as 2^-768 or more, while finite values read below 2^-768: every term is >= 0 in float64,
// and a wrong one is larger than any right one.
// The lanes are scaled by 2^-896 when loaded and back when stored, both exactly (a lane is a sum of fp32
// values: a multiple of 2^-149, and below 2^126 in magnitude by the check on loading). A sum of two values
// scaled by the same power of two rounds exactly as their unscaled sum does wherever the result is a normal
// float64, and where it is not (below 2^-1022 scaled, 2^-126 unscaled) both sums are exact: they are multiples
// of 2^-1045 scaled (2^-149 unscaled) of fewer than 24 bits. So the stored lanes are the same bits kConvert
// gives -- unless a wrong term was added, which leaves its lane at 2^-769 or more (a lane starts above
// -2^-770 and every term is >= 0), or a sum reached 2^127, which the store detects alike.
class ScaledBits {
public:
    using DD = hn::Repartition<double, DF>;
    static constexpr double kScaleDown = 0x1p-896;
    static constexpr double kScaleUp = 0x1p896;
    static constexpr double kLoadLimit = 0x1p126;   // |lane| below this to start scaled (2^-770 scaled)
    static constexpr double kStoreLimit = 0x1p-769;  // every scaled lane below this when stored (2^127)

    // Even (odd) elements of each 64-bit pair of an fp32 vector, as float64 values times 2^-896.
    static HWY_INLINE hn::Vec<DD> Even(hn::Vec<DF> values) {
        const hn::RebindToUnsigned<DD> du64;
        const auto bits = hn::BitCast(du64, values);
        return hn::BitCast(DD(), hn::And(hn::ShiftLeft<29>(bits), hn::Set(du64, kFieldMask)));
    }
    static HWY_INLINE hn::Vec<DD> Odd(hn::Vec<DF> values) {
        const hn::RebindToUnsigned<DD> du64;
        const auto bits = hn::BitCast(du64, values);
        return hn::BitCast(DD(), hn::And(hn::ShiftRight<3>(bits), hn::Set(du64, kFieldMask)));
    }

private:
    static constexpr uint64_t kFieldMask = 0x1FFFFFFFE0000000ull;  // bits 29..60
};

// The kSumLanes lanes of a SumAccumulator in float64 vectors, while a run of whole groups is added.
// kConvert: vector 2s holds the lanes of the low half of slot s's fp32 vector, 2s + 1 the high half.
// kScaledBits: vector 2s holds the even elements of slot s, 2s + 1 the odd ones, scaled by 2^-896.
template <Widening kWidening>
class SumLaneVectors {
public:
    using DD = hn::Repartition<double, DF>;
    // fp32 vectors per group of kSumLanes consecutive elements.
    static constexpr int64_t kSlots = kSumLanes / static_cast<int64_t>(hn::MaxLanes(DF()));
    static_assert(kSlots >= 1 && kSumLanes % hn::MaxLanes(DF()) == 0, "a group is a whole number of vectors");

    // Loads the lanes. With kScaledBits, Usable() says whether they could be scaled (else use kConvert).
    explicit SumLaneVectors(const SumAccumulator& sums) {
        if constexpr (kWidening == Widening::kConvert) {
            for (int64_t v = 0; v < kVectors; ++v) lane_[v] = hn::Load(DD(), sums.lanes + v * kPerVector);
        } else {
            const DD dd;
            const auto scale = hn::Set(dd, ScaledBits::kScaleDown);
            const auto limit = hn::Set(dd, ScaledBits::kLoadLimit);
            for (int64_t slot = 0; slot < kSlots; ++slot) {
                const double* from = sums.lanes + slot * 2 * kPerVector;
                const auto low = hn::Load(dd, from), high = hn::Load(dd, from + kPerVector);
                // Lt is false for NaN: a NaN lane is not scaled either.
                usable_ = usable_ && hn::AllTrue(dd, hn::And(hn::Lt(hn::Abs(low), limit), hn::Lt(hn::Abs(high), limit)));
                lane_[2 * slot] = hn::Mul(hn::ConcatEven(dd, high, low), scale);
                lane_[2 * slot + 1] = hn::Mul(hn::ConcatOdd(dd, high, low), scale);
            }
        }
    }
    bool Usable() const { return usable_; }

    // Stores the lanes. With kScaledBits, only if every value added was right (see ScaledBits): returns
    // false, and leaves sums as they were, where not.
    bool StoreTo(SumAccumulator* sums) const {
        if constexpr (kWidening == Widening::kConvert) {
            for (int64_t v = 0; v < kVectors; ++v) hn::Store(lane_[v], DD(), sums->lanes + v * kPerVector);
        } else {
            const DD dd;
            const auto limit = hn::Set(dd, ScaledBits::kStoreLimit);
            auto in_range = hn::Lt(lane_[0], limit);
            for (int64_t v = 1; v < kVectors; ++v) in_range = hn::And(in_range, hn::Lt(lane_[v], limit));
            if (!hn::AllTrue(dd, in_range)) return false;
            HWY_ALIGN double scaled[kSumLanes];
            for (int64_t v = 0; v < kVectors; ++v) hn::Store(lane_[v], dd, scaled + v * kPerVector);
            // Vector 2s + parity, lane m holds element slot s * Lanes(DF) + 2m + parity.
            for (int64_t slot = 0; slot < kSlots; ++slot) {
                for (int64_t m = 0; m < kPerVector; ++m) {
                    for (int64_t parity = 0; parity < 2; ++parity) {
                        sums->lanes[slot * 2 * kPerVector + 2 * m + parity] =
                            scaled[(2 * slot + parity) * kPerVector + m] * ScaledBits::kScaleUp;
                    }
                }
            }
        }
        return true;
    }

    // Adds the fp32 vector that holds lanes [slot * Lanes(DF), (slot + 1) * Lanes(DF)) of a group: each
    // value widened exactly and added to its float64 lane.
    HWY_INLINE void Add(int64_t slot, hn::Vec<DF> values) {
        if constexpr (kWidening == Widening::kConvert) {
            const hn::Half<DF> dh;
            lane_[2 * slot] = hn::Add(lane_[2 * slot], hn::PromoteTo(DD(), hn::LowerHalf(dh, values)));
            lane_[2 * slot + 1] = hn::Add(lane_[2 * slot + 1], hn::PromoteTo(DD(), hn::UpperHalf(dh, values)));
        } else {
            lane_[2 * slot] = hn::Add(lane_[2 * slot], ScaledBits::Even(values));
            lane_[2 * slot + 1] = hn::Add(lane_[2 * slot + 1], ScaledBits::Odd(values));
        }
    }

private:
    static constexpr int64_t kPerVector = static_cast<int64_t>(hn::MaxLanes(DD()));
    static constexpr int64_t kVectors = kSumLanes / kPerVector;
    static_assert(kVectors == 2 * kSlots, "a float64 vector holds half an fp32 vector");
    hn::Vec<DD> lane_[kVectors];
    bool usable_ = true;
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
        SumLaneVectors<Widening::kConvert> group_lanes(*sums);
        for (; i + kSumLanes <= count; i += kSumLanes) {
            for (int64_t slot = 0; slot < decltype(group_lanes)::kSlots; ++slot)
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
