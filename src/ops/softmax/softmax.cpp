// The softmax family, whole: aclnnSoftmax, aclnnLogSoftmax and their gradients aclnnSoftmaxBackward and
// aclnnLogSoftmaxBackward. Their row kernels (softmax_rows-inl.h) compiled once per SIMD target, CANN's AICPU
// arithmetic for DOUBLE, each phase 1 with its op_api's checks in order, and their rows of the operator table.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/softmax/softmax.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "hwy/highway.h"
#include "ops/softmax/softmax_rows-inl.h"
#include "ops/softmax/softmax_kind.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::ops::softmax::HWY_NAMESPACE {

engine::FloatRowKernel ChooseRowKernel(RowKind kind) {
    switch (kind) {
        case RowKind::kSoftmax: return &SoftmaxRow;
        case RowKind::kLogSoftmax: return &LogSoftmaxRow;
        case RowKind::kSoftmaxBackward: return &SoftmaxBackwardRow;
        default: return &LogSoftmaxBackwardRow;
    }
}

}  // namespace aclnn_cpu::ops::softmax::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <cmath>

#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_logsoftmax.h"
#include "aclnnop/aclnn_logsoftmax_backward.h"
#include "aclnnop/aclnn_softmax.h"
#include "aclnnop/aclnn_softmax_backward.h"
#include "engine/along_dim_operator.h"
#include "engine/elementwise_operator.h"
#include "ops/operator_request.h"
#include "validation/exact_shape_checks.h"

namespace aclnn_cpu::ops::softmax {

HWY_EXPORT(ChooseRowKernel);

namespace {

// CANN's AICPU kernels, which compute DOUBLE: exp(x - max) added in order along the row, then times 1 / sum.
void SoftmaxDoubleRow(const double* const* in, int64_t n, double* out) {
    double max = -HUGE_VAL;
    for (int64_t i = 0; i < n; ++i) max = std::isnan(in[0][i]) || in[0][i] > max ? in[0][i] : max;
    double sum = 0;
    for (int64_t i = 0; i < n; ++i) {
        out[i] = std::exp(in[0][i] - max);
        sum += out[i];
    }
    const double inverse = 1.0 / sum;
    for (int64_t i = 0; i < n; ++i) out[i] *= inverse;
}

// The AICPU log-softmax: log(exp(x - max) * (1 / sum)).
void LogSoftmaxDoubleRow(const double* const* in, int64_t n, double* out) {
    SoftmaxDoubleRow(in, n, out);
    for (int64_t i = 0; i < n; ++i) out[i] = std::log(out[i]);
}

}  // namespace

// The description of a call of `row`: the kernels of `kind`, the dtypes from the row (ops::SetComputeDtypes).
engine::AlongDimDescription Describe(RowKind kind, const OperatorDescription& row, const aclTensor* first_input,
                                     const aclTensor* out) {
    engine::AlongDimDescription description;
    description.float_row = HWY_DYNAMIC_DISPATCH(ChooseRowKernel)(kind);
    description.double_row = kind == RowKind::kSoftmax      ? &SoftmaxDoubleRow
                             : kind == RowKind::kLogSoftmax ? &LogSoftmaxDoubleRow
                                                            : nullptr;
    SetComputeDtypes(row, *first_input, *out, &description);
    return description;
}

}  // namespace aclnn_cpu::ops::softmax

