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
#include <cstring>

#include "common/float_convert.h"
#include "hwy/highway.h"
#include "kernels/vector_convert-inl.h"
#include "ops/softmax/softmax_rows-inl.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::ops::cross_entropy::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
namespace sm = softmax::HWY_NAMESPACE;
using kernels::HWY_NAMESPACE::DF;

// logProb of a row x of n (n > 0): sum = the row's sum of exp(x - max), then Atlas A2/A3's x - (log(sum) + max)
// or (max_first) Ascend 950's (x - max) - log(sum). lp may be x.
inline void LogProbRow(const float* x, int64_t n, bool max_first, float* lp) {
    const DF df;
    const float max = sm::RowMax(x, n);
    const auto max_v = hn::Set(df, max);
    const float sum = sm::RowSum(&x, 1, n, 0.0f, [&](const float* const* from) {
        return kernels::HWY_NAMESPACE::VectorExp(df, hn::Sub(hn::LoadU(df, from[0]), max_v));
    });
    const auto log_sum = kernels::HWY_NAMESPACE::VectorLog(df, hn::Set(df, sum));
    if (max_first) {
        sm::ForEachVector(&x, 1, n, lp, 0.0f, [&](const float* const* from, float* to, int64_t) {
            hn::StoreU(hn::Sub(hn::Sub(hn::LoadU(df, from[0]), max_v), log_sum), df, to);
        });
        return;
    }
    const auto shift = hn::Add(log_sum, max_v);
    sm::ForEachVector(&x, 1, n, lp, 0.0f, [&](const float* const* from, float* to, int64_t) {
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

// n FLOAT16 or (bf16) BFLOAT16 values, contiguous, widened to fp32 exactly (a signalling FLOAT16 NaN may come out
// quiet, as the F16C instructions make it; every use of the values is arithmetic, which quiets it anyway).
inline void WidenRow(const uint16_t* in, bool bf16, int64_t n, float* out) {
    const DF df;
    const hn::RebindToUnsigned<DF> du;
    const hn::Rebind<uint16_t, DF> du16;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
    int64_t i = 0;
    for (; i + lanes <= n; i += lanes) {
        const auto bits = hn::PromoteTo(du, hn::LoadU(du16, in + i));
        hn::StoreU(bf16 ? kernels::HWY_NAMESPACE::Bf16BitsToFloat(df, bits)
                        : kernels::HWY_NAMESPACE::HalfBitsToFloat(df, bits),
                   df, out + i);
    }
    for (; i < n; ++i) {
        uint16_t bits;
        std::memcpy(&bits, in + i, sizeof bits);  // (any alignment)
        out[i] = bf16 ? Bf16ToFloat(bits) : HalfToFloat(bits);
    }
}

// n fp32 values rounded to FLOAT16 or (bf16) BFLOAT16, to nearest, ties to even, as CANN's CAST_RINT.
inline void NarrowRow(const float* in, bool bf16, int64_t n, uint16_t* out) {
    const DF df;
    const hn::Rebind<uint16_t, DF> du16;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
    int64_t i = 0;
    for (; i + lanes <= n; i += lanes) {
        const auto v = hn::LoadU(df, in + i);
        const auto bits = bf16 ? kernels::HWY_NAMESPACE::FloatToBf16Bits(df, v)
                               : kernels::HWY_NAMESPACE::FloatToHalfBits(df, v);
        // The 16-bit patterns fit an int32: its saturating demotion keeps them.
        hn::StoreU(hn::DemoteTo(du16, hn::BitCast(hn::RebindToSigned<DF>(), bits)), du16, out + i);
    }
    for (; i < n; ++i) {
        const uint16_t bits = bf16 ? FloatToBf16(in[i]) : FloatToHalf(in[i]);
        std::memcpy(out + i, &bits, sizeof bits);
    }
}

}  // namespace aclnn_cpu::ops::cross_entropy::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // include guard
