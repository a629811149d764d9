// The NLL losses, whole: aclnnNLLLoss, aclnnNLLLoss2d and their gradients aclnnNLLLossBackward and
// aclnnNLLLoss2dBackward, each phase 1 with its op_api's checks in order (ops-nn loss/nll_loss and
// loss/nll_loss_grad), the arithmetic per SoC (nll_loss_plan.h), and their rows of the operator table.
#include <cstdio>
#include <functional>
#include <string>

#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_nll_loss.h"
#include "aclnnop/aclnn_nll_loss2d.h"
#include "aclnnop/aclnn_nll_loss2d_backward.h"
#include "aclnnop/aclnn_nll_loss_backward.h"
#include "common/log.h"
#include "engine/elementwise_operator.h"
#include "ops/nll_loss/nll_loss_plan.h"
#include "ops/operator_request.h"
#include "validation/exact_shape_checks.h"

namespace aclnn_cpu {

ACLNN_CPU_OPERATOR_ROW(nll_loss) =
    OperatorDescription(ACLNN_CPU_C_API_WITH_OUTPUTS(aclnnNLLLoss, 2), "nll_loss",
                        "-weight[t] * self[n, t] for t = target[n], t != ignoreIndex; mean divides by the weights")
        .Inputs({operator_rows::kSelf, operator_rows::kClassTarget, operator_rows::kClassWeight}, 0)
        .Outs("out", {{"totalWeightOut", OutputShape::kOneElement}})
        .Parameters({operator_rows::kReduction, operator_rows::kIgnoreIndex})
        .Result(ResultRule::kLossPerSample)
        .Dtypes(&validation::kFloatTypesBf16FromAtlasA2)
        .ByClassIndex(1, 2)
        .Aten("nll_loss_forward", AtenResultType::kSelf);

ACLNN_CPU_OPERATOR_ROW(nll_loss2d) =
    OperatorDescription(ACLNN_CPU_C_API_WITH_OUTPUTS(aclnnNLLLoss2d, 2), "nll_loss2d",
                        "-weight[t] * self[n, t, h, w] for t = target[n, h, w], t != ignoreIndex")
        .Inputs({operator_rows::kSelf, operator_rows::kClassTarget, operator_rows::kClassWeight}, 0)
        .Outs("out", {{"totalWeightOut", OutputShape::kOneElement}})
        .Parameters({operator_rows::kReduction, operator_rows::kIgnoreIndex})
        .Result(ResultRule::kLossPerSample)
        .Dtypes(&validation::kFloatTypesBf16FromAtlasA2)
        .ByClassIndex(4, 4)
        .Aten("nll_loss2d_forward", AtenResultType::kSelf);

ACLNN_CPU_OPERATOR_ROW(nll_loss_backward) =
    OperatorDescription(ACLNN_CPU_C_API(aclnnNLLLossBackward), "nll_loss_backward",
                        "-weight[t] * gradOutput (/ totalWeight for mean) at [n, t] for t = target[n], else 0")
        .Inputs({operator_rows::kGradOutputOfLoss, operator_rows::kSelf, operator_rows::kClassTarget,
                 operator_rows::kClassWeight, operator_rows::kTotalWeight},
                1)
        .Parameters({operator_rows::kReduction, operator_rows::kIgnoreIndex})
        .Result(ResultRule::kGradient)
        .Dtypes(&validation::kFloatTypesBf16FromAtlasA2)
        .ByClassIndex(1, 2)
        .Aten("nll_loss_backward", AtenResultType::kSelf);

ACLNN_CPU_OPERATOR_ROW(nll_loss2d_backward) =
    OperatorDescription(ACLNN_CPU_C_API(aclnnNLLLoss2dBackward), "nll_loss2d_backward",
                        "-weight[t] * gradOutput (/ totalWeight for mean) at [n, t, h, w] for t = target[n, h, w]")
        .Inputs({operator_rows::kGradOutputOfLoss, operator_rows::kSelf, operator_rows::kClassTarget,
                 operator_rows::kClassWeight, operator_rows::kTotalWeight},
                1)
        .Parameters({operator_rows::kReduction, operator_rows::kIgnoreIndex})
        .Result(ResultRule::kGradient)
        .Dtypes(&validation::kFloatTypesBf16FromAtlasA2, true)
        .ByClassIndex(4, 4)
        .Aten("nll_loss2d_backward", AtenResultType::kSelf);

}  // namespace aclnn_cpu

