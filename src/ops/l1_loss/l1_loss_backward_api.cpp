// aclnnL1LossBackward: sign(self - target) * (gradOutput * norm) on the elementwise engine, norm 1, or for mean
// 1.0f divided in fp32 by each dim of the broadcast shape in turn (CANN's tiling: not always the same bits as
// 1/N). In the order of CANN's op_api (ops-nn loss/l1_loss_grad/op_api/aclnn_l1_loss_backward.cpp): the
// reduction, the promoted dtype castable to gradInput's and in the SoC's list, the ranks, the broadcast (self with
// gradOutput, then target), gradInput of the broadcast shape.
#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_l1_loss_backward.h"
#include "engine/elementwise_operator.h"
#include "ops/l1_loss/l1_loss_kernels.h"
#include "ops/operator_table.h"

namespace {

constexpr const char* kPhase1Name = "aclnnL1LossBackwardGetWorkspaceSize";
constexpr const char* kPhase2Name = "aclnnL1LossBackward";

}  // namespace

extern "C" {

aclnnStatus aclnnL1LossBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                const aclTensor* target, int64_t reduction, aclTensor* gradInput,
                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
    using namespace aclnn_cpu;
    namespace checks = validation::checks;
    return engine::GuardCBoundary(kPhase1Name, [&]() -> aclnnStatus {
        engine::ElementwiseRequest request(kPhase1Name, workspaceSize, executor);
        request.validation.inputs = {{gradOutput, "gradOutput"}, {self, "self"}, {target, "target"}};
        request.validation.out = {gradInput, "gradInput"};
        request.validation.out_shape_message = "Shape of out should be %s, but current is %s.";
        request.validation.broadcast_order = {1, 0, 2};  // self with gradOutput, then target
        request.validation.steps = {
            checks::NullTensors(),
            checks::ReductionInRange(reduction, "Expected reduction to be 0 or 1 or 2, but got %lld."),
            checks::PromotedCastableToOut({0, 1, 2}),
            checks::PromotedDtypeInList({0, 1, 2}, "promoteType dtype %s should be in dtype support list [%s]."),
            checks::Ranks({1, 2, 0, checks::kOut}),
            checks::Layouts(),
            checks::Broadcast(),
            checks::OutShape(false),
            checks::OutDoesNotOverlapItself(),
        };
        request.describe = [reduction](const validation::ValidatedOperation& validated) {
            engine::ElementwiseDescription description;
            description.phase2_name = kPhase2Name;
            description.choose_kernel = &ops::l1_loss::ChooseGradientKernel;
            if (reduction == 1) {
                float norm = 1.0f;
                for (int64_t dim : validated.broadcast_shape) norm = norm / static_cast<float>(dim);
                description.input_scale = norm;
            }
            return description;
        };
        request.nz_warning_input = 0;  // gradOutput
        return engine::PlanElementwiseOperator(request);
    });
}

aclnnStatus aclnnL1LossBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                aclrtStream stream) {
    return aclnn_cpu::engine::RunElementwiseOperator(workspace, workspaceSize, executor, stream, kPhase2Name);
}

}  // extern "C"

// The operator's row of the table every layer above the C API reads (ops/operator_table.h).
namespace aclnn_cpu {

ACLNN_CPU_OPERATOR_ROW(l1_loss_backward) = {
    "l1_loss_backward", "aclnnL1LossBackward",
    "sign(self - target) * gradOutput, divided by N for mean",
    3, {operator_rows::kGradOutput, operator_rows::kSelf, operator_rows::kTarget}, 1,
    1, {operator_rows::kReduction},
    ResultRule::kGradient, MeanDivisor::kBroadcastElements, &validation::kFloatTypesBf16FromAtlasA2, false,
    &references::L1LossGrad, nullptr, AtenResultType::kSelf, nullptr, 0,
    [](const aclTensor* const* in, const double* p, aclTensor* out, uint64_t* size, aclOpExecutor** executor) {
        return aclnnL1LossBackwardGetWorkspaceSize(in[0], in[1], in[2], operator_rows::Int(p[0]), out, size,
                                                   executor);
    },
    aclnnL1LossBackward};

}  // namespace aclnn_cpu
