// The row kernels of aclnnCrossEntropyLoss and aclnnCrossEntropyLossGrad, as CANN's kernels (ops-nn
// loss/cross_entropy_loss, loss/cross_entropy_loss_grad) compute a row of C classes, compiled once per SIMD
// target: every elementwise step in fp32 in the kernel's order, each row's sum evaluated to its true value and
// rounded to fp32 once (softmax_rows-inl.h's RowMax, RowSum and lanes), exp and log the project's own.
// Include guard toggled per target, as Highway's per-target headers require.
#if defined(ACLNN_CPU_OPS_CROSS_ENTROPY_ROWS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLNN_CPU_OPS_CROSS_ENTROPY_ROWS_INL_H_
#undef ACLNN_CPU_OPS_CROSS_ENTROPY_ROWS_INL_H_
#else
#define ACLNN_CPU_OPS_CROSS_ENTROPY_ROWS_INL_H_
#endif

#include <cstdint>

#include "hwy/highway.h"
#include "ops/softmax/softmax_rows-inl.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::ops::cross_entropy::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
namespace sm = softmax::HWY_NAMESPACE;
using kernels::HWY_NAMESPACE::DF;

// logProb of a row x of n (n > 0): sum = the row's sum of exp(x - max), then Atlas A2/A3's x - (log(sum) + max)
// or (max_first) Ascend 950's (x - max) - log(sum). lp may be x. x (A2/A3) or x - max (950) goes to lp in the pass
// that sums, so that lp's lines are fetched while that pass computes; the last pass works in place.
inline void LogProbRow(const float* x, int64_t n, bool max_first, float* lp) {
    const DF df;
    const float max = sm::RowMax(x, n);
    const auto max_v = hn::Set(df, max);
    const float sum = sm::RowSumStoring(
        &x, 1, n, 0.0f,
        [&](const float* const* from) {
            return kernels::HWY_NAMESPACE::VectorExp(df, hn::Sub(hn::LoadU(df, from[0]), max_v));
        },
        [&](const float* const* from, hn::Vec<DF>) {
            const auto v = hn::LoadU(df, from[0]);
            return max_first ? hn::Sub(v, max_v) : v;
        },
        lp);
    const auto log_sum = kernels::HWY_NAMESPACE::VectorLog(df, hn::Set(df, sum));
    const auto shift = max_first ? log_sum : hn::Add(log_sum, max_v);
    const float* kept = lp;
    sm::ForEachVector(&kept, 1, n, lp, 0.0f, [&](const float* const* from, float* to, int64_t) {
        hn::StoreU(hn::Sub(hn::LoadU(df, from[0]), shift), df, to);
    });
}

// Label smoothing's row sum: of w[c] * lp[c] (each product rounded to fp32), or of lp[c] where w is null.
inline float SmoothingSum(const float* lp, const float* w, int64_t n) {
    const DF df;
    if (w == nullptr)
        return sm::RowSum(&lp, 1, n, 0.0f, [&](const float* const* from) { return hn::LoadU(df, from[0]); });
    const float* in[2] = {lp, w};
    return sm::RowSum(in, 2, n, 0.0f, [&](const float* const* from) {
        return hn::Mul(hn::LoadU(df, from[1]), hn::LoadU(df, from[0]));
    });
}

// The gradient's row: out[c] = exp(lp[c]) * s.
inline void ScaledExpRow(const float* lp, int64_t n, float s, float* out) {
    const DF df;
    const auto s_v = hn::Set(df, s);
    sm::ForEachVector(&lp, 1, n, out, 0.0f, [&](const float* const* from, float* to, int64_t) {
        hn::StoreU(hn::Mul(kernels::HWY_NAMESPACE::VectorExp(df, hn::LoadU(df, from[0])), s_v), df, to);
    });
}

// Ascend 950's label smoothing term added to the row: out[c] = (exp(lp[c]) * k - w[c] * sm) + out[c], with
// w[c] = 1 where w is null.
inline void AddSmoothingRow(const float* lp, const float* w, int64_t n, float k, float smooth, float* out) {
    const DF df;
    const auto k_v = hn::Set(df, k), sm_v = hn::Set(df, smooth);
    const float* in[2] = {lp, w};
    // out is read back through the second input where w is null (a third input the helper does not have).
    float* const at = out;
    int64_t done = 0;
    sm::ForEachVector(in, w == nullptr ? 1 : 2, n, out, 1.0f, [&](const float* const* from, float* to, int64_t count) {
        const auto e = kernels::HWY_NAMESPACE::VectorExp(df, hn::LoadU(df, from[0]));
        const auto taken = w == nullptr ? sm_v : hn::Mul(hn::LoadU(df, from[1]), sm_v);
        HWY_ALIGN float previous[hn::MaxLanes(DF())] = {};
        for (int64_t j = 0; j < count; ++j) previous[j] = at[done + j];
        hn::StoreU(hn::Add(hn::Sub(hn::Mul(e, k_v), taken), hn::Load(df, previous)), df, to);
        done += count;
    });
}

}  // namespace aclnn_cpu::ops::cross_entropy::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // include guard