namespace {

using namespace aclnn_cpu;
using ops::nll_loss::Direction;
using ops::nll_loss::NllDescription;
using validation::BroadcastOperation;
using validation::CannShapeString;
using validation::CheckStep;
namespace checks = validation::checks;
namespace nll = ops::nll_loss;
constexpr int kOut = checks::kOut;

using Dims = std::vector<int64_t>;

const Dims& DimsOf(const BroadcastOperation& op, int index) {
    return (index == kOut ? op.out : op.inputs[static_cast<size_t>(index)]).tensor->view_dims;
}

std::string Format(const char* format, long long a) {
    char text[256];
    std::snprintf(text, sizeof text, format, a);
    return text;
}

// CANN's kernel dtype: Ascend 950 computes self's dtype; the older chips FLOAT (FLOAT16 promoted), BFLOAT16 kept.
int32_t KernelType(int32_t self_type) {
    if (validation::OnRegisterBasedChip()) return self_type;
    return self_type == ACL_BF16 ? ACL_BF16 : ACL_FLOAT;
}

// The validation of a call: tensors named as CANN's op_api names them, in the order `names` gives.
BroadcastOperation Operation(const OperatorDescription& row, std::initializer_list<const aclTensor*> inputs,
                             std::initializer_list<const char*> names, const aclTensor* out,
                             uint64_t* workspace_size, aclOpExecutor** executor) {
    BroadcastOperation op;
    op.api = row.phase1_name;
    op.workspace_size = workspace_size;
    op.executor = executor;
    auto name = names.begin();
    for (const aclTensor* tensor : inputs) op.inputs.push_back({tensor, *name++});
    op.out = {out, row.out_name};
    op.dtypes = row.dtypes;
    op.reads_double = true;  // out may be DOUBLE (any floating type self casts to)
    return op;
}

// Validates, then plans the call as `describe` says (operands by role: `roles` gives each validated tensor's),
// and hands out the executor.
aclnnStatus Plan(const BroadcastOperation& op, const std::vector<int>& roles,
                 const std::function<NllDescription()>& describe, const std::vector<aclTensor*>& more_outputs) {
    validation::ValidatedOperation validated;
    aclnnStatus status = validation::ValidateBroadcastOperation(op, &validated);
    if (status != ACLNN_SUCCESS) return status;
    const NllDescription description = describe();
    const int self = description.direction == Direction::kForward ? 0 : 1;
    if (op.inputs[static_cast<size_t>(self)].tensor->format == ACL_FORMAT_FRACTAL_NZ)
        Log(LogLevel::kWarning, "%s: self has format FRACTAL_NZ, which may reduce precision; it is read as ND.",
            op.api);
    std::array<engine::PlanOperand, nll::kOperands> operands{};
    std::vector<aclTensor*> inputs;
    for (size_t i = 0; i < validated.present.size(); ++i) {
        const validation::NamedTensor* t = validated.present[i];
        operands[static_cast<size_t>(roles[i])] = {t->tensor, t->name, validated.extents[i]};
        if (roles[i] != nll::kOut && roles[i] != nll::kTotalWeightOut)
            inputs.push_back(const_cast<aclTensor*>(t->tensor));
    }
    auto plan = std::make_shared<nll::NllPlan>(description, operands);
    status = plan->CheckAddresses(op.api);
    if (status != ACLNN_SUCCESS) return status;
    return engine::HandOutExecutor(op, plan, std::move(inputs), description.phase2_name, more_outputs);
}

// ---- aclnnNLLLoss and aclnnNLLLoss2d: inputs 0 self, 1 target, 2 weight, 3 totalWeightOut; out. ----------------

constexpr int kSelfF = 0, kTargetF = 1, kWeightF = 2, kTotalWeightOutF = 3;

// aclnnNLLLoss's shapes: self [C] with target [], or self [N, C] with target [N]; weight [C]; out [N] for none
// over [N, C], else one element of rank <= 1; totalWeightOut one element.
CheckStep NllLossShapes(int64_t reduction) {
    return checks::Rule([reduction](const BroadcastOperation& op) -> std::string {
        const Dims& self = DimsOf(op, kSelfF);
        const Dims& target = DimsOf(op, kTargetF);
        if (self.empty() || self.size() > 2) return "Input tensor should be 1D or 2D.";
        if (target.size() > 1) return "0D or 1D target tensor expected, multi-target not supported.";
        const bool no_batch = self.size() == 1 && target.empty();
        const bool batch = self.size() == 2 && target.size() == 1 && self[0] == target[0];
        if (!no_batch && !batch)
            return "when self is 1D, target need be 0D; when self is 2D, target need be 1D, and target first "
                   "dimension need equal to self first dimension, but (got self: " +
                   CannShapeString(self) + ", target: " + CannShapeString(target) + ")";
        const int64_t classes = self.back();
        const Dims& weight = DimsOf(op, kWeightF);
        if (weight.size() != 1 || weight[0] != classes)
            return Format("Weight tensor should be defined for all %lld classes but got weight tensor of shape: ",
                          classes) + CannShapeString(weight);
        const Dims& out = DimsOf(op, kOut);
        if (reduction == 0 && self.size() == 2) {
            if (out.size() != 1 || out[0] != self[0])
                return Format("Expect out shape [%lld], but got: ", self[0]) + CannShapeString(out) + ".";
        } else if (out.size() > 1 || engine::ElementCount(out) != 1) {
            return "Expected a single element out tensor, but got: " + CannShapeString(out);
        }
        const Dims& total_weight = DimsOf(op, kTotalWeightOutF);
        if (engine::ElementCount(total_weight) != 1)
            return "Shape of totalWeightOut tensor should be [1], but current is " + CannShapeString(total_weight) + ".";
        if (engine::ElementCount(self) == 0 && classes == 0 && engine::ElementCount(target) > 0)
            return "Target is out of bounds";
        return "";
    });
}

// aclnnNLLLoss2d's shapes: self [N, C, H, W], weight's first dim C, target [N, H, W]; out target's shape for none,
// else one element; totalWeightOut one element.
CheckStep NllLoss2dShapes(int64_t reduction) {
    return checks::Rule([reduction](const BroadcastOperation& op) -> std::string {
        const Dims& self = DimsOf(op, kSelfF);
        if (self.size() != 4) return "Input tensor dim should be 4D, other dim not supported.";
        const Dims& weight = DimsOf(op, kWeightF);
        if (weight.empty() || weight[0] != self[1]) return "Input tensor x[1] should be equal to weight[0].";
        const Dims& target = DimsOf(op, kTargetF);
        if (target.size() != 3) return "target tensor dim should be 3D, other dim not supported.";
        if (target[0] != self[0] || target[1] != self[2] || target[2] != self[3])
            return "size mismatch got input: [" + CannShapeString(self) + "], target: [" + CannShapeString(target) +
                   "].";
        const Dims& out = DimsOf(op, kOut);
        if (reduction == 0 && out != target)
            return "Expected tensor for out to have same size as tensor for target, but " + CannShapeString(out) +
                   " does not equal " + CannShapeString(target) + ".";
        if (reduction != 0 && engine::ElementCount(out) != 1)
            return "Shape of out tensor should be [1], but current is " + CannShapeString(out) + ".";
        const Dims& total_weight = DimsOf(op, kTotalWeightOutF);
        if (engine::ElementCount(total_weight) != 1)
            return "Shape of totalWeightOut tensor should be [1], but current is " + CannShapeString(total_weight) + ".";
        return "";
    });
}

NllDescription ForwardDescription(const OperatorDescription& row, const aclTensor* self, int64_t reduction,
                                  int64_t ignore_index) {
    NllDescription description;
    description.phase2_name = row.api_name;
    description.direction = Direction::kForward;
    description.reduction = reduction;
    description.ignore_index = ignore_index;
    description.kernel_type = KernelType(self->data_type);
    description.one_sample_kernel = validation::OnRegisterBasedChip() && self->view_dims.size() == 1;
    return description;
}

const std::vector<int> kForwardRoles = {nll::kSelf, nll::kTarget, nll::kWeight, nll::kTotalWeightOut, nll::kOut};

// The checks both forwards end with: aclnn-cpu's layouts and a self-overlapping out, then the iteration's shape.
void AddEngineSteps(std::vector<CheckStep>* steps, int shape_of) {
    steps->push_back(checks::Layouts());
    steps->push_back(checks::OutDoesNotOverlapItself());
    steps->push_back(checks::ShapesTiedByOperator(shape_of));
}

// ---- the gradients: inputs 0 gradOutput, 1 self, 2 target, 3 weight, 4 totalWeight; out. ---------------------

constexpr int kGradB = 0, kSelfB = 1, kTargetB = 2, kWeightB = 3, kTotalWeightB = 4;

CheckStep NllLossBackwardShapes(int64_t reduction) {
    return checks::Rule([reduction](const BroadcastOperation& op) -> std::string {
        const Dims& self = DimsOf(op, kSelfB);
        const Dims& target = DimsOf(op, kTargetB);
        if (self.empty() || self.size() > 2) return "Input tensor should be 1D or 2D.";
        if (target.size() > 1) return "0D or 1D target tensor expected, multi-target not supported.";
        // (Looser than the forward: self [C] with target [C] passes.)
        if (!(self.size() == 1 && target.empty()) && !(!target.empty() && self[0] == target[0]))
            return "Size mismatch (got input: " + CannShapeString(self) + ", target: " + CannShapeString(target) + ") ";
        const int64_t classes = self.back();
        const Dims& weight = DimsOf(op, kWeightB);
        if (weight.size() != 1 || weight[0] != classes)
            return Format("Weight tensor should be defined for all %lld classes but got weight tensor of shape: ",
                          classes) + CannShapeString(weight);
        const Dims& total_weight = DimsOf(op, kTotalWeightB);
        if (engine::ElementCount(total_weight) != 1)
            return "Expected totalWeight to be a single element tensor, but current is " +
                   CannShapeString(total_weight) + ".";
        const Dims& grad = DimsOf(op, kGradB);
        if (reduction == 0 && self.size() == 2) {
            if (grad.size() != 1 || grad[0] != self[0])
                return Format("Expect gradOutput shape [%lld], but got: ", self[0]) + CannShapeString(grad) + ".";
        } else if (grad.size() > 1 || engine::ElementCount(grad) != 1) {
            return "Expected a single element grad_output tensor, but got: " + CannShapeString(grad);
        }
        return "";
    });
}

CheckStep NllLoss2dBackwardShapes(int64_t reduction) {
    return checks::Rule([reduction](const BroadcastOperation& op) -> std::string {
        const Dims& grad = DimsOf(op, kGradB);
        const Dims& target = DimsOf(op, kTargetB);
        if (reduction == 0 && grad != target)
            return "Size mismatch (got gradOutput: " + CannShapeString(grad) + ", target: " + CannShapeString(target) +
                   ") ";
        if (reduction != 0 && (grad.size() > 1 || engine::ElementCount(grad) != 1))
            return "Expected a single element grad_output tensor, but got: " + CannShapeString(grad);
        const Dims& self = DimsOf(op, kSelfB);
        if (self.size() != 4) return "Input tensor should be 4D.";
        if (target.size() != 3) return "target tensor should be 3D.";
        if (target[0] != self[0] || target[1] != self[2] || target[2] != self[3])
            return "Size mismatch (got input: " + CannShapeString(self) + ", target: " + CannShapeString(target) + ") ";
        const Dims& weight = DimsOf(op, kWeightB);
        if (engine::ElementCount(weight) != self[1])
            return Format("Weight tensor should be defined for all %lld classes but got weight tensor of shape: ",
                          self[1]) + CannShapeString(weight);
        const Dims& out = DimsOf(op, kOut);
        if (out != self)
            return "Shape of Out tensor should be " + CannShapeString(self) + ", but current is " +
                   CannShapeString(out) + ".";
        const Dims& total_weight = DimsOf(op, kTotalWeightB);
        if (engine::ElementCount(total_weight) != 1)
            return "Shape of totalWeight tensor should be [1], but current is " + CannShapeString(total_weight) + ".";
        return "";
    });
}

NllDescription BackwardDescription(const OperatorDescription& row, const aclTensor* self, int64_t reduction,
                                   int64_t ignore_index) {
    NllDescription description;
    description.phase2_name = row.api_name;
    description.direction = Direction::kBackward;
    description.reduction = reduction;
    description.ignore_index = ignore_index;
    description.kernel_type = KernelType(self->data_type);
    description.target_as_int32 = !validation::OnRegisterBasedChip();
    return description;
}

const std::vector<int> kBackwardRoles = {nll::kGradOutput, nll::kSelf, nll::kTarget, nll::kWeight,
                                         nll::kTotalWeight, nll::kOut};

const char kReductionMessage[] = "Reduction should be between 0 and 2, but current is %lld.";

}  // namespace

