// aclnnMseLoss: (self - target)^2 on the elementwise engine, in the order of CANN's op_api
// (ops-nn loss/mse_loss/op_api/aclnn_mse_loss.cpp): the promoted dtype and each tensor's in the SoC's list, the
// reduction, the ranks, the broadcast, out's shape (the broadcast shape for none, 0-d otherwise).
#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_mse_loss.h"
#include "engine/elementwise_operator.h"
#include "ops/mse_loss/mse_loss_kernels.h"

namespace {

constexpr const char* kPhase1Name = "aclnnMseLossGetWorkspaceSize";
constexpr const char* kPhase2Name = "aclnnMseLoss";

}  // namespace

extern "C" {

aclnnStatus aclnnMseLossGetWorkspaceSize(const aclTensor* self, const aclTensor* target, int64_t reduction,
                                         aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    using namespace aclnn_cpu;
    namespace checks = validation::checks;
    return engine::GuardCBoundary(kPhase1Name, [&]() -> aclnnStatus {
        engine::ElementwiseRequest request(kPhase1Name, workspaceSize, executor);
        request.validation.inputs = {{self, "self"}, {target, "target"}};
        request.validation.out = {out, "out"};
        request.validation.out_shape = validation::OutShapeRule::kScalar;
        request.validation.steps = {
            checks::NullTensors(),
            checks::PromotedDtypeInList(
                {0, 1}, "Expected self dtype [%s] and target dtype [%s] to be promotable but check failed.", true),
            checks::DtypesInList({0, 1, checks::kOut}),
            checks::ReductionInRange(reduction, "Expected reduction to be between 0 and 2, but got %lld."),
            checks::Ranks({0, 1}),
            checks::Layouts(),
            checks::Broadcast(),
            checks::OutShape(reduction != 0),
            checks::OutDoesNotOverlapItself(),
        };
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
