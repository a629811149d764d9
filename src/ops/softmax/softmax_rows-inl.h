// The row kernels of the softmax family, as CANN's arch35 kernels (ops-nn activation/softmax_v2,
// log_softmax_v2, softmax_grad, log_softmax_grad) compute a row, compiled once per SIMD target: every
// elementwise step in fp32 in the kernel's order (x - max, exp, the divide, log of the sum, the products), and
// each row's sum evaluated to its true value and rounded to fp32 once, where the kernel adds fp32 partial sums
// in a tree whose shape follows its tiling: the element with index i goes to float64 lane i % 16 in increasing
// i (kernels/sum_accumulation-inl.h), and the 16 lanes are added in a fixed tree, so every SIMD width gives the
// same sum. exp and log are the project's own (kernels/vector_exp-inl.h, vector_log-inl.h).
// A row with a NaN, a +inf, or only -inf values gives NaN everywhere, as the kernels (which test nothing) do.

// Include guard toggled per target, as Highway's per-target headers require.
#if defined(ACLNN_CPU_OPS_SOFTMAX_ROWS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLNN_CPU_OPS_SOFTMAX_ROWS_INL_H_
#undef ACLNN_CPU_OPS_SOFTMAX_ROWS_INL_H_
#else
#define ACLNN_CPU_OPS_SOFTMAX_ROWS_INL_H_
#endif

#include <cmath>
#include <cstdint>
#include <cstring>

#include "hwy/highway.h"
#include "kernels/operand_access-inl.h"
#include "kernels/sum_accumulation-inl.h"
#include "kernels/tile_kernel.h"
#include "kernels/vector_exp-inl.h"
#include "kernels/vector_log-inl.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::ops::softmax::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using kernels::HWY_NAMESPACE::DF;

// Values summed per call of AccumulateSums: a buffer in L1.
constexpr int64_t kSumBlock = 256;

// Calls step(from, to, count) for each run of Lanes(DF) elements of a row of n, the last padded: `from` points at
// count values of each of up to two inputs (the row's own memory, or a padded copy), `to` at where count results
// go (out's memory, or a copy that is then written back). The padding lanes hold `pad` and their results are
// dropped, so a lane's result never depends on its neighbours.
template <class Step>
HWY_INLINE void ForEachVector(const float* const* in, int inputs, int64_t n, float* out, float pad, Step&& step) {
    const DF df;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
    int64_t i = 0;
    for (; i + lanes <= n; i += lanes) {
        const float* from[2] = {in[0] + i, inputs > 1 ? in[1] + i : nullptr};
        step(from, out == nullptr ? nullptr : out + i, lanes);
    }
    if (i == n) return;
    HWY_ALIGN float padded[2][hn::MaxLanes(DF())];
    HWY_ALIGN float results[hn::MaxLanes(DF())];
    const int64_t count = n - i;
    for (int k = 0; k < inputs; ++k) {
        for (int64_t j = 0; j < lanes; ++j) padded[k][j] = pad;
        std::memcpy(padded[k], in[k] + i, static_cast<size_t>(count) * sizeof(float));
    }
    const float* from[2] = {padded[0], padded[1]};
    step(from, out == nullptr ? nullptr : results, count);
    if (out != nullptr) std::memcpy(out + i, results, static_cast<size_t>(count) * sizeof(float));
}

// The largest value of the row (NaN lanes as the target's max has them: the row's results are NaN either way).
// Four running maxima, so that the loop is not one chain of dependent maxima.
HWY_INLINE float RowMax(const float* x, int64_t n) {
    const DF df;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
    auto m0 = hn::Set(df, -HUGE_VALF), m1 = m0, m2 = m0, m3 = m0;
    int64_t i = 0;
    for (; i + 4 * lanes <= n; i += 4 * lanes) {
        m0 = hn::Max(m0, hn::LoadU(df, x + i));
        m1 = hn::Max(m1, hn::LoadU(df, x + i + lanes));
        m2 = hn::Max(m2, hn::LoadU(df, x + i + 2 * lanes));
        m3 = hn::Max(m3, hn::LoadU(df, x + i + 3 * lanes));
    }
    auto running = hn::Max(hn::Max(m0, m1), hn::Max(m2, m3));
    const float* rest = x + i;
    ForEachVector(&rest, 1, n - i, nullptr, -HUGE_VALF, [&](const float* const* from, float*, int64_t) {
        running = hn::Max(running, hn::LoadU(df, from[0]));
    });
    return hn::GetLane(hn::MaxOfLanes(df, running));
}

// The 16 lanes added in a fixed tree, rounded to fp32.
HWY_INLINE float LanesToFloat(kernels::SumAccumulator& sums) {
    for (int width = kernels::kSumLanes / 2; width >= 1; width /= 2)
        for (int j = 0; j < width; ++j) sums.lanes[j] += sums.lanes[j + width];
    return static_cast<float>(sums.lanes[0]);
}