extern "C" {

aclnnStatus aclnnNLLLossGetWorkspaceSize(const aclTensor* self, const aclTensor* target, const aclTensor* weight,
                                         int64_t reduction, int64_t ignoreIndex, aclTensor* out,
                                         aclTensor* totalWeightOut, uint64_t* workspaceSize,
                                         aclOpExecutor** executor) {
    const OperatorDescription& row = kOperatorRow_nll_loss;
    return engine::GuardCBoundary(row.phase1_name, [&]() -> aclnnStatus {
        BroadcastOperation op = Operation(row, {self, target, weight, totalWeightOut},
                                          {"self", "target", "weight", "lossTotalWeightOut"}, out, workspaceSize,
                                          executor);
        op.steps = {checks::NullTensors({kSelfF, kTargetF, kWeightF, kOut, kTotalWeightOutF}),
                    checks::DtypeMatches(kWeightF, kSelfF),
                    checks::PromotedCastableToOut({kSelfF}),
                    checks::PromotedCastableToOut({kSelfF}, kTotalWeightOutF),
                    checks::DtypesInList({kSelfF}),
                    checks::DtypesInList({kTargetF}, &validation::kClassIndexTypes),
                    checks::ReductionInRange(reduction, kReductionMessage),
                    NllLossShapes(reduction)};
        AddEngineSteps(&op.steps, kTargetF);
        return Plan(op, kForwardRoles, [&] { return ForwardDescription(row, self, reduction, ignoreIndex); },
                    {totalWeightOut});
    });
}

aclnnStatus aclnnNLLLoss(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
    return ops::Run(kOperatorRow_nll_loss, workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnNLLLoss2dGetWorkspaceSize(const aclTensor* self, const aclTensor* target, const aclTensor* weight,
                                           int64_t reduction, int64_t ignoreIndex, aclTensor* out,
                                           aclTensor* totalWeightOut, uint64_t* workspaceSize,
                                           aclOpExecutor** executor) {
    const OperatorDescription& row = kOperatorRow_nll_loss2d;
    return engine::GuardCBoundary(row.phase1_name, [&]() -> aclnnStatus {
        BroadcastOperation op = Operation(row, {self, target, weight, totalWeightOut},
                                          {"self", "target", "weight", "totalWeightOut"}, out, workspaceSize,
                                          executor);
        // The list first, then self against weight (the other way round from aclnnNLLLoss); the reduction's
        // message has brackets.
        op.steps = {checks::NullTensors({kSelfF, kTargetF, kWeightF, kOut, kTotalWeightOutF}),
                    checks::DtypesInList({kSelfF}),
                    checks::DtypeMatches(kSelfF, kWeightF),
                    checks::PromotedCastableToOut({kSelfF}),
                    checks::PromotedCastableToOut({kSelfF}, kTotalWeightOutF),
                    checks::DtypesInList({kTargetF}, &validation::kClassIndexTypes),
                    checks::ReductionInRange(reduction, "Reduction should be between 0 and 2, but current is [%lld]."),
                    NllLoss2dShapes(reduction)};
        AddEngineSteps(&op.steps, kTargetF);
        const auto describe = [&] {
            NllDescription description = ForwardDescription(row, self, reduction, ignoreIndex);
            description.one_sample_kernel = false;  // 4-D only
            // CANN's empty-tensor path also takes a weight of no elements (only its first dim is checked).
            description.empty = engine::ViewElementCount(*weight) == 0;
            return description;
        };
        return Plan(op, kForwardRoles, describe, {totalWeightOut});
    });
}

aclnnStatus aclnnNLLLoss2d(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
    return ops::Run(kOperatorRow_nll_loss2d, workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnNLLLossBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                 const aclTensor* target, const aclTensor* weight, int64_t reduction,
                                                 int64_t ignoreIndex, const aclTensor* totalWeight, aclTensor* out,
                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
    const OperatorDescription& row = kOperatorRow_nll_loss_backward;
    return engine::GuardCBoundary(row.phase1_name, [&]() -> aclnnStatus {
        BroadcastOperation op = Operation(row, {gradOutput, self, target, weight, totalWeight},
                                          {"gradOutput", "self", "target", "weight", "totalWeight"}, out,
                                          workspaceSize, executor);
        op.steps = {checks::NullTensors({kGradB, kSelfB, kTargetB, kWeightB, kTotalWeightB, kOut}),
                    checks::DtypeMatches(kWeightB, kSelfB),
                    checks::DtypeMatches(kGradB, kSelfB),
                    checks::DtypeMatches(kTotalWeightB, kSelfB),
                    checks::PromotedCastableToOut({kSelfB}),
                    checks::DtypesInList({kSelfB}),
                    checks::DtypesInList({kTargetB}, &validation::kClassIndexTypes),
                    checks::ReductionInRange(reduction, kReductionMessage),
                    NllLossBackwardShapes(reduction),
                    checks::ShapesEqual(kSelfB, kOut)};
        AddEngineSteps(&op.steps, kSelfB);
        return Plan(op, kBackwardRoles, [&] { return BackwardDescription(row, self, reduction, ignoreIndex); }, {});
    });
}

aclnnStatus aclnnNLLLossBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                 aclrtStream stream) {
    return ops::Run(kOperatorRow_nll_loss_backward, workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnNLLLoss2dBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                   const aclTensor* target, const aclTensor* weight,
                                                   int64_t reduction, int64_t ignoreIndex, aclTensor* totalWeight,
                                                   aclTensor* out, uint64_t* workspaceSize,
                                                   aclOpExecutor** executor) {
    const OperatorDescription& row = kOperatorRow_nll_loss2d_backward;
    return engine::GuardCBoundary(row.phase1_name, [&]() -> aclnnStatus {
        BroadcastOperation op = Operation(row, {gradOutput, self, target, weight, totalWeight},
                                          {"gradOutput", "self", "target", "weight", "totalWeight"}, out,
                                          workspaceSize, executor);
        // Every dtype must be self's, each message naming self; the shapes come before the reduction.
        op.steps = {checks::NullTensors({kGradB, kSelfB, kTargetB, kWeightB, kOut, kTotalWeightB}),
                    checks::DtypesInList({kSelfB}),
                    checks::DtypeMatches(kSelfB, kGradB),
                    checks::DtypeMatches(kSelfB, kWeightB),
                    checks::DtypeMatches(kSelfB, kOut),
                    checks::DtypeMatches(kSelfB, kTotalWeightB),
                    checks::DtypesInList({kTargetB}, &validation::kClassIndexTypes),
                    NllLoss2dBackwardShapes(reduction),
                    checks::ReductionInRange(reduction, kReductionMessage)};
        AddEngineSteps(&op.steps, kSelfB);
        return Plan(op, kBackwardRoles, [&] { return BackwardDescription(row, self, reduction, ignoreIndex); }, {});
    });
}

aclnnStatus aclnnNLLLoss2dBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                   aclrtStream stream) {
    return ops::Run(kOperatorRow_nll_loss2d_backward, workspace, workspaceSize, executor, stream);
}

}  // extern "C"
