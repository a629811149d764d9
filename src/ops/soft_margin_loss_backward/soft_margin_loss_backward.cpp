// aclnnSoftMarginLossBackward, whole: its functor compiled once per SIMD target, its phase 1 in CANN's order,
// its row of the operator table.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/soft_margin_loss_backward/soft_margin_loss_backward.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "hwy/highway.h"
#include "kernels/elementwise_tiles-inl.h"
#include "kernels/vector_exp-inl.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::ops::soft_margin_loss_backward::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// CANN's kernel, in its order: p = x*y; e = exp(-p); q = (-y*e) / (e+1); r = q * gs, where gs = g*cof is
// gradOutput after the engine's pre-scale (cof = 1/N for mean). -p is formed as x * (-y), which rounds to
// exactly -(x*y), so -y is computed once. exp is the project's VectorExp (kernels/vector_exp-inl.h): NaN
// stays NaN, and where exp overflows e = +inf makes the quotient NaN, as on the NPU.
struct SoftMarginLossGrad {
    static constexpr int kInputs = 3;       // gradOutput, self, target
    static constexpr int kScaledInput = 0;  // gradOutput, times 1/N for mean

    template <class D>
    HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> gs, hn::Vec<D> x, hn::Vec<D> y) const {
        const auto minus_y = hn::Neg(y);
        const auto e = kernels::HWY_NAMESPACE::VectorExp(d, hn::Mul(x, minus_y));
        const auto q = hn::Div(hn::Mul(minus_y, e), hn::Add(e, hn::Set(d, 1.0f)));
        return hn::Mul(q, gs);
    }
};

ACLNN_CPU_STORE_KERNEL_CHOOSER(ChooseKernel, SoftMarginLossGrad)

}  // namespace aclnn_cpu::ops::soft_margin_loss_backward::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_soft_margin_loss_backward.h"
#include "common/error_message.h"
#include "engine/elementwise_operator.h"
#include "ops/operator_request.h"

namespace aclnn_cpu::ops::soft_margin_loss_backward {

HWY_EXPORT(ChooseKernel);

kernels::TileKernel ChooseTileKernel(const kernels::KernelConfig& config, bool fusable) {
    return HWY_DYNAMIC_DISPATCH(ChooseKernel)(config, fusable);
}

}  // namespace aclnn_cpu::ops::soft_margin_loss_backward

// ---- aclnnSoftMarginLossBackward --------------------------------------------------------------------------------
// aclnnSoftMarginLossBackward: the gradient of SoftMarginLoss with respect to self, on the elementwise engine.
// Its description: three broadcast inputs, out of the broadcast shape, CANN's reduction check, gradOutput
// scaled by 1/N for mean (N = numel of the broadcast shape, as the NPU's tiling counts it).
namespace aclnn_cpu {

ACLNN_CPU_OPERATOR_ROW(soft_margin_loss_backward) =
    OperatorDescription(ACLNN_CPU_C_API(aclnnSoftMarginLossBackward), "soft_margin_loss_backward",
                        "gradOutput * -target * exp(-target*self) / (1 + exp(-target*self)), divided by N for mean")
        .Inputs({operator_rows::kGradOutput, operator_rows::kSelf, operator_rows::kSignTarget}, 1)
        .Parameters({operator_rows::kReduction})
        .Result(ResultRule::kGradient)
        .Dtypes(&validation::kFloatTypesBf16FromAtlasA2)
        .Reference(&references::SoftMarginLossGrad)
        .Aten("soft_margin_loss_backward", AtenResultType::kSelf)
        .WarnsOfFractalNz();

}  // namespace aclnn_cpu

namespace {

const aclnn_cpu::OperatorDescription& kRow = aclnn_cpu::kOperatorRow_soft_margin_loss_backward;

}  // namespace

extern "C" {

aclnnStatus aclnnSoftMarginLossBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                        const aclTensor* target, int64_t reduction, aclTensor* out,
                                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
    using namespace aclnn_cpu;
    return engine::GuardCBoundary(kRow.phase1_name, [&]() -> aclnnStatus {
        engine::ElementwiseRequest request =
            ops::RequestFor(kRow, {gradOutput, self, target}, out, workspaceSize, executor);
        // CANN indexes its reduction names with the value unchecked (undefined behaviour outside 0-2); sibling
        // loss APIs reject it, and so do we.
        request.validation.steps = validation::DefaultSteps(false, [reduction]() -> aclnnStatus {
            if (reduction >= 0 && reduction <= 2) return ACLNN_SUCCESS;
            SetErrorMessage(aclnn_cpu::kAclnnParameterError,
                            "%s: reduction is %lld; expected 0 (none), 1 (mean) or 2 (sum).", kRow.phase1_name,
                            static_cast<long long>(reduction));
            return ACLNN_ERR_PARAM_INVALID;
        });
        request.describe = [reduction](const validation::ValidatedOperation& validated) {
            engine::ElementwiseDescription description;
            description.choose_kernel = &ops::soft_margin_loss_backward::ChooseTileKernel;
            // N is converted to fp32 before the reciprocal as on the NPU, so it is rounded for N > 2^24.
            const int64_t n = engine::ElementCount(validated.broadcast_shape);
            if (reduction == 1 && n > 0) description.input_scale = 1.0f / static_cast<float>(n);
            return description;
        };
        return engine::PlanElementwiseOperator(request);
    });
}

aclnnStatus aclnnSoftMarginLossBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                        aclrtStream stream) {
    return aclnn_cpu::ops::Run(kRow, workspace, workspaceSize, executor, stream);
}

}  // extern "C"

#endif  // HWY_ONCE
