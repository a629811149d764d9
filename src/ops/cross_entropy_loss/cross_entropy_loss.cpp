// aclnnCrossEntropyLoss and aclnnCrossEntropyLossGrad, whole: their row kernels (cross_entropy_rows-inl.h)
// compiled once per SIMD target, each phase 1 with CANN's checks in order (the generated op_api's null and dtype
// checks, then its tiling's, per SoC), the arithmetic per SoC (cross_entropy_plan.h), and their rows of the
// operator table.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/cross_entropy_loss/cross_entropy_loss.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "hwy/highway.h"
#include "ops/cross_entropy_loss/cross_entropy_plan.h"
#include "ops/cross_entropy_loss/cross_entropy_rows-inl.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::ops::cross_entropy::HWY_NAMESPACE {

RowKernels ChooseRowKernels() {
    return {&LogProbRow, &SmoothingSum, &ScaledExpRow, &AddSmoothingRow};
}

}  // namespace aclnn_cpu::ops::cross_entropy::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <string>

#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_cross_entropy_loss.h"
#include "aclnnop/aclnn_cross_entropy_loss_grad.h"
#include "common/error_message.h"
#include "engine/elementwise_operator.h"
#include "ops/operator_request.h"
#include "validation/exact_shape_checks.h"

namespace aclnn_cpu::ops::cross_entropy {
HWY_EXPORT(ChooseRowKernels);

// The row kernels of the best SIMD target this CPU runs.
RowKernels DispatchedRowKernels() { return HWY_DYNAMIC_DISPATCH(ChooseRowKernels)(); }
}  // namespace aclnn_cpu::ops::cross_entropy

namespace aclnn_cpu {
namespace operator_rows {

// The logits and the forward's logProb, given to the gradient.
constexpr InputDescription kLogits = {"input", "self", false, ValueDomain::kReal};
constexpr InputDescription kLogProb = {"logProb", "log_prob", false, ValueDomain::kReal};
constexpr InputDescription kClassWeightOptional = {"weightOptional", "weight", true, ValueDomain::kWeight,
                                                   InputShape::kPerClass};
constexpr InputDescription kGradLoss = {"gradLoss", "grad_output", false, ValueDomain::kGradient,
                                        InputShape::kPerSample};
// The z-loss inputs of the gradient: CANN's kernels do not read them.
constexpr InputDescription kGradZloss = {"gradZlossOptional", nullptr, true, ValueDomain::kGradient,
                                         InputShape::kPerSample, false};
constexpr InputDescription kLseForZloss = {"lseForZlossOptional", nullptr, true, ValueDomain::kReal,
                                           InputShape::kPerSample, false};
constexpr ParameterDescription kLabelSmoothing = {"labelSmoothing", "label_smoothing", ParameterType::kDouble, 0, 0,
                                                  1};
constexpr ParameterDescription kLseSquareScale = {"lseSquareScaleForZloss", nullptr, ParameterType::kDouble, 0,
                                                  -kInfinity, kInfinity};
constexpr ParameterDescription kReturnZloss = {"returnZloss", nullptr, ParameterType::kBool, 0, 0, 1};

}  // namespace operator_rows

ACLNN_CPU_OPERATOR_ROW(cross_entropy_loss) =
    OperatorDescription(ACLNN_CPU_C_API_WITH_OUTPUTS(aclnnCrossEntropyLoss, 4), "cross_entropy_loss",
                        "logProb = log_softmax(input); (1 - ls) * -w[t] * logProb[n, t] + ls / C * -sum(w * logProb)")
        .Inputs({operator_rows::kLogits, operator_rows::kClassTarget, operator_rows::kClassWeightOptional}, 0)
        .Outs("lossOut", {{"logProbOut", OutputShape::kSelf},
                          {"zlossOut", OutputShape::kUnwritten},
                          {"lseForZlossOut", OutputShape::kUnwritten}})
        .Parameters({operator_rows::kReduction, operator_rows::kIgnoreIndex, operator_rows::kLabelSmoothing,
                     operator_rows::kLseSquareScale, operator_rows::kReturnZloss})
        .Result(ResultRule::kLossPerSample)
        .Dtypes(&validation::kNewerChipsOnly)
        .ByClassRows();

ACLNN_CPU_OPERATOR_ROW(cross_entropy_loss_grad) =
    OperatorDescription(ACLNN_CPU_C_API(aclnnCrossEntropyLossGrad), "cross_entropy_loss_grad",
                        "exp(logProb) * s[n] - (c == t ? s[n] : 0), s[n] = w[t] * gradLoss (/ sum of w for mean)")
        .Inputs({operator_rows::kGradLoss, operator_rows::kLogProb, operator_rows::kClassTarget,
                 operator_rows::kClassWeightOptional, operator_rows::kGradZloss, operator_rows::kLseForZloss},
                1)
        .Parameters({operator_rows::kReduction, operator_rows::kIgnoreIndex, operator_rows::kLabelSmoothing,
                     operator_rows::kLseSquareScale})
        .Result(ResultRule::kGradient)
        .Dtypes(&validation::kNewerChipsOnly)
        .ByClassRows();

}  // namespace aclnn_cpu

