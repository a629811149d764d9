// aclnnBinaryCrossEntropyBackward on the elementwise engine, in the order of CANN's op_api (ops-nn
// loss/binary_cross_entropy_grad/op_api/aclnn_binary_cross_entropy_backward.cpp): out's rank (the only one
// CANN's template checks), every dtype in the SoC's list, the storage formats, the shapes (out self's; target,
// weightOptional and gradOutput broadcast to exactly self's), the reduction. All inputs are promoted together;
// the mean multiplies by 1.0f / numel(self), after the weight.
#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_binary_cross_entropy_backward.h"
#include "engine/elementwise_operator.h"
#include "ops/binary_cross_entropy/bce_kernels.h"
#include "validation/exact_shape_checks.h"
#include "ops/operator_table.h"

namespace {

constexpr const char* kPhase1Name = "aclnnBinaryCrossEntropyBackwardGetWorkspaceSize";
constexpr const char* kPhase2Name = "aclnnBinaryCrossEntropyBackward";
// CANN's CHECK_RET(selfShape == broadcastShape) logs its condition.
constexpr const char* kShapeMismatch = "check selfShape == broadcastShape failed.";

}  // namespace

extern "C" {

aclnnStatus aclnnBinaryCrossEntropyBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                            const aclTensor* target, const aclTensor* weightOptional,
                                                            int64_t reduction, aclTensor* out, uint64_t* workspaceSize,
                                                            aclOpExecutor** executor) {
    using namespace aclnn_cpu;
    namespace checks = validation::checks;
    return engine::GuardCBoundary(kPhase1Name, [&]() -> aclnnStatus {
        engine::ElementwiseRequest request(kPhase1Name, workspaceSize, executor);
        request.validation.inputs = {
            {gradOutput, "gradOutput"}, {self, "self"}, {target, "target"}, {weightOptional, "weightOptional", true}};
        request.validation.out = {out, "out"};
        request.validation.dtypes = &validation::kHalfFirstTypesBf16FromAtlasA2;
        request.validation.steps = {
            checks::NullTensors(),
            checks::Ranks({checks::kOut}),  // CANN's template skips its const arguments
            checks::DtypesInList({1, 0, 2, checks::kOut, 3}),
            checks::StorageFormatsEqual(1, 2),
            checks::StorageFormatsEqual(1, 3),
            checks::Layouts(),
            checks::UnlessEmpty(1, {checks::ShapesEqual(checks::kOut, 1),
                                    checks::BroadcastsToShapeOf(1, 2, 1, kShapeMismatch),
                                    checks::BroadcastsToShapeOf(1, 3, 1, kShapeMismatch),
                                    checks::BroadcastsToShapeOf(1, 0, 1, kShapeMismatch)}),
            checks::ReductionInRange(reduction, "Reduction should be between 0 and 2, but current is %lld"),
            checks::Broadcast(),
            checks::OutShape(false),
            checks::OutDoesNotOverlapItself(),
        };
        request.describe = [reduction, self](const validation::ValidatedOperation&) {
            engine::ElementwiseDescription description;
            description.phase2_name = kPhase2Name;
            description.choose_kernel = &ops::binary_cross_entropy::ChooseGradientKernel;
            // CANN's tiling: 1.0f / (float)numel(out), out of self's shape.
            const int64_t count = engine::ViewElementCount(*self);
            description.parameters = kernels::FunctorParameters::Of(
                kernels::ScaleParameters{reduction == 1 && count > 0 ? 1.0f / static_cast<float>(count) : 1.0f});
            return description;
        };
        return engine::PlanElementwiseOperator(request);
    });
}

aclnnStatus aclnnBinaryCrossEntropyBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                            const aclrtStream stream) {
    return aclnn_cpu::engine::RunElementwiseOperator(workspace, workspaceSize, executor, stream, kPhase2Name);
}

}  // extern "C"

// The operator's row of the table every layer above the C API reads (ops/operator_table.h).
namespace aclnn_cpu {

ACLNN_CPU_OPERATOR_ROW(binary_cross_entropy_backward) = {
    "binary_cross_entropy_backward", "aclnnBinaryCrossEntropyBackward",
    "gradOutput * (self - target) / max((1 - self) * self, 1e-12) * weight, times 1/numel(self) for mean",
    4, {operator_rows::kGradOutputToSelf, {"self", "self", false, ValueDomain::kProbability},
        {"target", "target", false, ValueDomain::kProbability, InputShape::kToSelf},
        operator_rows::kWeightOptional}, 1,
    1, {operator_rows::kReduction},
    ResultRule::kGradient, MeanDivisor::kSelfElements, &validation::kHalfFirstTypesBf16FromAtlasA2, false,
    &references::BinaryCrossEntropyGrad, "binary_cross_entropy_backward", AtenResultType::kOneDtype, nullptr, 0,
    [](const aclTensor* const* in, const double* p, aclTensor* out, uint64_t* size, aclOpExecutor** executor) {
        return aclnnBinaryCrossEntropyBackwardGetWorkspaceSize(in[0], in[1], in[2], in[3], operator_rows::Int(p[0]),
                                                               out, size, executor);
    },
    aclnnBinaryCrossEntropyBackward};

}  // namespace aclnn_cpu
