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

ACLNN_CPU_TILE_KERNEL_CHOOSER(ChooseKernel, SoftMarginLoss)

}  // namespace aclnn_cpu::ops::soft_margin_loss::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_soft_margin_loss.h"
#include "engine/elementwise_operator.h"
#include "ops/operator_request.h"

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
namespace aclnn_cpu {

ACLNN_CPU_OPERATOR_ROW(soft_margin_loss) =
    OperatorDescription(ACLNN_CPU_C_API(aclnnSoftMarginLoss), "soft_margin_loss",
                        "log(1 + exp(-target*self)) per element, or its mean or sum")
        .Inputs({operator_rows::kSelf, operator_rows::kSignTarget}, 0)
        .Parameters({operator_rows::kAnyReduction})
        .Result(ResultRule::kLoss)
        .Dtypes(&validation::kFloatTypesBf16FromAtlasA2)
        .Reference(&references::SoftMarginLoss)
        .Aten("soft_margin_loss", AtenResultType::kSelf)
        .WarnsOfFractalNz();

}  // namespace aclnn_cpu

namespace {

const aclnn_cpu::OperatorDescription& kRow = aclnn_cpu::kOperatorRow_soft_margin_loss;

}  // namespace

extern "C" {

aclnnStatus aclnnSoftMarginLossGetWorkspaceSize(const aclTensor* self, const aclTensor* target, int64_t reduction,
                                                aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    using namespace aclnn_cpu;
    return engine::GuardCBoundary(kRow.phase1_name, [&]() -> aclnnStatus {
        const bool elementwise = reduction == 0;
        engine::ElementwiseRequest request = ops::RequestFor(kRow, {self, target}, out, workspaceSize, executor);
        request.validation.out_shape = validation::OutShapeRule::kScalar;
        request.validation.steps = validation::DefaultSteps(!elementwise);
        request.describe = [elementwise, reduction](const validation::ValidatedOperation&) {
            engine::ElementwiseDescription description;
            description.choose_kernel = &ops::soft_margin_loss::ChooseTileKernel;
            description.output = elementwise ? kernels::OutputMode::kStore : kernels::OutputMode::kSum;
            description.mean = reduction == 1 ? engine::MeanRule::kTimesReciprocal : engine::MeanRule::kNone;
            return description;
        };
        return engine::PlanElementwiseOperator(request);
    });
}

aclnnStatus aclnnSoftMarginLoss(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                aclrtStream stream) {
    return aclnn_cpu::ops::Run(kRow, workspace, workspaceSize, executor, stream);
}

}  // extern "C"

#endif  // HWY_ONCE
