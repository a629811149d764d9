// aclnnSmoothL1Loss: the smooth L1 loss with threshold beta on the elementwise engine, in the order of CANN's
// op_api (ops-nn loss/smooth_l1_loss_v2/op_api/aclnn_smooth_l1_loss.cpp): self's and target's dtypes in the
// SoC's list, their promoted dtype castable to result's, the reduction, the ranks, the broadcast, result of the
// broadcast shape for none, then beta >= 0. For mean and sum CANN does not check result's shape and writes the
// 0-d value through a ViewCopy; here result must have one element.
#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_smooth_l1_loss.h"
#include "common/error_message.h"
#include "engine/elementwise_operator.h"
#include "ops/smooth_l1_loss/smooth_l1_loss.h"
#include "ops/operator_table.h"

namespace {

constexpr const char* kPhase1Name = "aclnnSmoothL1LossGetWorkspaceSize";
constexpr const char* kPhase2Name = "aclnnSmoothL1Loss";

}  // namespace

namespace aclnn_cpu::ops::smooth_l1_loss {

aclnnStatus CheckBeta(const char* api, float beta) {
    if (beta >= 0) return ACLNN_SUCCESS;
    SetErrorMessage(kAclnnParameterError, "%s: beta should be greater than or equal to 0 (it is %g).", api,
                    static_cast<double>(beta));
    return ACLNN_ERR_PARAM_INVALID;
}

}  // namespace aclnn_cpu::ops::smooth_l1_loss

extern "C" {

aclnnStatus aclnnSmoothL1LossGetWorkspaceSize(const aclTensor* self, const aclTensor* target, int64_t reduction,
                                              float beta, aclTensor* result, uint64_t* workspaceSize,
                                              aclOpExecutor** executor) {
    using namespace aclnn_cpu;
    namespace checks = validation::checks;
    return engine::GuardCBoundary(kPhase1Name, [&]() -> aclnnStatus {
        engine::ElementwiseRequest request(kPhase1Name, workspaceSize, executor);
        request.validation.inputs = {{self, "self"}, {target, "target"}};
        request.validation.out = {result, "result"};
        request.validation.out_shape = validation::OutShapeRule::kOneElement;
        request.validation.out_shape_message = "Shape of result should be %s, but current is %s.";
        request.validation.steps = {
            checks::NullTensors(),
            checks::DtypesInList({0, 1}),
            checks::PromotedCastableToOut({0, 1}),
            checks::ReductionInRange(reduction, "Reduction should be between 0 and 2, but current is %lld."),
            checks::Ranks({0, 1}),
            checks::Layouts(),
            checks::Broadcast(),
            checks::OutShape(reduction != 0),
            checks::Custom([=] { return ops::smooth_l1_loss::CheckBeta(kPhase1Name, beta); }),
            checks::OutDoesNotOverlapItself(),
        };
        request.describe = [reduction, beta](const validation::ValidatedOperation&) {
            return engine::ReducedLoss(kPhase2Name, &ops::smooth_l1_loss::ChooseLossKernel, reduction,
                                       engine::MeanRule::kTimesReciprocal,
                                       kernels::FunctorParameters::Of(ops::smooth_l1_loss::LossParametersOf(beta)));
        };
        request.nz_warning_input = 0;  // self
        return engine::PlanElementwiseOperator(request);
    });
}

aclnnStatus aclnnSmoothL1Loss(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
    return aclnn_cpu::engine::RunElementwiseOperator(workspace, workspaceSize, executor, stream, kPhase2Name);
}

}  // extern "C"

// The operator's row of the table every layer above the C API reads (ops/operator_table.h).
namespace aclnn_cpu {

ACLNN_CPU_OPERATOR_ROW(smooth_l1_loss) = {"smooth_l1_loss", "aclnnSmoothL1Loss",
    "0.5 (self - target)^2 / beta where |self - target| < beta, else |self - target| - 0.5 beta; or its mean or sum",
    2, {operator_rows::kSelf, operator_rows::kTarget}, 0,
    2, {operator_rows::kReduction, operator_rows::kBeta},
    ResultRule::kLoss, MeanDivisor::kBroadcastElements, &validation::kFloatTypesBf16FromAtlasA2, false,
    &references::SmoothL1Loss, "smooth_l1_loss", AtenResultType::kPromoted, nullptr, 0,
    [](const aclTensor* const* in, const double* p, aclTensor* out, uint64_t* size, aclOpExecutor** executor) {
        return aclnnSmoothL1LossGetWorkspaceSize(in[0], in[1], operator_rows::Int(p[0]), operator_rows::Float(p[1]),
                                                 out, size, executor);
    },
    aclnnSmoothL1Loss};

}  // namespace aclnn_cpu