// ---- the rows ---------------------------------------------------------------------------------------------------
namespace aclnn_cpu {

ACLNN_CPU_OPERATOR_ROW(softmax) =
    OperatorDescription(ACLNN_CPU_C_API(aclnnSoftmax), "softmax", "exp(self - max) / sum(exp(self - max)) along dim")
        .Inputs({operator_rows::kSelf}, 0)
        .Parameters({operator_rows::kDim})
        .Result(ResultRule::kElementwise)
        .Dtypes(&validation::kSoftmaxTypes)
        .AlongDim(&references::SoftmaxRow)
        .Aten("_softmax", AtenResultType::kSelf)
        .AtenFixedArgument("half_to_float", 0);

ACLNN_CPU_OPERATOR_ROW(log_softmax) =
    OperatorDescription(ACLNN_CPU_C_API(aclnnLogSoftmax), "log_softmax",
                        "(self - max) - log(sum(exp(self - max))) along dim")
        .Inputs({operator_rows::kSelf}, 0)
        .Parameters({operator_rows::kDim})
        .Result(ResultRule::kElementwise)
        .Dtypes(&validation::kLogSoftmaxTypes)
        .RefusesBf16OnOlderChips("aclnnLogSoftmax is not support bfloat16 in current socversion.")
        .ComputesInOutDtype()
        .AlongDim(&references::LogSoftmaxRow)
        .Aten("_log_softmax", AtenResultType::kSelf)
        .AtenFixedArgument("half_to_float", 0);

ACLNN_CPU_OPERATOR_ROW(softmax_backward) =
    OperatorDescription(ACLNN_CPU_C_API(aclnnSoftmaxBackward), "softmax_backward",
                        "output * gradOutput - output * sum(output * gradOutput) along dim")
        .Inputs({operator_rows::kGradOutputSameAsSelf, operator_rows::kSoftmaxOutput}, 1)
        .Parameters({operator_rows::kDim})
        .Result(ResultRule::kGradient)
        .Dtypes(&validation::kSoftmaxGradientTypes, true)
        .RefusesBf16OnOlderChips("Input dtype of aclnnSoftmaxBackward is not support bfloat16 in current socversion.")
        .AlongDim(&references::SoftmaxBackwardRow)
        .Aten("_softmax_backward_data", AtenResultType::kSelf)
        .AtenDtypeArgument("input_dtype");

ACLNN_CPU_OPERATOR_ROW(log_softmax_backward) =
    OperatorDescription(ACLNN_CPU_C_API(aclnnLogSoftmaxBackward), "log_softmax_backward",
                        "gradOutput - exp(output) * sum(gradOutput) along dim")
        .Inputs({operator_rows::kGradOutputSameAsSelf, operator_rows::kLogSoftmaxOutput}, 1)
        .Parameters({operator_rows::kDim})
        .Result(ResultRule::kGradient)
        .Dtypes(&validation::kSoftmaxGradientTypes, true)
        .RefusesBf16OnOlderChips("aclnnLogSoftmaxBackward is not support bfloat16 in current socversion.")
        .AlongDim(&references::LogSoftmaxBackwardRow)
        .Aten("_log_softmax_backward_data", AtenResultType::kSelf)
        .AtenDtypeArgument("input_dtype");

}  // namespace aclnn_cpu

namespace {

using aclnn_cpu::ops::softmax::Describe;
using aclnn_cpu::ops::softmax::RowKind;
namespace checks = aclnn_cpu::validation::checks;
constexpr int kOut = checks::kOut;

// The checks every call ends with: the common shape, an out that does not overlap itself (aclnn-cpu's own).
void AddEngineSteps(std::vector<aclnn_cpu::validation::CheckStep>* steps) {
    steps->push_back(checks::Broadcast());
    steps->push_back(checks::OutDoesNotOverlapItself());
}

}  // namespace

