// aclnnLogit (ops-nn loss/logit): ln(z / (1 - z)) per element, z the input clamped to [eps, 1 - eps] where
// eps >= 0 (as CANN's kernel: the upper end first, then the lower, both kept; a NaN input stays NaN), the input
// itself where eps < 0. The whole operator in one file: its functor for every SIMD target, its phase 1 in
// CANN's order, and its row of the operator table.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/logit/logit.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "hwy/highway.h"
#include "kernels/elementwise_tiles-inl.h"
#include "kernels/float64_evaluation-inl.h"

#ifndef ACLNN_CPU_OPS_LOGIT_PARAMETERS
#define ACLNN_CPU_OPS_LOGIT_PARAMETERS
namespace aclnn_cpu::ops::logit {
// eps as CANN's tiling passes it (a float attribute), and the clamp's upper end 1 - eps in fp32.
struct Parameters {
    float eps;
    float upper;
};
}  // namespace aclnn_cpu::ops::logit
#endif

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::ops::logit::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// ln(q) for float64 q: -inf at 0, +inf at +inf, NaN below 0 and at NaN; for a positive finite q within a few
// float64 ulp (far below the fp32 half ulp its caller rounds to): q = 2^k m with m in [sqrt(1/2), sqrt(2)),
// ln m = 2 atanh(s) = 2 (s + s^3/3 + ... + s^21/21), s = (m - 1) / (m + 1), |s| <= 0.1716, truncated below 2^-56
// relative. Its callers' q is a quotient of fp32 values (normal in float64).
template <class DD>
HWY_INLINE hn::Vec<DD> LogOfQuotient(DD dd, hn::Vec<DD> q) {
    const hn::RebindToUnsigned<DD> du;
    const hn::RebindToSigned<DD> di;
    // Musl's reduction: moving q's mantissa by 1 - sqrt(1/2) carries into the exponent exactly where m would
    // reach sqrt(2).
    const auto bits = hn::Add(hn::BitCast(du, q), hn::Set(du, 0x3ff0000000000000ull - 0x3fe6a09e00000000ull));
    const auto k = hn::Sub(hn::BitCast(di, hn::ShiftRight<52>(bits)), hn::Set(di, 0x3ff));
    const auto m = hn::BitCast(
        dd, hn::Add(hn::And(bits, hn::Set(du, 0x000fffffffffffffull)), hn::Set(du, 0x3fe6a09e00000000ull)));
    const auto one = hn::Set(dd, 1.0);
    const auto s = hn::Div(hn::Sub(m, one), hn::Add(m, one));
    const auto w = hn::Mul(s, s);
    // Separate multiplies and adds, never fused: every target (with FMA or without) rounds each step alike, so the
    // results have the same bits everywhere.
    auto series = hn::Set(dd, 1.0 / 21);
    for (int n = 19; n >= 1; n -= 2) series = hn::Add(hn::Mul(series, w), hn::Set(dd, 1.0 / n));
    const auto log_m = hn::Mul(hn::Add(s, s), series);
    const auto log = hn::Add(hn::Mul(hn::ConvertTo(dd, k), hn::Set(dd, 0x1.62e42fefa39efp-1)), log_m);
    const auto zero = hn::Zero(dd);
    auto result = hn::IfThenElse(hn::Eq(q, zero), hn::Set(dd, -HUGE_VAL), log);
    result = hn::IfThenElse(hn::Eq(q, hn::Set(dd, HUGE_VAL)), q, result);
    return hn::IfThenElse(hn::Or(hn::Lt(q, zero), hn::IsNaN(q)), hn::Set(dd, NAN), result);
}

// CANN's kernel: z = clamp, then Div(z, (-z) + 1) and one Ln. Here the quotient and its log are float64 (z and
// 1 - z exact there), rounded to fp32 once: the fp32 quotient's rounding would be magnified where z is near 1/2.
struct Logit {
    static constexpr int kInputs = 1;  // input
    static constexpr int kScaledInput = -1;
    static constexpr bool kOutTypeIsInputType = true;
    using Parameters = logit::Parameters;