// Sums the values value(from) gives for each vector of the row, where value is an elementwise fp32 step; where
// `store` is not null, stored(from, v) is stored there for each vector v of values (store may be the row's input:
// each vector is read before it is written). Whole groups of kSumLanes go straight into the float64 lanes held in
// registers, the rest through a buffer: the same lanes and order either way (kernels/sum_accumulation-inl.h).
template <class Value, class Stored>
HWY_INLINE float RowSumStoring(const float* const* in, int inputs, int64_t n, float pad, Value&& value,
                               Stored&& stored, float* store) {
    const DF df;
    kernels::SumAccumulator sums;
    int64_t done = 0;
#if ACLNN_CPU_SUM_LANE_VECTORS
    using LaneVectors = kernels::HWY_NAMESPACE::SumLaneVectors<kernels::HWY_NAMESPACE::Widening::kConvert>;
    constexpr int64_t kLanes = static_cast<int64_t>(hn::MaxLanes(DF()));
    if (n >= kernels::kSumLanes) {
        LaneVectors lanes(sums);
        for (; done + kernels::kSumLanes <= n; done += kernels::kSumLanes) {
            for (int64_t slot = 0; slot < LaneVectors::kSlots; ++slot) {
                const int64_t at = done + slot * kLanes;
                const float* from[2] = {in[0] + at, inputs > 1 ? in[1] + at : nullptr};
                const auto v = value(from);
                if (store != nullptr) hn::StoreU(stored(from, v), df, store + at);
                lanes.Add(slot, v);
            }
        }
        lanes.StoreTo(&sums);
    }
#endif
    const float* rest[2] = {in[0] + done, inputs > 1 ? in[1] + done : nullptr};
    HWY_ALIGN float block[kSumBlock];
    int64_t filled = 0, position = done;
    ForEachVector(rest, inputs, n - done, store == nullptr ? nullptr : store + done, pad,
                  [&](const float* const* from, float* to, int64_t count) {
        const auto v = value(from);
        hn::Store(v, df, block + filled);
        if (to != nullptr) hn::StoreU(stored(from, v), df, to);
        filled += count;
        if (filled + static_cast<int64_t>(hn::Lanes(df)) > kSumBlock || count < static_cast<int64_t>(hn::Lanes(df))) {
            kernels::HWY_NAMESPACE::AccumulateSums(block, filled, position, &sums);
            position += filled;
            filled = 0;
        }
    });
    if (filled > 0) kernels::HWY_NAMESPACE::AccumulateSums(block, filled, position, &sums);
    return LanesToFloat(sums);
}

// RowSumStoring that stores the values it sums.
template <class Value>
HWY_INLINE float RowSum(const float* const* in, int inputs, int64_t n, float pad, Value&& value,
                        float* store = nullptr) {
    return RowSumStoring(in, inputs, n, pad, value, [](const float* const*, hn::Vec<DF> v) { return v; }, store);
}

// softmax: e = exp(x - max), sum = the row's sum of e, y = e / sum (a true divide, as the kernel's Div). e goes to
// out in the pass that sums it, then out / sum.
inline void SoftmaxRow(const float* const* in, int64_t n, float* out) {
    const DF df;
    const auto max = hn::Set(df, RowMax(in[0], n));
    const auto sum = hn::Set(df, RowSum(in, 1, n, 0.0f, [&](const float* const* from) {
        return kernels::HWY_NAMESPACE::VectorExp(df, hn::Sub(hn::LoadU(df, from[0]), max));
    }, out));
    const float* e = out;
    ForEachVector(&e, 1, n, out, 1.0f, [&](const float* const* from, float* to, int64_t) {
        hn::StoreU(hn::Div(hn::LoadU(df, from[0]), sum), df, to);
    });
}

// log-softmax: d = x - max, sum = the row's sum of exp(d), y = d - log(sum), as the arch35 kernel groups it. d goes
// to out in the pass that sums exp(d), so that out's lines are fetched while that pass computes, then out - log(sum)
// in place.
inline void LogSoftmaxRow(const float* const* in, int64_t n, float* out) {
    const DF df;
    const auto max = hn::Set(df, RowMax(in[0], n));
    const float sum = RowSumStoring(
        in, 1, n, 0.0f,
        [&](const float* const* from) {
            return kernels::HWY_NAMESPACE::VectorExp(df, hn::Sub(hn::LoadU(df, from[0]), max));
        },
        [&](const float* const* from, hn::Vec<DF>) { return hn::Sub(hn::LoadU(df, from[0]), max); }, out);
    const auto log_sum = kernels::HWY_NAMESPACE::VectorLog(df, hn::Set(df, sum));
    const float* d = out;
    ForEachVector(&d, 1, n, out, 0.0f, [&](const float* const* from, float* to, int64_t) {
        hn::StoreU(hn::Sub(hn::LoadU(df, from[0]), log_sum), df, to);
    });
}

// softmax's gradient, inputs (gradOutput g, output y): s = the row's sum of y * g, out = y * g - y * s (the
// kernel's y * g + (-y) * s, each product rounded, so that every target gives the same bits).
inline void SoftmaxBackwardRow(const float* const* in, int64_t n, float* out) {
    const DF df;
    const auto s = hn::Set(df, RowSum(in, 2, n, 0.0f, [&](const float* const* from) {
        return hn::Mul(hn::LoadU(df, from[1]), hn::LoadU(df, from[0]));
    }));
    ForEachVector(in, 2, n, out, 0.0f, [&](const float* const* from, float* to, int64_t) {
        const auto g = hn::LoadU(df, from[0]), y = hn::LoadU(df, from[1]);
        hn::StoreU(hn::Sub(hn::Mul(y, g), hn::Mul(y, s)), df, to);
    });
}

// log-softmax's gradient, inputs (gradOutput g, output y): s = the row's sum of g, out = g - exp(y) * s.
inline void LogSoftmaxBackwardRow(const float* const* in, int64_t n, float* out) {
    const DF df;
    const auto s =
        hn::Set(df, RowSum(in, 1, n, 0.0f, [&](const float* const* from) { return hn::LoadU(df, from[0]); }));
    ForEachVector(in, 2, n, out, 0.0f, [&](const float* const* from, float* to, int64_t) {
        const auto g = hn::LoadU(df, from[0]);
        const auto e = kernels::HWY_NAMESPACE::VectorExp(df, hn::LoadU(df, from[1]));
        hn::StoreU(hn::Sub(g, hn::Mul(e, s)), df, to);
    });
}

}  // namespace aclnn_cpu::ops::softmax::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // include guard
