// aclnnSoftMarginLoss, whole: its functor (soft_margin_loss_functor-inl.h) in the engine's tile loops
// (elementwise for reduction none, summed for mean and sum) compiled once per SIMD target, its phase 1 in CANN's
// order, its row of the operator table.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/soft_margin_loss/soft_margin_loss.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "hwy/highway.h"
#include "kernels/elementwise_tiles-inl.h"
#include "ops/soft_margin_loss/soft_margin_loss_functor-inl.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::ops::soft_margin_loss::HWY_NAMESPACE {

kernels::TileKernel ChooseKernel(const kernels::KernelConfig& config, bool fusable) {
    return kernels::HWY_NAMESPACE::ChooseTileKernel<SoftMarginLoss>(config, fusable);
}

}  // namespace aclnn_cpu::ops::soft_margin_loss::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_soft_margin_loss.h"
#include "engine/elementwise_operator.h"
#include "ops/operator_table.h"

namespace aclnn_cpu::ops::soft_margin_loss {

HWY_EXPORT(ChooseKernel);

kernels::TileKernel ChooseTileKernel(const kernels::KernelConfig& config, bool fusable) {
    return HWY_DYNAMIC_DISPATCH(ChooseKernel)(config, fusable);
}

}  // namespace aclnn_cpu::ops::soft_margin_loss

// ---- aclnnSoftMarginLoss ----------------------------------------------------------------------------------------
// aclnnSoftMarginLoss: L = log(1 + exp(-target*self)) per element, on the elementwise engine. Its
// description: two broadcast inputs; reduction 0 (none) stores L into out of the broadcast shape; 1 (mean)
// and any other value (sum, as CANN's GetReductionStr maps them) sum L into a 0-d out.
namespace {

constexpr const char* kPhase1Name = "aclnnSoftMarginLossGetWorkspaceSize";
constexpr const char* kPhase2Name = "aclnnSoftMarginLoss";

}  // namespace

extern "C" {

aclnnStatus aclnnSoftMarginLossGetWorkspaceSize(const aclTensor* self, const aclTensor* target, int64_t reduction,
                                                aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    using namespace aclnn_cpu;
    return engine::GuardCBoundary(kPhase1Name, [&]() -> aclnnStatus {
        const bool elementwise = reduction == 0;
        engine::ElementwiseRequest request;
        request.validation.api = kPhase1Name;
        request.validation.workspace_size = workspaceSize;
        request.validation.executor = executor;
        request.validation.inputs = {{self, "self"}, {target, "target"}};
        request.validation.out = {out, "out"};
        request.validation.out_shape = validation::OutShapeRule::kScalar;
        request.validation.steps = validation::DefaultSteps(!elementwise);
        request.describe = [elementwise, reduction](const validation::ValidatedOperation&) {
            engine::ElementwiseDescription description;
            description.phase2_name = kPhase2Name;
            description.choose_kernel = &ops::soft_margin_loss::ChooseTileKernel;
            description.output = elementwise ? kernels::OutputMode::kStore : kernels::OutputMode::kSum;
            description.mean = reduction == 1 ? engine::MeanRule::kTimesReciprocal : engine::MeanRule::kNone;
            return description;
        };
        request.nz_warning_input = 0;  // self
        return engine::PlanElementwiseOperator(request);
    });
}

aclnnStatus aclnnSoftMarginLoss(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                aclrtStream stream) {
    return aclnn_cpu::engine::RunElementwiseOperator(workspace, workspaceSize, executor, stream, kPhase2Name);
}

}  // extern "C"

// The operator's row of the table every layer above the C API reads (ops/operator_table.h).
namespace aclnn_cpu {

ACLNN_CPU_OPERATOR_ROW(soft_margin_loss) = {
    "soft_margin_loss", "aclnnSoftMarginLoss",
    "log(1 + exp(-target*self)) per element, or its mean or sum",
    2, {operator_rows::kSelf, operator_rows::kSignTarget}, 0,
    1, {operator_rows::kAnyReduction},
    ResultRule::kLoss, MeanDivisor::kBroadcastElements, &validation::kFloatTypesBf16FromAtlasA2, false,
    &references::SoftMarginLoss, "soft_margin_loss", AtenResultType::kSelf, nullptr, 0,
    [](const aclTensor* const* in, const double* p, aclTensor* out, uint64_t* size, aclOpExecutor** executor) {
        return aclnnSoftMarginLossGetWorkspaceSize(in[0], in[1], operator_rows::Int(p[0]), out, size, executor);
    },
    aclnnSoftMarginLoss};

}  // namespace aclnn_cpu

#endif  // HWY_ONCE