    explicit Logit(const Parameters& parameters) : eps(parameters.eps), upper(parameters.upper) {}

    template <class D>
    HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> x) const {
        auto z = x;
        if (eps >= 0) {
            z = hn::IfThenElse(hn::Le(x, hn::Set(d, upper)), x, hn::Set(d, upper));
            z = hn::IfThenElse(hn::Ge(z, hn::Set(d, eps)), z, hn::Set(d, eps));
            z = hn::IfThenElse(hn::Eq(x, x), z, x);
        }
        return kernels::HWY_NAMESPACE::EvaluateInFloat64(
            d, [](auto dd, auto z64) { return LogOfQuotient(dd, hn::Div(z64, hn::Sub(hn::Set(dd, 1.0), z64))); },
            z);
    }

    float eps, upper;
};

ACLNN_CPU_STORE_KERNEL_CHOOSER(Choose, Logit)

}  // namespace aclnn_cpu::ops::logit::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "aclnnop/aclnn_logit.h"
#include "engine/elementwise_operator.h"
#include "ops/operator_request.h"
#include "validation/exact_shape_checks.h"

namespace aclnn_cpu::ops::logit {

ACLNN_CPU_DISPATCH_TILE_KERNEL(Choose)

}  // namespace aclnn_cpu::ops::logit

namespace aclnn_cpu {

ACLNN_CPU_OPERATOR_ROW(logit) =
    OperatorDescription(ACLNN_CPU_C_API(aclnnLogit), "logit",
                        "ln(z / (1 - z)), z = input clamped to [eps, 1 - eps] where eps >= 0")
        .Inputs({{"input", "self", false, ValueDomain::kProbability}}, 0)
        .Parameters({{"eps", "eps", ParameterType::kDouble, -1, -operator_rows::kInfinity, operator_rows::kInfinity}})
        .Result(ResultRule::kElementwise)
        .Dtypes(&validation::kNewerChipsOnly, true, 0)
        .Reference(&references::Logit)
        .Aten("logit", AtenResultType::kSelf);

}  // namespace aclnn_cpu

namespace {

const aclnn_cpu::OperatorDescription& kRow = aclnn_cpu::kOperatorRow_logit;

}  // namespace

extern "C" {

// CANN generates this operator's op_api from its OpDef: null tensors (161001), each dtype in the list and out of
// input's dtype and shape (161002; no kernel mixes dtypes), any eps.
aclnnStatus aclnnLogitGetWorkspaceSize(const aclTensor* input, double eps, const aclTensor* out,
                                       uint64_t* workspaceSize, aclOpExecutor** executor) {
    using namespace aclnn_cpu;
    namespace checks = validation::checks;
    namespace logit = ops::logit;
    return engine::GuardCBoundary(kRow.phase1_name, [&]() -> aclnnStatus {
        engine::ElementwiseRequest request = ops::RequestFor(kRow, {input}, out, workspaceSize, executor);
        request.validation.steps = {
            checks::NullTensors(),
            checks::DtypesInList({0, checks::kOut}),
            checks::DtypeMatches(checks::kOut, 0),
            checks::Ranks({0, checks::kOut}),
            checks::Layouts(),
            checks::Broadcast(),
            checks::OutShape(false),
            checks::OutDoesNotOverlapItself(),
        };
        request.describe = [eps](const validation::ValidatedOperation&) {
            engine::ElementwiseDescription description;
            description.choose_kernel = &logit::ChooseKernel;
            const float eps32 = static_cast<float>(eps);
            description.parameters = kernels::FunctorParameters::Of(logit::Parameters{eps32, 1.0f - eps32});
            return description;
        };
        return engine::PlanElementwiseOperator(request);
    });
}

aclnnStatus aclnnLogit(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
    return aclnn_cpu::ops::Run(kRow, workspace, workspaceSize, executor, stream);
}

}  // extern "C"

#endif  // HWY_ONCE
