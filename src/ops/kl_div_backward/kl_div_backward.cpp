// aclnnKlDivBackward, whole: its functor (CANN's arch35 DAG, ops-nn loss/kl_div_loss_grad, op_kernel/arch35/
// kl_div_loss_grad_dag.h) compiled once per SIMD target, its phase 1 in CANN's order, its row of the operator
// table.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/kl_div_backward/kl_div_backward.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "hwy/highway.h"
#include "kernels/elementwise_tiles-inl.h"
#include "kernels/vector_exp-inl.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::ops::kl_div_backward::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// In the DAG's order: t = target (or exp(target)); (t * gradOutput) * -1, times cof (1 for none and sum: exact).
// No rule for a zero target: 0 * g gives -0 for g > 0, as CANN's kernel. exp is the project's VectorExp.
template <bool kLogTarget>
struct KlDivGrad {
    static constexpr int kInputs = 2;  // gradOutput, target (self gives the shape only, and is not read)
    static constexpr int kScaledInput = -1;
    static constexpr bool kCheap = !kLogTarget;  // a product; with logTarget an exp

    using Parameters = kernels::ScaleParameters;
    explicit KlDivGrad(const Parameters& parameters) : coefficient(parameters.scale) {}

    template <class D>
    HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> g, hn::Vec<D> target) const {
        const auto t = kLogTarget ? kernels::HWY_NAMESPACE::VectorExp(d, target) : target;
        return hn::Mul(hn::Neg(hn::Mul(t, g)), hn::Set(d, coefficient));
    }

    float coefficient;
};

ACLNN_CPU_STORE_KERNEL_CHOOSER(ChooseGradient, KlDivGrad<false>)
ACLNN_CPU_STORE_KERNEL_CHOOSER(ChooseLogTargetGradient, KlDivGrad<true>)
kernels::ColumnSumKernel ChooseGradientColumnSums(const kernels::KernelConfig& config, bool fusable) {
    return kernels::HWY_NAMESPACE::ChooseColumnSumKernel<KlDivGrad<false>>(config, fusable);
}
kernels::ColumnSumKernel ChooseLogTargetGradientColumnSums(const kernels::KernelConfig& config, bool fusable) {
    return kernels::HWY_NAMESPACE::ChooseColumnSumKernel<KlDivGrad<true>>(config, fusable);
}

}  // namespace aclnn_cpu::ops::kl_div_backward::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_kl_div_backward.h"
#include "common/error_message.h"
#include "engine/elementwise_operator.h"
#include "ops/operator_request.h"
#include "validation/tensor_checks.h"
#include <string>
#include <vector>

namespace aclnn_cpu::ops::kl_div_backward {

HWY_EXPORT(ChooseGradient);
HWY_EXPORT(ChooseLogTargetGradient);
HWY_EXPORT(ChooseGradientColumnSums);
HWY_EXPORT(ChooseLogTargetGradientColumnSums);

namespace {
kernels::TileKernel Gradient(const kernels::KernelConfig& c, bool f) {
    return HWY_DYNAMIC_DISPATCH(ChooseGradient)(c, f);
}
kernels::TileKernel LogTargetGradient(const kernels::KernelConfig& c, bool f) {
    return HWY_DYNAMIC_DISPATCH(ChooseLogTargetGradient)(c, f);
}
kernels::ColumnSumKernel GradientColumnSums(const kernels::KernelConfig& c, bool f) {
    return HWY_DYNAMIC_DISPATCH(ChooseGradientColumnSums)(c, f);
}
kernels::ColumnSumKernel LogTargetGradientColumnSums(const kernels::KernelConfig& c, bool f) {
    return HWY_DYNAMIC_DISPATCH(ChooseLogTargetGradientColumnSums)(c, f);
}
}  // namespace

kernels::TileKernelChooser GradientKernelChooser(bool log_target) {
    return log_target ? &LogTargetGradient : &Gradient;
}

kernels::ColumnSumKernelChooser GradientColumnSumKernelChooser(bool log_target) {
    return log_target ? &LogTargetGradientColumnSums : &GradientColumnSums;
}

}  // namespace aclnn_cpu::ops::kl_div_backward

