// The fused path's sums over the first dim (aclnnMseLossOut): rows of a tile from the inputs' memory through the
// functor, each result rounded to the promote type and added, as float64, to its column's sum -- the same
// additions in the same order as storing the results and adding them afterwards (ElementwisePlan::
// SumBack's buffered path), in one pass over memory. Included by elementwise_tiles-inl.h inside each
// target's namespace pass.

// Include guard toggled per target, as Highway's per-target headers require.
#if defined(ACLNN_CPU_KERNELS_FUSED_COLUMN_SUM_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLNN_CPU_KERNELS_FUSED_COLUMN_SUM_INL_H_
#undef ACLNN_CPU_KERNELS_FUSED_COLUMN_SUM_INL_H_
#else
#define ACLNN_CPU_KERNELS_FUSED_COLUMN_SUM_INL_H_
#endif

#include <algorithm>
#include <cstdint>

#include "hwy/highway.h"
#include "kernels/fused_rows-inl.h"
#include "kernels/operand_access-inl.h"
#include "kernels/simd_support.h"
#include "kernels/tile_kernel.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_HAVE_FLOAT64
// Adds n fp32 values, widened, to sums[0..n) (n a whole vector of floats).
HWY_INLINE void AddVectorToSums(const float* values, double* sums) {
    const hn::ScalableTag<double> dd;
    const hn::Rebind<float, decltype(dd)> df_half;  // as many fp32 lanes as float64 lanes
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(dd));
    const int64_t float_lanes = static_cast<int64_t>(hn::Lanes(DF()));
    for (int64_t v = 0; v < float_lanes; v += lanes)
        hn::StoreU(hn::Add(hn::LoadU(dd, sums + v), hn::PromoteTo(dd, hn::LoadU(df_half, values + v))), dd, sums + v);
}

// Elements [from, from + n) of a row, all in one row of S, added to sums[0..n).
template <class Op, ElementType kIn>
HWY_INLINE void AddSegmentToColumns(const KernelConfig& config, const RowInputs<Op, kIn>& inputs, int64_t from,
                                    int64_t n, double* sums) {
    const DF df;
    constexpr int64_t kLanes = static_cast<int64_t>(hn::MaxLanes(DF()));
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
    const ElementType promote = kIn == kMixedTypes ? config.promote : kIn;
    const bool round = promote != ElementType::kFloat32;
    const int64_t prefetch_bytes = SumPrefetchBytes(kCheapFunctor<Op>);
    HWY_ALIGN float results[kLanes];
    HWY_ALIGN char tail_in[kMaxInputs][kLanes * sizeof(float)] = {};
    const char* const* p = inputs.p;
    int64_t i = 0;
    for (; i + lanes <= n; i += lanes) {
        // A sum only reads, as the fused sum.
        if (prefetch_bytes > 0) inputs.PrefetchAhead(from + i, lanes, prefetch_bytes);
        auto r = inputs.Apply(p, from + i);
        if (round) r = RoundToType(df, promote, r);
        hn::Store(r, df, results);
        AddVectorToSums(results, sums + i);
    }
    if (i < n) {
        const char* tails[kMaxInputs];
        inputs.CopyEnd(from + i, n - i, tail_in, tails);
        auto r = inputs.Apply(tails, 0);
        if (round) r = RoundToType(df, promote, r);
        hn::Store(r, df, results);
        for (int64_t j = 0; j < n - i; ++j) sums[i + j] += static_cast<double>(results[j]);
    }
}

// A tile whose rows are all fusable, each value added to its column's sum. The iteration is the dense
// row-major order of the broadcast shape S (elementwise_plan.cpp), so element (row, column) of the tile has
// linear index tile.linear_origin + row * tile.inner_size + column, and S-column linear % columns.sums.
template <class Op, ElementType kIn>
void FusedColumnSumTile(const KernelConfig& config, const Tile& tile, const ColumnSums& columns) {
    constexpr int kInputs = Op::kInputs;
    const Op op = MakeFunctor<Op>(config);
    ForEachFusedRun<kInputs>(config, tile, sizeof(float), [&](int64_t row, int64_t column, int64_t rows,
                                                              int64_t count) {
        const FusedRows a = FusedRun<kInputs>(tile, row, column, rows, count);
        for (int64_t r = 0; r < rows; ++r) {
            const RowInputs<Op, kIn> inputs(config, op, a, r);
            const int64_t linear = tile.linear_origin + (row + r) * tile.inner_size + column;
            // The run in pieces that each stay within one row of S.
            for (int64_t i = 0; i < count;) {
                const int64_t j = (linear + i) % columns.count;
                const int64_t n = std::min(count - i, columns.count - j);
                AddSegmentToColumns<Op, kIn>(config, inputs, i, n, columns.sums + (j - columns.first));
                i += n;
            }
        }
    });
}
#endif

}  // namespace aclnn_cpu::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // include guard
