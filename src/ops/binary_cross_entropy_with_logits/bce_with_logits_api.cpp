// aclnnBinaryCrossEntropyWithLogits on the elementwise engine, in the order of CANN's op_api (ops-nn
// loss/sigmoid_cross_entropy_with_logits_v2/op_api/aclnn_binary_cross_entropy_with_logits.cpp): self, target and
// out in the SoC's list, out's dtype target's, the reduction, the ranks, self's shape target's, the optional
// weights broadcast to it; out of self's shape for none, one element otherwise (a mean or sum of the fp32
// losses, then cast to out's dtype).
#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_binary_cross_entropy_with_logits.h"
#include "common/error_message.h"
#include "common/log.h"
#include "engine/elementwise_operator.h"
#include "ops/binary_cross_entropy_with_logits/bce_with_logits_kernels.h"
#include "validation/exact_shape_checks.h"
#include "ops/operator_table.h"

namespace {

constexpr const char* kPhase1Name = "aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize";
constexpr const char* kPhase2Name = "aclnnBinaryCrossEntropyWithLogits";

}  // namespace

extern "C" {

aclnnStatus aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize(const aclTensor* self, const aclTensor* target,
                                                              const aclTensor* weightOptional,
                                                              const aclTensor* posWeightOptional, int64_t reduction,
                                                              aclTensor* out, uint64_t* workspaceSize,
                                                              aclOpExecutor** executor) {
    using namespace aclnn_cpu;
    namespace checks = validation::checks;
    namespace bce = ops::binary_cross_entropy_with_logits;
    return engine::GuardCBoundary(kPhase1Name, [&]() -> aclnnStatus {
        engine::ElementwiseRequest request(kPhase1Name, workspaceSize, executor);
        request.validation.inputs = {{self, "self"},
                                     {target, "target"},
                                     {weightOptional, "weight", true},
                                     {posWeightOptional, "posWeight", true}};
        request.validation.out = {out, "out"};
        request.validation.out_shape = validation::OutShapeRule::kOneElement;
        // The forward's op_api tests a SocVersion range (Ascend910B to Ascend910E) for BFLOAT16: the family rule but
        // for Ascend910E and Ascend 350 (docs/compatibility.md).
        request.validation.dtypes = &validation::kHalfFirstTypesBf16FromAtlasA2;
        request.validation.steps = {
            checks::NullTensors(),
            checks::DtypesInList({0, 1, checks::kOut}),
            checks::DtypeMatches(1, checks::kOut),
            checks::Custom([=] {
                // CANN only warns here: a reduced loss is written into any one-element out.
                if (reduction != 0 && !out->view_dims.empty())
                    Log(LogLevel::kWarning, "%s: Reduction is %lld, out shape must be [1].", kPhase1Name,
                        static_cast<long long>(reduction));
                return ACLNN_SUCCESS;
            }),
            checks::ReductionInRange(reduction, "Reduction only support [0, 1, 2]."),
            checks::Ranks({0, 1, 2, 3}),
            checks::ShapesEqual(0, 1),
            // aclnn-cpu's rule where CANN's result is not documented: the weights broadcast to no larger a shape.
            checks::UnlessEmpty(1, {checks::BroadcastsToShapeOf(2, 1, 1, "weight %s broadcast with target %s gives "
                                                                         "%s; aclnn-cpu needs target's shape."),
                                    checks::BroadcastsToShapeOf(3, 1, 1, "posWeight %s broadcast with target %s "
                                                                         "gives %s; aclnn-cpu needs target's shape.")}),
            checks::Layouts(),
            checks::Broadcast(),
            checks::OutShape(reduction != 0),
            checks::OutDoesNotOverlapItself(),
        };
        const bool weighted = weightOptional != nullptr || posWeightOptional != nullptr;
        request.describe = [reduction, weighted](const validation::ValidatedOperation&) {
            return engine::ReducedLoss(kPhase2Name, weighted ? &bce::ChooseWeightedLossKernel : &bce::ChooseLossKernel,
                                       reduction, engine::MeanRule::kTimesReciprocal);
        };
        return engine::PlanElementwiseOperator(request);
    });
}

aclnnStatus aclnnBinaryCrossEntropyWithLogits(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                              const aclrtStream stream) {
    return aclnn_cpu::engine::RunElementwiseOperator(workspace, workspaceSize, executor, stream, kPhase2Name);
}

}  // extern "C"

// The operator's row of the table every layer above the C API reads (ops/operator_table.h).
namespace aclnn_cpu {

ACLNN_CPU_OPERATOR_ROW(binary_cross_entropy_with_logits) = {
    "binary_cross_entropy_with_logits", "aclnnBinaryCrossEntropyWithLogits",
    "weight * ((1 - target) * self - (1 + (posWeight - 1) * target) * log(sigmoid(self))); or its mean or sum",
    4, {operator_rows::kSelf, operator_rows::kProbabilityTarget, operator_rows::kWeightOptional,
        operator_rows::kPosWeightOptional}, 0,
    1, {operator_rows::kReduction},
    ResultRule::kLoss, MeanDivisor::kBroadcastElements, &validation::kHalfFirstTypesBf16FromAtlasA2, false,
    &references::BinaryCrossEntropyWithLogits, "binary_cross_entropy_with_logits", AtenResultType::kTarget,
    "binary_cross_entropy_with_logits_backward", 0,
    [](const aclTensor* const* in, const double* p, aclTensor* out, uint64_t* size, aclOpExecutor** executor) {
        return aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize(in[0], in[1], in[2], in[3], operator_rows::Int(p[0]),
                                                                 out, size, executor);
    },
    aclnnBinaryCrossEntropyWithLogits, 1};

}  // namespace aclnn_cpu
