// aclnnLogitGrad (ops-nn loss/logit_grad): dy / (x * (1 - x)) where x lies in [eps, 1 - eps] (eps >= 0; 0
// elsewhere) or in [0, 1] (eps < 0, NaN elsewhere), both ends kept, as CANN's kernel selects it; a NaN x is
// outside. The whole operator in one file: its functor for every SIMD target, its phase 1 and its row.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/logit_grad/logit_grad.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include <cmath>

#include "hwy/highway.h"
#include "kernels/elementwise_tiles-inl.h"
#include "kernels/float64_evaluation-inl.h"

#ifndef ACLNN_CPU_OPS_LOGIT_GRAD_PARAMETERS
#define ACLNN_CPU_OPS_LOGIT_GRAD_PARAMETERS
namespace aclnn_cpu::ops::logit_grad {
// CANN's kernel's window [lower, upper] (fp32) and the value outside it.
struct Parameters {
    float lower;
    float upper;
    float outside;
};
}  // namespace aclnn_cpu::ops::logit_grad
#endif

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::ops::logit_grad::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The quotient in float64 (1 - x exact there, the product and quotient rounded once each), rounded to fp32 once:
// fp32 steps would round x * (1 - x) to a subnormal for tiny x.
struct LogitGrad {
    static constexpr int kInputs = 2;  // x, dy
    static constexpr int kScaledInput = -1;
    static constexpr bool kOutTypeIsInputType = true;
    using Parameters = logit_grad::Parameters;

    explicit LogitGrad(const Parameters& parameters)
        : lower(parameters.lower), upper(parameters.upper), outside(parameters.outside) {}

    template <class D>
    HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> x, hn::Vec<D> dy) const {
        const auto gradient = kernels::HWY_NAMESPACE::EvaluateInFloat64(
            d,
            [](auto dd, auto x64, auto dy64) {
                return hn::Div(dy64, hn::Mul(x64, hn::Sub(hn::Set(dd, 1.0), x64)));
            },
            x, dy);
        const auto inside = hn::And(hn::Ge(x, hn::Set(d, lower)), hn::Le(x, hn::Set(d, upper)));
        return hn::IfThenElse(inside, gradient, hn::Set(d, outside));
    }

    float lower, upper, outside;
};

ACLNN_CPU_STORE_KERNEL_CHOOSER(Choose, LogitGrad)

}  // namespace aclnn_cpu::ops::logit_grad::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "aclnnop/aclnn_logit_grad.h"
#include "engine/elementwise_operator.h"
#include "ops/operator_request.h"
#include "validation/exact_shape_checks.h"

namespace aclnn_cpu::ops::logit_grad {

ACLNN_CPU_DISPATCH_TILE_KERNEL(Choose)

// CANN's kernel: eps >= 0 selects [eps, 1 - eps] and 0 outside; eps < 0 (or NaN) [0, 1] and NaN outside.
Parameters ParametersOf(double eps) {
    const float eps32 = static_cast<float>(eps);
    const float lower = eps32 >= 0 ? eps32 : 0.0f;
    return {lower, 1.0f - lower, eps32 >= 0 ? 0.0f : NAN};
}

}  // namespace aclnn_cpu::ops::logit_grad

namespace aclnn_cpu {

ACLNN_CPU_OPERATOR_ROW(logit_grad) =
    OperatorDescription(ACLNN_CPU_C_API(aclnnLogitGrad), "logit_grad",
                        "dy / (x * (1 - x)) for x in [eps, 1 - eps] (0 outside) where eps >= 0, in [0, 1] (NaN "
                        "outside) where eps < 0")
        .Inputs({{"x", "self", false, ValueDomain::kProbability},
                 {"dy", "grad_output", false, ValueDomain::kGradient, InputShape::kSameAsSelf}},
                0)
        .Parameters({{"eps", "eps", ParameterType::kDouble, -1, -operator_rows::kInfinity, operator_rows::kInfinity}})
        .Result(ResultRule::kGradient)
        .Dtypes(&validation::kNewerChipsOnly, true, 0)
        .Reference(&references::LogitGrad)
        .Aten("logit_backward", AtenResultType::kPromoted);

}  // namespace aclnn_cpu

namespace {

const aclnn_cpu::OperatorDescription& kRow = aclnn_cpu::kOperatorRow_logit_grad;

}  // namespace

extern "C" {

// CANN generates this operator's op_api from its OpDef: null tensors (161001), each dtype in the list, one dtype
// and one shape for x, dy and out (161002; its kernel reads dy at x's offsets), any eps.
aclnnStatus aclnnLogitGradGetWorkspaceSize(const aclTensor* x, const aclTensor* dy, double eps, const aclTensor* out,
                                           uint64_t* workspaceSize, aclOpExecutor** executor) {
    using namespace aclnn_cpu;
    namespace checks = validation::checks;
    namespace logit_grad = ops::logit_grad;
    return engine::GuardCBoundary(kRow.phase1_name, [&]() -> aclnnStatus {
        engine::ElementwiseRequest request = ops::RequestFor(kRow, {x, dy}, out, workspaceSize, executor);
        request.validation.steps = {
            checks::NullTensors(),
            checks::DtypesInList({0, 1, checks::kOut}),
            checks::DtypeMatches(1, 0),
            checks::DtypeMatches(checks::kOut, 0),
            checks::ShapesEqual(0, 1),
            checks::Ranks({0, 1, checks::kOut}),
            checks::Layouts(),
            checks::Broadcast(),
            checks::OutShape(false),
            checks::OutDoesNotOverlapItself(),
        };
        request.describe = [eps](const validation::ValidatedOperation&) {
            engine::ElementwiseDescription description;
            description.choose_kernel = &logit_grad::ChooseKernel;
            description.parameters = kernels::FunctorParameters::Of(logit_grad::ParametersOf(eps));
            return description;
        };
        return engine::PlanElementwiseOperator(request);
    });
}

aclnnStatus aclnnLogitGrad(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
    return aclnn_cpu::ops::Run(kRow, workspace, workspaceSize, executor, stream);
}

}  // extern "C"

#endif  // HWY_ONCE
