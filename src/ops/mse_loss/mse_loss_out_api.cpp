// aclnnMseLossOut: (self - target)^2, for mean and sum reduced over the first dim of the broadcast shape only (CANN's
// op_api runs MseLoss with reduction none, then ReduceMean or ReduceSum over dim 0: ops-nn
// loss/mse_loss/op_api/aclnn_mse_loss_out.cpp). Its checks are aclnnMseLoss's, with out of the broadcast shape
// without its first dim for mean and sum. An empty input writes nothing, whatever the reduction (CANN returns
// before any fill).
#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_mse_loss_out.h"
#include "engine/elementwise_operator.h"
#include "ops/mse_loss/mse_loss_checks.h"
#include "ops/mse_loss/mse_loss_kernels.h"
#include "ops/operator_table.h"

namespace {

constexpr const char* kPhase1Name = "aclnnMseLossOutGetWorkspaceSize";
constexpr const char* kPhase2Name = "aclnnMseLossOut";

}  // namespace

extern "C" {

aclnnStatus aclnnMseLossOutGetWorkspaceSize(const aclTensor* self, const aclTensor* target, int64_t reduction,
                                            aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    using namespace aclnn_cpu;
    return engine::GuardCBoundary(kPhase1Name, [&]() -> aclnnStatus {
        engine::ElementwiseRequest request(kPhase1Name, workspaceSize, executor);
        request.validation.inputs = {{self, "self"}, {target, "target"}};
        request.validation.out = {out, "out"};
        request.validation.out_shape = validation::OutShapeRule::kBroadcastWithoutFirstDim;
        request.validation.steps = ops::mse_loss::LossChecks(reduction);
        request.describe = [reduction](const validation::ValidatedOperation&) {
            engine::ElementwiseDescription description;
            description.phase2_name = kPhase2Name;
            description.choose_kernel = &ops::mse_loss::ChooseLossKernel;
            description.sum_back = reduction != 0;
            description.choose_column_sum_kernel = &ops::mse_loss::ChooseLossColumnSumKernel;
            // ReduceMean's meanVar: 1/N0 in double, rounded to fp32.
            description.mean = reduction == 1 ? engine::MeanRule::kTimesReciprocal : engine::MeanRule::kNone;
            return description;
        };
        return engine::PlanElementwiseOperator(request);
    });
}

aclnnStatus aclnnMseLossOut(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
    return aclnn_cpu::engine::RunElementwiseOperator(workspace, workspaceSize, executor, stream, kPhase2Name);
}

}  // extern "C"

// The operator's row of the table every layer above the C API reads (ops/operator_table.h).
namespace aclnn_cpu {

ACLNN_CPU_OPERATOR_ROW(mse_loss_out) = {
    "mse_loss_out", "aclnnMseLossOut",
    "(self - target)^2 per element, or its mean or sum over the first dim",
    2, {operator_rows::kSelf, operator_rows::kTarget}, 0,
    1, {operator_rows::kReduction},
    ResultRule::kLossOverFirstDim, MeanDivisor::kBroadcastElements, &validation::kFloatTypesBf16FromAtlasA2, false,
    &references::MseLoss, nullptr, AtenResultType::kPromoted, nullptr, 0,
    [](const aclTensor* const* in, const double* p, aclTensor* out, uint64_t* size, aclOpExecutor** executor) {
        return aclnnMseLossOutGetWorkspaceSize(in[0], in[1], operator_rows::Int(p[0]), out, size, executor);
    },
    aclnnMseLossOut};

}  // namespace aclnn_cpu
