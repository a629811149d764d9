// The exp pass of the eager-framework composite, vectorised and dispatched at run time like PyTorch's own
// (which calls Sleef's 1-ulp vector exp on AVX2/AVX-512). A scalar std::exp loop would make the composite
// slower than the framework it stands for, and the ratio against it flattering.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "composite_exp.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include <cmath>

#include "comparison_kernels.h"
#include "hwy/contrib/math/math-inl.h"
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace bench::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

void ExpSpan(const float* in, float* out, int64_t n) {
    const hn::ScalableTag<float> df;
    const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
    int64_t i = 0;
    for (; i + lanes <= n; i += lanes) hn::StoreU(hn::Exp(df, hn::LoadU(df, in + i)), df, out + i);
    for (; i < n; ++i) out[i] = std::exp(in[i]);  // a tail shorter than one vector
}

}  // namespace bench::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace bench {
HWY_EXPORT(ExpSpan);
void VectorExp(const float* in, float* out, int64_t n) { HWY_DYNAMIC_DISPATCH(ExpSpan)(in, out, n); }
}  // namespace bench
#endif