namespace {

using namespace aclnn_cpu;
using validation::BroadcastOperation;
using validation::CannDtypeName;
using validation::CannShapeString;
using validation::CheckStep;
using validation::ValidationState;
namespace checks = validation::checks;
namespace ce = ops::cross_entropy;
constexpr int kOut = checks::kOut;
using Dims = std::vector<int64_t>;

const Dims& DimsOf(const BroadcastOperation& op, int index) {
    return (index == kOut ? op.out : op.inputs[static_cast<size_t>(index)]).tensor->view_dims;
}

const aclTensor* TensorOf(const BroadcastOperation& op, int index) {
    return (index == kOut ? op.out : op.inputs[static_cast<size_t>(index)]).tensor;
}

std::string Text(const char* format, ...) {
    char text[512];
    va_list arguments;
    va_start(arguments, format);
    std::vsnprintf(text, sizeof text, format, arguments);
    va_end(arguments);
    return text;
}

// A check of CANN's tiling: its failure is phase 1's 561002, with the OP_LOGE_FOR_INVALID_* text (code: its EZ
// number) that `refused` returns, or success where it returns nothing.
CheckStep Tiling(const char* code, std::function<std::string(const BroadcastOperation&)> refused) {
    return [code, refused](const BroadcastOperation& op, ValidationState&) -> aclnnStatus {
        const std::string text = refused(op);
        if (text.empty()) return ACLNN_SUCCESS;
        SetErrorMessage(code, "%s: %s", op.api, text.c_str());
        return ACLNN_ERR_INNER_TILING_ERROR;
    };
}

// The OP_LOGE_FOR_INVALID_* texts.
std::string InvalidValue(const char* node, const char* parameter, const std::string& value, const char* should) {
    return Text("Parameter %s of %s has incorrect value %s. It should be %s.", parameter, node, value.c_str(), should);
}
std::string InvalidShapeDim(const char* node, const char* parameter, size_t rank, const char* should) {
    return Text("Parameter %s of %s has incorrect shape dim %zu. It should be %s.", parameter, node, rank, should);
}
std::string InvalidShapes(const char* node, const char* parameters, long long a, long long b, const char* reason) {
    return Text("Parameters %s of %s have incorrect shapes %lld and %lld. Reason: %s.", parameters, node, a, b,
                reason);
}

// "none" 0, "mean" 1, "sum" 2, another name -1; a null reductionOptional takes the OpDef's default "mean".
int64_t ReductionOf(const char* name) {
    if (name == nullptr || std::strcmp(name, "mean") == 0) return 1;
    if (std::strcmp(name, "sum") == 0) return 2;
    if (std::strcmp(name, "none") == 0) return 0;
    return -1;
}

// The generated op_api's dtype check, per the OpDef's combinations: every floating tensor of `scores`' dtype (in
// FLOAT, FLOAT16, BFLOAT16), target INT64 (INT32 too on Ascend 950), weight FLOAT (161002).
CheckStep DtypeCombination(int scores, int target, int weight, std::vector<int> same) {
    return [=](const BroadcastOperation& op, ValidationState& state) -> aclnnStatus {
        aclnnStatus status = checks::DtypesInList({scores})(op, state);
        if (status != ACLNN_SUCCESS) return status;
        const int32_t type = TensorOf(op, scores)->data_type;
        for (int k : same) {
            const aclTensor* t = TensorOf(op, k);
            if (t != nullptr && t->data_type != type)
                return checks::Rule([&](const BroadcastOperation&) {
                    return Text("Tensor %s has dtype %s; it must be %s's dtype %s (CANN's kernels take one dtype).",
                                (k == kOut ? op.out : op.inputs[static_cast<size_t>(k)]).name,
                                CannDtypeName(t->data_type).c_str(), op.inputs[static_cast<size_t>(scores)].name,
                                CannDtypeName(type).c_str());
                })(op, state);
        }
        const int32_t target_type = TensorOf(op, target)->data_type;
        const bool int32_too = validation::OnRegisterBasedChip();
        if (target_type != ACL_INT64 && !(int32_too && target_type == ACL_INT32))
            return checks::Rule([&](const BroadcastOperation&) {
                return Text("Tensor target not implemented for %s, should be in dtype support list %s.",
                            CannDtypeName(target_type).c_str(), int32_too ? "[DT_INT64,DT_INT32,]" : "[DT_INT64,]");
            })(op, state);
        const aclTensor* w = TensorOf(op, weight);
        if (w != nullptr && w->data_type != ACL_FLOAT)
            return checks::Rule([&](const BroadcastOperation&) {
                return Text("Tensor weightOptional not implemented for %s, should be in dtype support list "
                            "[DT_FLOAT,].", CannDtypeName(w->data_type).c_str());
            })(op, state);
        return ACLNN_SUCCESS;
    };
}

// The tiling's reduction and labelSmoothing checks (CANN's float attribute; NaN passes the forward's test).
CheckStep ReductionName(const char* node, const char* name, const char* should) {
    return Tiling("EZ0024", [=](const BroadcastOperation&) {
        return ReductionOf(name) >= 0 ? std::string() : InvalidValue(node, "reduction", name, should);
    });
}

// The engine's steps: layouts, a self-overlapping out, then the iteration's shape (the scores').
void AddEngineSteps(std::vector<CheckStep>* steps, int scores) {
    steps->push_back(checks::Layouts());
    steps->push_back(checks::OutDoesNotOverlapItself());
    steps->push_back(checks::ShapesTiedByOperator(scores));
}

// Validates, plans the call (operands by role: `roles` gives each validated tensor's) and hands out the executor.
aclnnStatus Plan(const BroadcastOperation& op, const std::vector<int>& roles,
                 const ce::CrossEntropyDescription& description, const std::vector<aclTensor*>& more_outputs) {
    validation::ValidatedOperation validated;
    aclnnStatus status = validation::ValidateBroadcastOperation(op, &validated);
    if (status != ACLNN_SUCCESS) return status;
    std::array<engine::PlanOperand, ce::kOperands> operands{};
    std::vector<aclTensor*> inputs;
    for (size_t i = 0; i < validated.present.size(); ++i) {
        const validation::NamedTensor* t = validated.present[i];
        const int role = roles[static_cast<size_t>(t == &op.out ? op.inputs.size() : t - op.inputs.data())];
        if (role < 0) continue;  // a tensor the kernel neither reads nor writes
        operands[static_cast<size_t>(role)] = {t->tensor, t->name, validated.extents[i]};
        if (role != ce::kOut && role != ce::kLogProbOut) inputs.push_back(const_cast<aclTensor*>(t->tensor));
    }
    ce::CrossEntropyDescription planned = description;
    planned.register_based = validation::OnRegisterBasedChip();
    planned.kernels = ce::DispatchedRowKernels();
    auto plan = std::make_shared<ce::CrossEntropyPlan>(planned, operands);
    status = plan->CheckAddresses(op.api);
    if (status != ACLNN_SUCCESS) return status;
    return engine::HandOutExecutor(op, plan, std::move(inputs), description.phase2_name, more_outputs);
}

BroadcastOperation Operation(const OperatorDescription& row, std::vector<validation::NamedTensor> inputs,
                             const aclTensor* out, uint64_t* workspace_size, aclOpExecutor** executor) {
    BroadcastOperation op;
    op.api = row.phase1_name;
    op.workspace_size = workspace_size;
    op.executor = executor;
    op.inputs = std::move(inputs);
    op.out = {out, row.out_name};
    op.dtypes = row.dtypes;
    return op;
}

// ---- aclnnCrossEntropyLoss: inputs 0 input, 1 target, 2 weightOptional, 3 logProbOut, 4 zlossOut,
// 5 lseForZlossOut; out lossOut. ----------------------------------------------------------------------------------

constexpr int kInputF = 0, kTargetF = 1, kWeightF = 2, kLogProbOutF = 3, kZlossOutF = 4, kLseOutF = 5;
constexpr char kForwardNode[] = "CrossEntropyLoss";

// The forward's shape checks: Ascend 950's tiling's, in order. Atlas A2/A3's tiling compares target's and weight's
// first dims only, with its own texts; there aclnn-cpu adds 950's other checks (161002: a tensor of another rank
// would be read outside its view).
std::vector<CheckStep> ForwardShapes(bool register_based) {
    const char* node = kForwardNode;
    auto added = [register_based](const char* code, std::function<std::string(const BroadcastOperation&)> rule) {
        return register_based ? Tiling(code, rule) : checks::Rule(rule);
    };
    return {
        added("EZ0011", [=](const BroadcastOperation& op) {
            const Dims& x = DimsOf(op, kInputF);
            return x.size() == 2 ? std::string() : InvalidShapeDim(node, "x", x.size(), "2");
        }),
        added("EZ0009", [=](const BroadcastOperation& op) {
            const Dims& x = DimsOf(op, kInputF);
            if (x[0] == 0 || x[1] != 0) return std::string();
            return Text("Parameter x of %s has incorrect shape %lld, 0. Reason: The C-dimension of x cannot be zero, "
                        "when the N-dimension of x is not zero, where N is the 0th axis and C is the 1st axis.",
                        node, static_cast<long long>(x[0]));
        }),
        added("EZ0011", [=](const BroadcastOperation& op) {
            const Dims& t = DimsOf(op, kTargetF);
            return t.size() == 1 ? std::string() : InvalidShapeDim(node, "target", t.size(), "1");
        }),
        Tiling("EZ0010", [=](const BroadcastOperation& op) {
            const Dims& x = DimsOf(op, kInputF);
            const Dims& t = DimsOf(op, kTargetF);
            if (t[0] == x[0]) return std::string();
            return register_based
                       ? InvalidShapes(node, "x and target", x[0], t[0],
                                       "The dim 0 of input0 should be the same as the shape size of target")
                       : InvalidShapes(node, "input and target", x[0], t[0],
                                       "The dim 0 of input should be same as the shape size of target");
        }),
        // Only the weight's first dim is compared (a weight [C, 1] is read as its first C elements).
        Tiling("EZ0010", [=](const BroadcastOperation& op) {
            if (TensorOf(op, kWeightF) == nullptr) return std::string();
            const Dims& x = DimsOf(op, kInputF);
            const Dims& w = DimsOf(op, kWeightF);
            if (!w.empty() && w[0] == x[1]) return std::string();
            const long long classes = w.empty() ? 1 : w[0];  // a 0-d weight: its shape size
            return register_based
                       ? InvalidShapes(node, "x and weight", x[1], classes,
                                       "The dim 1 of input should be the same as the shape size of weight")
                       : InvalidShapes(node, "input and weight", x[1], classes,
                                       "The dim 1 of input should be same as the shape size of weight");
        }),
    };
}

// aclnn-cpu's own: the outputs CANN's kernel writes hold what it writes (lossOut [N] for none, one element
// otherwise; logProbOut input's shape).
CheckStep ForwardOutShapes(int64_t reduction) {
    return checks::Rule([reduction](const BroadcastOperation& op) -> std::string {
        const Dims& x = DimsOf(op, kInputF);
        const Dims& loss = DimsOf(op, kOut);
        if (reduction == 0 && (loss.size() != 1 || loss[0] != x[0]))
            return Text("lossOut must have shape [%lld] for reduction none, but got ", static_cast<long long>(x[0])) +
                   CannShapeString(loss) + ".";
        if (reduction != 0 && (loss.size() > 1 || engine::ElementCount(loss) != 1))
            return "lossOut must have one element for reduction mean or sum, but got " + CannShapeString(loss) + ".";
        const Dims& log_prob = DimsOf(op, kLogProbOutF);
        if (log_prob != x)
            return "logProbOut must have input's shape " + CannShapeString(x) + ", but got " +
                   CannShapeString(log_prob) + ".";
        return "";
    });
}

// The forward's roles by validated tensor (inputs, then out); the z-loss outputs have none.
const std::vector<int> kForwardRoles = {ce::kScores, ce::kTarget, ce::kWeight, ce::kLogProbOut, -1, -1, ce::kOut};

// ---- aclnnCrossEntropyLossGrad: inputs 0 gradLoss, 1 logProb, 2 target, 3 weightOptional, 4 gradZlossOptional,
// 5 lseForZlossOptional; out. --------------------------------------------------------------------------------------

constexpr int kGradB = 0, kLogProbB = 1, kTargetB = 2, kWeightB = 3, kGradZlossB = 4, kLseB = 5;
constexpr char kGradNode[] = "CrossEntropyLossGrad";

// The gradient's shape checks: Ascend 950's tiling's, in order. Atlas A2/A3's tiling compares target's and
// weight's first dims only, with its own texts; there aclnn-cpu adds 950's other checks (161002).
std::vector<CheckStep> GradShapes(int64_t reduction, bool register_based) {
    const char* node = kGradNode;
    auto added = [register_based](const char* code, std::function<std::string(const BroadcastOperation&)> rule) {
        return register_based ? Tiling(code, rule) : checks::Rule(rule);
    };
    return {
        added("EZ0011", [=](const BroadcastOperation& op) {
            const Dims& lp = DimsOf(op, kLogProbB);
            return lp.size() == 2 ? std::string() : InvalidShapeDim(node, "log_prob", lp.size(), "2");
        }),
        added("EZ0010", [=](const BroadcastOperation& op) {
            const Dims& lp = DimsOf(op, kLogProbB);
            Dims g = DimsOf(op, kGradB);
            if (g.empty()) g = {1};  // a 0-d gradLoss is taken as [1]
            if (reduction == 0 && (g.size() != 1 || g[0] != lp[0]))
                return InvalidShapes(node, "log_prob and grad_loss", lp[0], g[0],
                                     "The dim 0 of log_prob should be same as the shape size of grad_loss and "
                                     "grad_loss dimNum should be same as 1 when reduction is none");
            if (reduction != 0 && (g.size() != 1 || g[0] != 1))
                return Text("Parameter grad_loss of %s has incorrect shape %lld. Reason: grad_loss should be a scalar "
                            "or shape should be equal to [1] when reduction is sum or mean.",
                            node, static_cast<long long>(g[0]));
            return std::string();
        }),
        added("EZ0011", [=](const BroadcastOperation& op) {
            const Dims& t = DimsOf(op, kTargetB);
            return t.size() == 1 ? std::string() : InvalidShapeDim(node, "target", t.size(), "1");
        }),
        Tiling("EZ0010", [=](const BroadcastOperation& op) {
            const Dims& lp = DimsOf(op, kLogProbB);
            const Dims& t = DimsOf(op, kTargetB);
            if (t[0] == lp[0]) return std::string();
            return register_based
                       ? InvalidShapes(node, "log_prob and target", lp[0], t[0],
                                       "The shape of parameter target must be 1D, and the 0th dimension of target "
                                       "must be equal to the same axis of parameter log_prob")
                       : InvalidShapes(node, "log_prob and target", lp[0], t[0],
                                       "The dim 0 of log_prob must be equal to the shape size of target");
        }),
        added("EZ0011", [=](const BroadcastOperation& op) {
            if (TensorOf(op, kWeightB) == nullptr) return std::string();
            const Dims& w = DimsOf(op, kWeightB);
            return w.size() == 1 ? std::string() : InvalidShapeDim(node, "weight", w.size(), "1D");
        }),
        Tiling("EZ0010", [=](const BroadcastOperation& op) {
            if (TensorOf(op, kWeightB) == nullptr) return std::string();
            const Dims& lp = DimsOf(op, kLogProbB);
            const Dims& w = DimsOf(op, kWeightB);
            if (w[0] == lp[1]) return std::string();
            return register_based
                       ? InvalidShapes(node, "log_prob and weight", lp[1], w[0],
                                       "The dim 1 of log_prob must be the same as the shape size of weight")
                       : InvalidShapes(node, "log_prob and weight", lp[1], w[0],
                                       "The dim 1 of log_prob must be equal to the shape size of weight");
        }),
    };
}

const std::vector<int> kGradRoles = {ce::kGradLoss, ce::kScores, ce::kTarget, ce::kWeight, -1, -1, ce::kOut};

ce::CrossEntropyDescription Describe(const OperatorDescription& row, ce::Direction direction, int64_t reduction,
                                     int64_t ignore_index, double label_smoothing) {
    ce::CrossEntropyDescription description;
    description.phase2_name = row.api_name;
    description.direction = direction;
    description.reduction = reduction;
    description.ignore_index = ignore_index;
    description.label_smoothing = static_cast<float>(label_smoothing);
    return description;
}

}  // namespace

