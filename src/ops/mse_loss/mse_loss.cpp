// aclnnMseLoss, aclnnMseLossOut and aclnnMseLossBackward, each whole: its functor (CANN's arch35 kernels, ops-nn
// loss/mse_loss and loss/mse_loss_grad; the first two share one) compiled once per SIMD target, its phase 1 in
// CANN's order, its row of the operator table.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/mse_loss/mse_loss.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "hwy/highway.h"
#include "kernels/elementwise_tiles-inl.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::ops::mse_loss::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// d = self - target; d * d (a Sub and a Mul of d by itself, as the DAG does).
struct MseLoss {
    static constexpr int kInputs = 2;  // self, target
    static constexpr int kScaledInput = -1;
    static constexpr bool kNonNegativeResults = true;  // a square, or NaN
    static constexpr bool kCheap = true;

    template <class D>
    HWY_INLINE hn::Vec<D> operator()(D, hn::Vec<D> x, hn::Vec<D> y) const {
        const auto d = hn::Sub(x, y);
        return hn::Mul(d, d);
    }
};

// ((self - target) * cof) * gradOutput: Sub, Muls(cof), Mul(dout), in that order; cof = 2, or 2/numel(self)
// for mean, set in phase 1.
struct MseLossGrad {
    static constexpr int kInputs = 3;  // gradOutput, self, target
    static constexpr int kScaledInput = -1;

    using Parameters = kernels::ScaleParameters;
    explicit MseLossGrad(const Parameters& parameters) : cof(parameters.scale) {}

    template <class D>
    HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> g, hn::Vec<D> x, hn::Vec<D> y) const {
        return hn::Mul(hn::Mul(hn::Sub(x, y), hn::Set(d, cof)), g);
    }

    float cof;
};

ACLNN_CPU_TILE_KERNEL_CHOOSER(ChooseLoss, MseLoss)
ACLNN_CPU_STORE_KERNEL_CHOOSER(ChooseGradient, MseLossGrad)
kernels::ColumnSumKernel ChooseLossColumnSums(const kernels::KernelConfig& config, bool fusable) {
    return kernels::HWY_NAMESPACE::ChooseColumnSumKernel<MseLoss>(config, fusable);
}

}  // namespace aclnn_cpu::ops::mse_loss::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_mse_loss.h"
#include "aclnnop/aclnn_mse_loss_backward.h"
#include "aclnnop/aclnn_mse_loss_out.h"
#include "engine/elementwise_operator.h"
#include "ops/operator_request.h"
#include "validation/broadcast_validation.h"
#include <cstdint>
#include <vector>

namespace aclnn_cpu::ops::mse_loss {

ACLNN_CPU_DISPATCH_TILE_KERNEL(ChooseLoss)
ACLNN_CPU_DISPATCH_TILE_KERNEL(ChooseGradient)
HWY_EXPORT(ChooseLossColumnSums);

kernels::ColumnSumKernel ChooseLossColumnSumKernel(const kernels::KernelConfig& config, bool fusable) {
    return HWY_DYNAMIC_DISPATCH(ChooseLossColumnSums)(config, fusable);
}

}  // namespace aclnn_cpu::ops::mse_loss