// ---- aclnnKlDivBackward -----------------------------------------------------------------------------------------
// aclnnKlDivBackward on the elementwise engine, in the order of CANN's op_api (ops-nn
// loss/kl_div_loss_grad/op_api/aclnn_kl_div_backward.cpp): the four tensors not null, self's dtype castable to
// out's, each tensor's dtype in the SoC's list, the ranks, self and target broadcast, gradOutput broadcast to
// their shape, out of self's shape. The reduction is not checked: 1 is a mean over the broadcast shape, 3 a
// batch mean over its first dim, anything else none (or sum: the same here). Where target enlarges self's shape,
// the gradient over the broadcast shape is summed back to self's (CANN's ReduceSum over the dims self
// broadcasts in, with a self that is not empty; an empty broadcast shape sums nothing: zeros).
namespace aclnn_cpu {

ACLNN_CPU_OPERATOR_ROW(kl_div_backward) =
    OperatorDescription(ACLNN_CPU_C_API(aclnnKlDivBackward), "kl_div_backward",
                        "-(target * gradOutput), or -(exp(target) * gradOutput) with logTarget; divided by N for "
                        "mean, by the first dim for batchmean (reduction 3)")
        // self gives the shape only: the gradient does not depend on its values (CANN's kernel binds it as an
        // unused placeholder), so it is not read.
        .Inputs({{"gradOutput", "grad_output", false, ValueDomain::kGradient, InputShape::kToBroadcast},
                 {"self", "self", false, ValueDomain::kReal, InputShape::kBroadcast, false},
                 {"target", "target", false, ValueDomain::kProbability}},
                1)
        .Parameters({operator_rows::kAnyReduction, operator_rows::kLogTarget})
        .Result(ResultRule::kGradientOfSelf, MeanDivisor::kBroadcastElements, true)
        .Dtypes(&validation::kFloatTypesBf16FromAtlasA2)
        .Reference(&references::KlDivGrad);

}  // namespace aclnn_cpu

namespace {

const aclnn_cpu::OperatorDescription& kRow = aclnn_cpu::kOperatorRow_kl_div_backward;
constexpr int kGradOutput = 0, kSelf = 1, kTarget = 2;

using aclnn_cpu::validation::BroadcastOperation;
using aclnn_cpu::validation::CannShapeString;
using aclnn_cpu::validation::ValidationState;

aclnnStatus Invalid(const std::string& format, const std::string& a, const std::string& b) {
    aclnn_cpu::SetErrorMessage(aclnn_cpu::kAclnnParameterError, ("%s: " + format).c_str(), kRow.phase1_name, a.c_str(),
                               b.c_str());
    return ACLNN_ERR_PARAM_INVALID;
}

// CheckNotNull4Tensor: its message names the helper's parameters, t0 to t3.
aclnnStatus CheckNotNull(const BroadcastOperation& op, ValidationState&) {
    const aclTensor* tensors[4] = {op.inputs[0].tensor, op.inputs[1].tensor, op.inputs[2].tensor, op.out.tensor};
    for (int k = 0; k < 4; ++k) {
        if (tensors[k] != nullptr) continue;
        aclnn_cpu::SetErrorMessage(aclnn_cpu::kAclnnParameterError,
                                   "%s: Expected a proper Tensor but got null for argument t%d.", kRow.phase1_name, k);
        return ACLNN_ERR_PARAM_NULLPTR;
    }
    return ACLNN_SUCCESS;
}

// self and target broadcast; gradOutput broadcasts to their shape; out has self's.
aclnnStatus CheckShapes(const BroadcastOperation& op, ValidationState&) {
    const std::vector<int64_t>& self = op.inputs[kSelf].tensor->view_dims;
    const std::vector<int64_t>& target = op.inputs[kTarget].tensor->view_dims;
    const std::vector<int64_t>& grad = op.inputs[kGradOutput].tensor->view_dims;
    std::vector<int64_t> shape, grad_shape;
    int conflict = 0;
    if (!aclnn_cpu::validation::BroadcastShapes(self, target, &shape, &conflict)) {
        aclnn_cpu::SetErrorMessage(aclnn_cpu::kAclnnParameterError,
                                   "%s: The size of tensor self %s must match the size of tensor target %s.",
                                   kRow.phase1_name, CannShapeString(self).c_str(), CannShapeString(target).c_str());
        return ACLNN_ERR_PARAM_INVALID;
    }
    if (!aclnn_cpu::validation::BroadcastShapes(grad, shape, &grad_shape, &conflict) || grad_shape != shape)
        return Invalid("Except shape of gradOutput must broadcast to %s, but current is %s.", CannShapeString(shape),
                       CannShapeString(grad));
    const std::vector<int64_t>& out = op.out.tensor->view_dims;
    if (self != out) {
        aclnn_cpu::SetErrorMessage(
            aclnn_cpu::kAclnnParameterError,
            "%s: Expected tensor for self to have same size as tensor for out, but %s does not equal %s.",
            kRow.phase1_name,
            CannShapeString(self).c_str(), CannShapeString(out).c_str());
        return ACLNN_ERR_PARAM_INVALID;
    }
    return ACLNN_SUCCESS;
}

}  // namespace

