// aclnnSmoothL1LossBackward: the smooth L1 loss's gradient on the elementwise engine, in the order of CANN's
// op_api (ops-nn loss/smooth_l1_loss_grad_v2/op_api/aclnn_smooth_l1_loss_backward.cpp): each tensor's dtype in the
// SoC's list, the inputs' largest rank, the reduction, beta >= 0, the promoted dtype in the list and castable to
// gradInput's, the broadcast, gradInput of the broadcast shape. The mean divides by numel(self), and a one-element
// gradOut selects CANN's kernel whose comparisons include the edges.
#include <algorithm>

#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_smooth_l1_loss_backward.h"
#include "common/error_message.h"
#include "engine/elementwise_operator.h"
#include "ops/smooth_l1_loss/smooth_l1_loss.h"
#include "ops/operator_table.h"

namespace {

constexpr const char* kPhase1Name = "aclnnSmoothL1LossBackwardGetWorkspaceSize";
constexpr const char* kPhase2Name = "aclnnSmoothL1LossBackward";

// CANN checks the largest of the inputs' ranks.
aclnnStatus CheckLargestRank(const aclTensor* gradOut, const aclTensor* self, const aclTensor* target) {
    const size_t rank = std::max({gradOut->view_dims.size(), self->view_dims.size(), target->view_dims.size()});
    if (rank <= 8) return ACLNN_SUCCESS;
    aclnn_cpu::SetErrorMessage(aclnn_cpu::kAclnnParameterError,
                               "%s: expected tensor must have at most 8 dimensions, but got %zu.", kPhase1Name, rank);
    return ACLNN_ERR_PARAM_INVALID;
}

}  // namespace

extern "C" {

aclnnStatus aclnnSmoothL1LossBackwardGetWorkspaceSize(const aclTensor* gradOut, const aclTensor* self,
                                                      const aclTensor* target, int64_t reduction, float beta,
                                                      aclTensor* gradInput, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
    using namespace aclnn_cpu;
    namespace checks = validation::checks;
    return engine::GuardCBoundary(kPhase1Name, [&]() -> aclnnStatus {
        engine::ElementwiseRequest request(kPhase1Name, workspaceSize, executor);
        request.validation.inputs = {{gradOut, "gradOut"}, {self, "self"}, {target, "target"}};
        request.validation.out = {gradInput, "gradInput"};
        request.validation.broadcast_message = "Broadcast %s and %s failed.";
        request.validation.out_shape_message =
            "Exepected tensor for result to have same size as tensor for gradInput, but %s does not equal %s.";
        request.validation.steps = {
            checks::NullTensors(),
            checks::DtypesInList({0, 1, 2, checks::kOut}),
            checks::Custom([=] { return CheckLargestRank(gradOut, self, target); }),
            checks::ReductionInRange(reduction, "Reduction should be between 0 and 2, but got %lld"),
            checks::Custom([=] { return ops::smooth_l1_loss::CheckBeta(kPhase1Name, beta); }),
            checks::PromotedDtypeInList({0, 1, 2}, "promote dtype %s should be in dtype support list [%s]."),
            checks::PromotedCastableToOut({0, 1, 2}),
            checks::Layouts(),
            checks::Broadcast(),
            checks::OutShape(false),
            checks::OutDoesNotOverlapItself(),
        };
        request.describe = [reduction, beta, gradOut, self](const validation::ValidatedOperation&) {
            engine::ElementwiseDescription description;
            description.phase2_name = kPhase2Name;
            const bool edges = engine::ViewElementCount(*gradOut) == 1;
            description.choose_kernel = edges ? &ops::smooth_l1_loss::ChooseGradientWithEdgesKernel
                                              : &ops::smooth_l1_loss::ChooseGradientKernel;
            const int64_t n = engine::ViewElementCount(*self);
            const float mean_coefficient =
                reduction == 1 && n > 0 ? static_cast<float>(1.0f / static_cast<double>(n)) : 1.0f;
            description.parameters =
                kernels::FunctorParameters::Of(ops::smooth_l1_loss::GradientParametersOf(beta, mean_coefficient));
            return description;
        };
        return engine::PlanElementwiseOperator(request);
    });
}

aclnnStatus aclnnSmoothL1LossBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                      aclrtStream stream) {
    return aclnn_cpu::engine::RunElementwiseOperator(workspace, workspaceSize, executor, stream, kPhase2Name);
}

}  // extern "C"

// The operator's row of the table every layer above the C API reads (ops/operator_table.h).
namespace aclnn_cpu {

ACLNN_CPU_OPERATOR_ROW(smooth_l1_loss_backward) = {"smooth_l1_loss_backward", "aclnnSmoothL1LossBackward",
    "gradOut * (self - target) / beta inside |self - target| < beta, gradOut * sign(self - target) outside; "
    "divided by numel(self) for mean",
    3, {{"gradOut", "grad_output", false, ValueDomain::kGradient}, operator_rows::kSelf, operator_rows::kTarget}, 1,
    2, {operator_rows::kReduction, operator_rows::kBeta},
    ResultRule::kGradient, MeanDivisor::kSelfElements, &validation::kFloatTypesBf16FromAtlasA2, false,
    &references::SmoothL1LossGrad, "smooth_l1_loss_backward", AtenResultType::kSelf, nullptr, 0,
    [](const aclTensor* const* in, const double* p, aclTensor* out, uint64_t* size, aclOpExecutor** executor) {
        return aclnnSmoothL1LossBackwardGetWorkspaceSize(in[0], in[1], in[2], operator_rows::Int(p[0]),
                                                         operator_rows::Float(p[1]), out, size, executor);
    },
    aclnnSmoothL1LossBackward};

}  // namespace aclnn_cpu
