// aclnnMseLossBackward: ((self - target) * cof) * gradOutput on the elementwise engine, cof = 2, or 2 / numel(self)
// for mean (self's own count, even where it broadcasts: CANN's tiling takes the predict tensor's shape). In the
// order of CANN's op_api (ops-nn loss/mse_loss_grad_v2/op_host/op_api/aclnn_mse_loss_backward.cpp): gradOutput
// and target of self's dtype, self and out in the SoC's list, the reduction, the ranks, the broadcast, out of the
// broadcast shape for every reduction.
#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_mse_loss_backward.h"
#include "engine/elementwise_operator.h"
#include "ops/mse_loss/mse_loss_kernels.h"
#include "ops/operator_table.h"

namespace {

constexpr const char* kPhase1Name = "aclnnMseLossBackwardGetWorkspaceSize";
constexpr const char* kPhase2Name = "aclnnMseLossBackward";

}  // namespace

extern "C" {

aclnnStatus aclnnMseLossBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                 const aclTensor* target, int64_t reduction, aclTensor* out,
                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
    using namespace aclnn_cpu;
    namespace checks = validation::checks;
    return engine::GuardCBoundary(kPhase1Name, [&]() -> aclnnStatus {
        engine::ElementwiseRequest request(kPhase1Name, workspaceSize, executor);
        request.validation.inputs = {{gradOutput, "gradOutput"}, {self, "self"}, {target, "target"}};
        request.validation.out = {out, "out"};
        request.validation.steps = {
            checks::NullTensors(),
            checks::SameDtype(0, 1),
            checks::SameDtype(2, 1),
            checks::DtypesInList({1, checks::kOut}),
            checks::ReductionInRange(reduction, "Expected reduction to be between 0 and 2, but got %lld."),
            checks::Ranks({0, 1, 2}),
            checks::Layouts(),
            checks::Broadcast(),
            checks::OutShape(false),
            checks::OutDoesNotOverlapItself(),
        };
        request.describe = [reduction, self](const validation::ValidatedOperation&) {
            engine::ElementwiseDescription description;
            description.phase2_name = kPhase2Name;
            description.choose_kernel = &ops::mse_loss::ChooseGradientKernel;
            const int64_t n = engine::ViewElementCount(*self);
            description.parameters = kernels::FunctorParameters::Of(kernels::ScaleParameters{
                reduction == 1 && n > 0 ? static_cast<float>(2.0f / static_cast<double>(n)) : 2.0f});
            return description;
        };
        return engine::PlanElementwiseOperator(request);
    });
}

aclnnStatus aclnnMseLossBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                 aclrtStream stream) {
    return aclnn_cpu::engine::RunElementwiseOperator(workspace, workspaceSize, executor, stream, kPhase2Name);
}

}  // extern "C"

// The operator's row of the table every layer above the C API reads (ops/operator_table.h).
namespace aclnn_cpu {

ACLNN_CPU_OPERATOR_ROW(mse_loss_backward) = {
    "mse_loss_backward", "aclnnMseLossBackward",
    "2 * (self - target) * gradOutput, divided by numel(self) for mean",
    3, {operator_rows::kGradOutput, operator_rows::kSelf, operator_rows::kTarget}, 1,
    1, {operator_rows::kReduction},
    ResultRule::kGradient, MeanDivisor::kSelfElements, &validation::kFloatTypesBf16FromAtlasA2, true,
    &references::MseLossGrad, "mse_loss_backward", AtenResultType::kOneDtype, nullptr, 0,
    [](const aclTensor* const* in, const double* p, aclTensor* out, uint64_t* size, aclOpExecutor** executor) {
        return aclnnMseLossBackwardGetWorkspaceSize(in[0], in[1], in[2], operator_rows::Int(p[0]), out, size,
                                                    executor);
    },
    aclnnMseLossBackward};

}  // namespace aclnn_cpu