extern "C" {

aclnnStatus aclnnSoftmaxGetWorkspaceSize(const aclTensor* self, int64_t dim, aclTensor* out, uint64_t* workspaceSize,
                                         aclOpExecutor** executor) {
    using namespace aclnn_cpu;
    const OperatorDescription& row = kOperatorRow_softmax;
    return engine::GuardCBoundary(row.phase1_name, [&]() -> aclnnStatus {
        engine::AlongDimRequest request = ops::AlongDimRequestFor(row, {self}, out, dim, workspaceSize, executor);
        // An empty self ends phase 1 before anything else is checked (activation/softmax_v2 op_api).
        request.validation.steps = {checks::NullTensors(),      checks::SucceedIfEmpty({0}),
                                    checks::DtypesInList({0, kOut}), checks::DimInRange(0, dim),
                                    checks::Ranks({0}),          checks::Layouts(),
                                    checks::ShapesEqual(0, kOut)};
        AddEngineSteps(&request.validation.steps);
        // Computed in self's dtype, then cast to out's.
        request.describe = [self, out](const validation::ValidatedOperation&) {
            return Describe(RowKind::kSoftmax, kOperatorRow_softmax, self, out);
        };
        return engine::PlanAlongDimOperator(request);
    });
}

aclnnStatus aclnnSoftmax(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
    return aclnn_cpu::ops::Run(aclnn_cpu::kOperatorRow_softmax, workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnLogSoftmaxGetWorkspaceSize(const aclTensor* self, int64_t dim, aclTensor* out,
                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
    using namespace aclnn_cpu;
    const OperatorDescription& row = kOperatorRow_log_softmax;
    return engine::GuardCBoundary(row.phase1_name, [&]() -> aclnnStatus {
        engine::AlongDimRequest request = ops::AlongDimRequestFor(row, {self}, out, dim, workspaceSize, executor);
        request.validation.steps = {
            checks::NullTensors(),
            checks::DimInRange(0, dim),
            checks::NoBf16OnOlderChips({0, kOut}, row.bf16_refusal),
            checks::DtypesInList({0, kOut}, &validation::kLogSoftmaxCheckedTypes),
            checks::Ranks({0}),
            checks::Ranks({kOut}),
            checks::Layouts(),
            checks::ShapesEqual(kOut, 0)};
        AddEngineSteps(&request.validation.steps);
        // self is cast to out's dtype first, and computed in it (the row's ComputesInOutDtype).
        request.describe = [self, out](const validation::ValidatedOperation&) {
            return Describe(RowKind::kLogSoftmax, kOperatorRow_log_softmax, self, out);
        };
        return engine::PlanAlongDimOperator(request);
    });
}

aclnnStatus aclnnLogSoftmax(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
    return aclnn_cpu::ops::Run(aclnn_cpu::kOperatorRow_log_softmax, workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnSoftmaxBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* output, int64_t dim,
                                                 aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    using namespace aclnn_cpu;
    const OperatorDescription& row = kOperatorRow_softmax_backward;
    return engine::GuardCBoundary(row.phase1_name, [&]() -> aclnnStatus {
        engine::AlongDimRequest request =
            ops::AlongDimRequestFor(row, {gradOutput, output}, out, dim, workspaceSize, executor);
        // out's dtype is not checked: the result is cast to it.
        request.validation.steps = {
            checks::NullTensors(),
            // An empty tensor returns early, before the checks, except on Ascend 950 ("regbase"), which checks it.
            checks::SucceedIfEmpty({0, 1}, !validation::OnRegisterBasedChip()),
            checks::NoBf16OnOlderChips({0}, row.bf16_refusal),
            checks::DtypesInList({0, 1}, &validation::kSoftmaxGradientCheckedTypes),
            checks::DtypeMatches(1, 0),
            checks::DimInRange(0, dim),
            checks::Ranks({0}),
            checks::Layouts(),
            checks::ShapesEqual(0, 1),
            checks::ShapesEqual(0, kOut)};
        AddEngineSteps(&request.validation.steps);
        request.describe = [gradOutput, out](const validation::ValidatedOperation&) {
            return Describe(RowKind::kSoftmaxBackward, kOperatorRow_softmax_backward, gradOutput, out);
        };
        return engine::PlanAlongDimOperator(request);
    });
}

aclnnStatus aclnnSoftmaxBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                 aclrtStream stream) {
    return aclnn_cpu::ops::Run(aclnn_cpu::kOperatorRow_softmax_backward, workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnLogSoftmaxBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* output,
                                                    int64_t dim, aclTensor* out, uint64_t* workspaceSize,
                                                    aclOpExecutor** executor) {
    using namespace aclnn_cpu;
    const OperatorDescription& row = kOperatorRow_log_softmax_backward;
    return engine::GuardCBoundary(row.phase1_name, [&]() -> aclnnStatus {
        engine::AlongDimRequest request =
            ops::AlongDimRequestFor(row, {gradOutput, output}, out, dim, workspaceSize, executor);
        // output is checked before gradOutput; the ranks and shapes before dim.
        request.validation.steps = {
            checks::NullTensors({1, 0, kOut}),
            checks::SucceedIfEmpty({0, 1}, !validation::OnRegisterBasedChip()),
            checks::NoBf16OnOlderChips({0, 1}, row.bf16_refusal),
            checks::DtypesInList({1, 0}, &validation::kSoftmaxGradientCheckedTypes),
            checks::SameDtype(0, 1),
            checks::Ranks({0, 1}, "Dim of input tensor can't be greater than 8."),
            checks::Layouts(),
            checks::ShapesEqual(0, 1),
            checks::ShapesEqual(0, kOut),
            checks::DimInRange(0, dim)};
        AddEngineSteps(&request.validation.steps);
        request.describe = [gradOutput, out](const validation::ValidatedOperation&) {
            return Describe(RowKind::kLogSoftmaxBackward, kOperatorRow_log_softmax_backward, gradOutput, out);
        };
        return engine::PlanAlongDimOperator(request);
    });
}

aclnnStatus aclnnLogSoftmaxBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                    aclrtStream stream) {
    return aclnn_cpu::ops::Run(aclnn_cpu::kOperatorRow_log_softmax_backward, workspace, workspaceSize, executor,
                               stream);
}

}  // extern "C"

#endif  // HWY_ONCE