// The checks aclnnMseLoss and aclnnMseLossOut share, in their op_api's order.
namespace aclnn_cpu::ops::mse_loss {

inline std::vector<validation::CheckStep> LossChecks(int64_t reduction) {
    namespace checks = validation::checks;
    return {
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
}

}  // namespace aclnn_cpu::ops::mse_loss

// ---- aclnnMseLoss -----------------------------------------------------------------------------------------------
// aclnnMseLoss: (self - target)^2 on the elementwise engine, in the order of CANN's op_api
// (ops-nn loss/mse_loss/op_api/aclnn_mse_loss.cpp): the promoted dtype and each tensor's in the SoC's list, the
// reduction, the ranks, the broadcast, out's shape (the broadcast shape for none, 0-d otherwise).
namespace aclnn_cpu {

ACLNN_CPU_OPERATOR_ROW(mse_loss) =
    OperatorDescription(ACLNN_CPU_C_API(aclnnMseLoss), "mse_loss",
                        "(self - target)^2 per element, or its mean or sum")
        .Inputs({operator_rows::kSelf, operator_rows::kTarget}, 0)
        .Parameters({operator_rows::kReduction})
        .Result(ResultRule::kLoss)
        .Dtypes(&validation::kFloatTypesBf16FromAtlasA2)
        .Reference(&references::MseLoss)
        .Aten("mse_loss", AtenResultType::kPromoted)
        .WarnsOfFractalNz();

}  // namespace aclnn_cpu

namespace {

const aclnn_cpu::OperatorDescription& kLossRow = aclnn_cpu::kOperatorRow_mse_loss;

}  // namespace

extern "C" {

aclnnStatus aclnnMseLossGetWorkspaceSize(const aclTensor* self, const aclTensor* target, int64_t reduction,
                                         aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    using namespace aclnn_cpu;
    return engine::GuardCBoundary(kLossRow.phase1_name, [&]() -> aclnnStatus {
        engine::ElementwiseRequest request = ops::RequestFor(kLossRow, {self, target}, out, workspaceSize, executor);
        request.validation.out_shape = validation::OutShapeRule::kScalar;
        request.validation.steps = ops::mse_loss::LossChecks(reduction);
        request.describe = [reduction, self, target](const validation::ValidatedOperation&) {
            // On the Ascend 950, inputs of one shape (and format ND or NCL) run the MSELossV2 kernel, whose mean
            // divides the sum by N; the others the MseLoss kernel, whose mean multiplies it by 1/N.
            const bool same_shape = self->view_dims == target->view_dims && self->format == target->format &&
                                    (self->format == ACL_FORMAT_ND || self->format == ACL_FORMAT_NCL);
            return engine::ReducedLoss(&ops::mse_loss::ChooseLossKernel, reduction,
                                       same_shape ? engine::MeanRule::kDividedByCount
                                                  : engine::MeanRule::kTimesReciprocal);
        };
        return engine::PlanElementwiseOperator(request);
    });
}

aclnnStatus aclnnMseLoss(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
    return aclnn_cpu::ops::Run(kLossRow, workspace, workspaceSize, executor, stream);
}

}  // extern "C"

// ---- aclnnMseLossOut --------------------------------------------------------------------------------------------
// aclnnMseLossOut: (self - target)^2, for mean and sum reduced over the first dim of the broadcast shape only (CANN's
// op_api runs MseLoss with reduction none, then ReduceMean or ReduceSum over dim 0: ops-nn
// loss/mse_loss/op_api/aclnn_mse_loss_out.cpp). Its checks are aclnnMseLoss's, with out of the broadcast shape
// without its first dim for mean and sum. An empty input writes nothing, whatever the reduction (CANN returns
// before any fill).
namespace aclnn_cpu {

ACLNN_CPU_OPERATOR_ROW(mse_loss_out) =
    OperatorDescription(ACLNN_CPU_C_API(aclnnMseLossOut), "mse_loss_out",
                        "(self - target)^2 per element, or its mean or sum over the first dim")
        .Inputs({operator_rows::kSelf, operator_rows::kTarget}, 0)
        .Parameters({operator_rows::kReduction})
        .Result(ResultRule::kLossOverFirstDim)
        .Dtypes(&validation::kFloatTypesBf16FromAtlasA2)
        .Reference(&references::MseLoss)
        .Aten(nullptr, AtenResultType::kPromoted);

}  // namespace aclnn_cpu

namespace {

const aclnn_cpu::OperatorDescription& kLossOutRow = aclnn_cpu::kOperatorRow_mse_loss_out;

}  // namespace

extern "C" {

aclnnStatus aclnnMseLossOutGetWorkspaceSize(const aclTensor* self, const aclTensor* target, int64_t reduction,
                                            aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    using namespace aclnn_cpu;
    return engine::GuardCBoundary(kLossOutRow.phase1_name, [&]() -> aclnnStatus {
        engine::ElementwiseRequest request = ops::RequestFor(kLossOutRow, {self, target}, out, workspaceSize, executor);
        request.validation.out_shape = validation::OutShapeRule::kBroadcastWithoutFirstDim;
        request.validation.steps = ops::mse_loss::LossChecks(reduction);
        request.describe = [reduction](const validation::ValidatedOperation&) {
            engine::ElementwiseDescription description;
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
    return aclnn_cpu::ops::Run(kLossOutRow, workspace, workspaceSize, executor, stream);
}

}  // extern "C"

// ---- aclnnMseLossBackward ---------------------------------------------------------------------------------------
// aclnnMseLossBackward: ((self - target) * cof) * gradOutput on the elementwise engine, cof = 2, or 2 / numel(self)
// for mean (self's own count, even where it broadcasts: CANN's tiling takes the predict tensor's shape). In the
// order of CANN's op_api (ops-nn loss/mse_loss_grad_v2/op_host/op_api/aclnn_mse_loss_backward.cpp): gradOutput
// and target of self's dtype, self and out in the SoC's list, the reduction, the ranks, the broadcast, out of the
// broadcast shape for every reduction.
namespace aclnn_cpu {

ACLNN_CPU_OPERATOR_ROW(mse_loss_backward) =
    OperatorDescription(ACLNN_CPU_C_API(aclnnMseLossBackward), "mse_loss_backward",
                        "2 * (self - target) * gradOutput, divided by numel(self) for mean")
        .Inputs({operator_rows::kGradOutput, operator_rows::kSelf, operator_rows::kTarget}, 1)
        .Parameters({operator_rows::kReduction})
        .Result(ResultRule::kGradient, MeanDivisor::kSelfElements)
        .Dtypes(&validation::kFloatTypesBf16FromAtlasA2, true)
        .Reference(&references::MseLossGrad)
        .Aten("mse_loss_backward", AtenResultType::kOneDtype);

}  // namespace aclnn_cpu

namespace {

const aclnn_cpu::OperatorDescription& kGradientRow = aclnn_cpu::kOperatorRow_mse_loss_backward;

}  // namespace

extern "C" {

aclnnStatus aclnnMseLossBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                 const aclTensor* target, int64_t reduction, aclTensor* out,
                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
    using namespace aclnn_cpu;
    namespace checks = validation::checks;
    return engine::GuardCBoundary(kGradientRow.phase1_name, [&]() -> aclnnStatus {
        engine::ElementwiseRequest request =
            ops::RequestFor(kGradientRow, {gradOutput, self, target}, out, workspaceSize, executor);
        request.validation.steps = {
            checks::NullTensors(),
            checks::SameDtype(0, 1),
            checks::SameDtype(2, 1),
            checks::DtypesInList({1, checks::kOut}),
            checks::ReductionInRange(reduction, "Expected reduction to be between 0 and 2, but got %lld."),
            checks::Ranks({0, 1, 2}),
            checks::Layouts(),
            checks::Broadcast(),
            checks::OutShape(false),
            checks::OutDoesNotOverlapItself(),
        };
        request.describe = [reduction, self](const validation::ValidatedOperation&) {
            engine::ElementwiseDescription description;
            description.choose_kernel = &ops::mse_loss::ChooseGradientKernel;
            const int64_t n = engine::ViewElementCount(*self);
            description.parameters = kernels::FunctorParameters::Of(kernels::ScaleParameters{
                reduction == 1 && n > 0 ? static_cast<float>(2.0f / static_cast<double>(n)) : 2.0f});
            return description;
        };
        return engine::PlanElementwiseOperator(request);
    });
}

aclnnStatus aclnnMseLossBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                 aclrtStream stream) {
    return aclnn_cpu::ops::Run(kGradientRow, workspace, workspaceSize, executor, stream);
}

}  // extern "C"

#endif  // HWY_ONCE