extern "C" {

aclnnStatus aclnnKlDivBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                               const aclTensor* target, int64_t reduction, bool logTarget,
                                               aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    using namespace aclnn_cpu;
    namespace checks = validation::checks;
    return engine::GuardCBoundary(kRow.phase1_name, [&]() -> aclnnStatus {
        engine::ElementwiseRequest request =
            ops::RequestFor(kRow, {gradOutput, self, target}, out, workspaceSize, executor);
        request.validation.steps = {
            &CheckNotNull,
            checks::PromotedCastableToOut({kSelf}),
            checks::DtypesInList({kGradOutput, kSelf, kTarget, checks::kOut}),
            checks::Ranks({kGradOutput, kSelf, kTarget, checks::kOut}),
            checks::Layouts(),
            &CheckShapes,
            checks::Broadcast(),  // out has self's shape (CheckShapes), which S sums back to
            checks::OutDoesNotOverlapItself(),
        };
        request.describe = [reduction, logTarget](const validation::ValidatedOperation& validated) {
            engine::ElementwiseDescription description;
            description.choose_kernel = ops::kl_div_backward::GradientKernelChooser(logTarget);
            // CANN's tiling: (float)(1.0 / (double)N), N the broadcast shape's count (mean) or its first dim
            // (batchmean; a 0-d shape counts as [1]).
            const std::vector<int64_t>& shape = validated.broadcast_shape;
            double count = 1.0;
            if (reduction == 1) count = static_cast<double>(engine::ElementCount(shape));
            if (reduction == 3) count = shape.empty() ? 1.0 : static_cast<double>(shape[0]);
            const float coefficient = count > 0 ? static_cast<float>(1.0 / count) : 1.0f;
            description.parameters = kernels::FunctorParameters::Of(kernels::ScaleParameters{coefficient});
            description.sum_back = shape != validated.present[kSelf]->tensor->view_dims;
            if (description.sum_back)
                description.choose_column_sum_kernel = ops::kl_div_backward::GradientColumnSumKernelChooser(logTarget);
            description.empty_sum_writes_zero = true;
            return description;
        };
        return engine::PlanElementwiseOperator(request);
    });
}

aclnnStatus aclnnKlDivBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                               aclrtStream stream) {
    return aclnn_cpu::ops::Run(kRow, workspace, workspaceSize, executor, stream);
}

}  // extern "C"

#endif  // HWY_ONCE
