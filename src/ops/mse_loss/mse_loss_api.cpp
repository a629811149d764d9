// aclnnMseLoss: (self - target)^2 on the elementwise engine, in the order of CANN's op_api
// (ops-nn loss/mse_loss/op_api/aclnn_mse_loss.cpp): the promoted dtype and each tensor's in the SoC's list, the
// reduction, the ranks, the broadcast, out's shape (the broadcast shape for none, 0-d otherwise).
#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_mse_loss.h"
#include "engine/elementwise_operator.h"
#include "ops/mse_loss/mse_loss_checks.h"
#include "ops/mse_loss/mse_loss_kernels.h"
#include "ops/operator_table.h"

namespace {

constexpr const char* kPhase1Name = "aclnnMseLossGetWorkspaceSize";
constexpr const char* kPhase2Name = "aclnnMseLoss";

}  // namespace

extern "C" {

aclnnStatus aclnnMseLossGetWorkspaceSize(const aclTensor* self, const aclTensor* target, int64_t reduction,
                                         aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    using namespace aclnn_cpu;
    return engine::GuardCBoundary(kPhase1Name, [&]() -> aclnnStatus {
        engine::ElementwiseRequest request(kPhase1Name, workspaceSize, executor);
        request.validation.inputs = {{self, "self"}, {target, "target"}};
        request.validation.out = {out, "out"};
        request.validation.out_shape = validation::OutShapeRule::kScalar;
        request.validation.steps = ops::mse_loss::LossChecks(reduction);
        request.describe = [reduction, self, target](const validation::ValidatedOperation&) {
            // On the Ascend 950, inputs of one shape (and format ND or NCL) run the MSELossV2 kernel, whose mean
            // divides the sum by N; the others the MseLoss kernel, whose mean multiplies it by 1/N.
            const bool same_shape = self->view_dims == target->view_dims && self->format == target->format &&
                                    (self->format == ACL_FORMAT_ND || self->format == ACL_FORMAT_NCL);
            return engine::ReducedLoss(kPhase2Name, &ops::mse_loss::ChooseLossKernel, reduction,
                                       same_shape ? engine::MeanRule::kDividedByCount
                                                  : engine::MeanRule::kTimesReciprocal);
        };
        request.nz_warning_input = 0;  // self
        return engine::PlanElementwiseOperator(request);
    });
}

aclnnStatus aclnnMseLoss(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
    return aclnn_cpu::engine::RunElementwiseOperator(workspace, workspaceSize, executor, stream, kPhase2Name);
}

}  // extern "C"

// The operator's row of the table every layer above the C API reads (ops/operator_table.h).
namespace aclnn_cpu {

ACLNN_CPU_OPERATOR_ROW(mse_loss) = {"mse_loss", "aclnnMseLoss", "(self - target)^2 per element, or its mean or sum",
    2, {operator_rows::kSelf, operator_rows::kTarget}, 0,
    1, {operator_rows::kReduction},
    ResultRule::kLoss, MeanDivisor::kBroadcastElements, &validation::kFloatTypesBf16FromAtlasA2, false,
    &references::MseLoss, "mse_loss", AtenResultType::kPromoted, nullptr, 0,
    [](const aclTensor* const* in, const double* p, aclTensor* out, uint64_t* size, aclOpExecutor** executor) {
        return aclnnMseLossGetWorkspaceSize(in[0], in[1], operator_rows::Int(p[0]), out, size, executor);
    },
    aclnnMseLoss};

}  // namespace aclnn_cpu