extern "C" {

aclnnStatus aclnnCrossEntropyLossGetWorkspaceSize(const aclTensor* input, const aclTensor* target,
                                                  const aclTensor* weightOptional, char* reductionOptional,
                                                  int64_t ignoreIndex, double labelSmoothing,
                                                  double lseSquareScaleForZloss, bool returnZloss,
                                                  const aclTensor* lossOut, const aclTensor* logProbOut,
                                                  const aclTensor* zlossOut, const aclTensor* lseForZlossOut,
                                                  uint64_t* workspaceSize, aclOpExecutor** executor) {
    (void)lseSquareScaleForZloss;  // neither is read by CANN's tiling or kernels
    (void)returnZloss;
    const OperatorDescription& row = kOperatorRow_cross_entropy_loss;
    return engine::GuardCBoundary(row.phase1_name, [&]() -> aclnnStatus {
        BroadcastOperation op = Operation(row,
                                          {{input, "input"},
                                           {target, "target"},
                                           {weightOptional, "weightOptional", true},
                                           {logProbOut, "logProbOut"},
                                           {zlossOut, "zlossOut"},
                                           {lseForZlossOut, "lseForZlossOut"}},
                                          lossOut, workspaceSize, executor);
        const int64_t reduction = ReductionOf(reductionOptional);
        const char* reduction_text = reductionOptional != nullptr ? reductionOptional : "mean";
        const float smoothing = static_cast<float>(labelSmoothing);
        CheckStep smoothing_range = Tiling("EZ0024", [=](const BroadcastOperation&) {
            return smoothing < 0.0f || smoothing > 1.0f
                       ? InvalidValue(kForwardNode, "label_smoothing", std::to_string(smoothing), "in [0.0, 1.0]")
                       : std::string();
        });
        op.steps = {checks::NullTensors({kInputF, kTargetF, kOut, kLogProbOutF, kZlossOutF, kLseOutF}),
                    DtypeCombination(kInputF, kTargetF, kWeightF, {kOut, kLogProbOutF, kZlossOutF, kLseOutF})};
        const std::vector<CheckStep> shapes = ForwardShapes(validation::OnRegisterBasedChip());
        const CheckStep reduction_check = ReductionName(kForwardNode, reduction_text, "in ['none', 'mean', 'sum']");
        if (validation::OnRegisterBasedChip()) {
            op.steps.insert(op.steps.end(), shapes.begin(), shapes.end());
            op.steps.push_back(reduction_check);
            op.steps.push_back(smoothing_range);
        } else {
            op.steps.push_back(reduction_check);
            op.steps.push_back(smoothing_range);
            op.steps.insert(op.steps.end(), shapes.begin(), shapes.end());
        }
        op.steps.push_back(ForwardOutShapes(reduction));
        AddEngineSteps(&op.steps, kInputF);
        op.steps.push_back(checks::Rule([](const BroadcastOperation& op) {  // as lossOut's, for the second output written
            const aclTensor* log_prob = TensorOf(op, kLogProbOutF);
            return validation::HasInternalOverlap(log_prob->view_dims, log_prob->strides)
                       ? std::string("logProbOut maps two elements to the same address; logProbOut must not overlap "
                                     "itself.")
                       : std::string();
        }));
        return Plan(op, kForwardRoles,
                    Describe(row, ce::Direction::kForward, reduction, ignoreIndex, labelSmoothing),
                    {const_cast<aclTensor*>(logProbOut)});
    });
}

aclnnStatus aclnnCrossEntropyLoss(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                  aclrtStream stream) {
    return ops::Run(kOperatorRow_cross_entropy_loss, workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnCrossEntropyLossGradGetWorkspaceSize(const aclTensor* gradLoss, const aclTensor* logProb,
                                                      const aclTensor* target, const aclTensor* weightOptional,
                                                      const aclTensor* gradZlossOptional,
                                                      const aclTensor* lseForZlossOptional, char* reductionOptional,
                                                      int64_t ignoreIndex, double labelSmoothing,
                                                      double lseSquareScaleForZloss, const aclTensor* out,
                                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
    (void)lseSquareScaleForZloss;  // not read by CANN's tiling or kernels
    const OperatorDescription& row = kOperatorRow_cross_entropy_loss_grad;
    return engine::GuardCBoundary(row.phase1_name, [&]() -> aclnnStatus {
        BroadcastOperation op = Operation(row,
                                          {{gradLoss, "gradLoss"},
                                           {logProb, "logProb"},
                                           {target, "target"},
                                           {weightOptional, "weightOptional", true},
                                           {gradZlossOptional, "gradZlossOptional", true, true},
                                           {lseForZlossOptional, "lseForZlossOptional", true, true}},
                                          out, workspaceSize, executor);
        const bool register_based = validation::OnRegisterBasedChip();
        const char* reduction_text = reductionOptional != nullptr ? reductionOptional : "mean";
        // Atlas A2/A3's tiling takes a name it does not know as none.
        int64_t reduction = ReductionOf(reductionOptional);
        if (reduction < 0 && !register_based) reduction = 0;
        const float smoothing = static_cast<float>(labelSmoothing);
        op.steps = {checks::NullTensors({kGradB, kLogProbB, kTargetB, kOut}),
                    DtypeCombination(kLogProbB, kTargetB, kWeightB, {kGradB, kOut, kGradZlossB, kLseB})};
        const std::vector<CheckStep> shapes = GradShapes(reduction, register_based);
        if (register_based) {
            op.steps.push_back(ReductionName(kGradNode, reduction_text, "none, mean or sum"));
            op.steps.push_back(Tiling("EZ0026", [=](const BroadcastOperation&) {
                return smoothing >= 0.0f && smoothing <= 1.0f
                           ? std::string()
                           : Text("Parameter label_smoothing of %s has incorrect value %s. Reason: within [0, 1].",
                                  kGradNode, std::to_string(smoothing).c_str());
            }));
            op.steps.insert(op.steps.end(), shapes.begin(), shapes.end());
        } else {
            op.steps.insert(op.steps.end(), shapes.begin(), shapes.end());
            // aclnn-cpu's own: the older chips' kernel has no label smoothing term (its output is undefined).
            op.steps.push_back(checks::Rule([=](const BroadcastOperation&) {
                return smoothing == 0.0f
                           ? std::string()
                           : Text("labelSmoothing %s is not supported on this SoC: it should be 0.0 (CANN's kernel "
                                  "for Atlas A2/A3 does not implement label smoothing).",
                                  std::to_string(smoothing).c_str());
            }));
        }
        op.steps.push_back(checks::Rule([](const BroadcastOperation& op) {
            return DimsOf(op, kOut) == DimsOf(op, kLogProbB)
                       ? std::string()
                       : "out must have logProb's shape " + CannShapeString(DimsOf(op, kLogProbB)) + ", but got " +
                             CannShapeString(DimsOf(op, kOut)) + ".";
        }));
        AddEngineSteps(&op.steps, kLogProbB);
        return Plan(op, kGradRoles, Describe(row, ce::Direction::kBackward, reduction, ignoreIndex, labelSmoothing),
                    {});
    });
}

aclnnStatus aclnnCrossEntropyLossGrad(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                      aclrtStream stream) {
    return ops::Run(kOperatorRow_cross_entropy_loss_grad, workspace, workspaceSize, executor, stream);
}

}  // extern "C"
#endif  // HWY_ONCE
