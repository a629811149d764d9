// aclnnL1Loss and aclnnL1LossBackward, each whole: its functor (CANN's arch35 kernels, ops-nn loss/lp_loss with
// p = 1 and loss/l1_loss_grad) compiled once per SIMD target, and for the loss its int64 loop; its phase 1 in
// CANN's order; its row of the operator table.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/l1_loss/l1_loss.cpp"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "hwy/highway.h"
#include "kernels/elementwise_tiles-inl.h"

HWY_BEFORE_NAMESPACE();
namespace aclnn_cpu::ops::l1_loss::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// |self - target|: Sub, then Abs.
struct L1Loss {
    static constexpr int kInputs = 2;  // self, target
    static constexpr int kScaledInput = -1;
    static constexpr bool kNonNegativeResults = true;
    static constexpr bool kCheap = true;

    template <class D>
    HWY_INLINE hn::Vec<D> operator()(D, hn::Vec<D> x, hn::Vec<D> y) const {
        return hn::Abs(hn::Sub(x, y));
    }
};

// CANN's DAG: sign = self < target ? -1 : (self > target ? 1 : 0) from two compares -- so 0 where they are
// equal and where either is NaN -- then sign * (gradOutput * norm). The multiply keeps IEEE's signs and NaNs:
// 0 * negative is -0, 0 * inf is NaN. gradOutput * norm is the engine's pre-scale (skipped for norm 1, where it
// is exact).
struct L1LossGrad {
    static constexpr int kInputs = 3;       // gradOutput, self, target
    static constexpr int kScaledInput = 0;  // gradOutput, times norm for mean

    template <class D>
    HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> g, hn::Vec<D> x, hn::Vec<D> y) const {
        const auto positive = hn::IfThenElseZero(hn::Gt(x, y), hn::Set(d, 1.0f));
        const auto sign = hn::IfThenElse(hn::Lt(x, y), hn::Set(d, -1.0f), positive);
        return hn::Mul(sign, g);
    }
};

ACLNN_CPU_TILE_KERNEL_CHOOSER(ChooseLoss, L1Loss)
ACLNN_CPU_STORE_KERNEL_CHOOSER(ChooseGradient, L1LossGrad)

}  // namespace aclnn_cpu::ops::l1_loss::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_l1_loss.h"
#include "aclnnop/aclnn_l1_loss_backward.h"
#include "common/error_message.h"
#include "engine/elementwise_operator.h"
#include "ops/operator_request.h"

namespace aclnn_cpu::ops::l1_loss {

ACLNN_CPU_DISPATCH_TILE_KERNEL(ChooseLoss)
ACLNN_CPU_DISPATCH_TILE_KERNEL(ChooseGradient)

void IntegerLoss(const int64_t* const* inputs, int64_t count, int64_t* results) {
    // No restrict: out may be an input's very view (in place), each element read before it is written.
    const int64_t* self = inputs[0];
    const int64_t* target = inputs[1];
    int64_t* out = results;
    for (int64_t i = 0; i < count; ++i) {
        // In uint64, where overflow wraps by definition: INT64_MIN - 1 is INT64_MAX, |INT64_MIN| is INT64_MIN.
        // Branch-free (the sign picks by mask), so that the compiler vectorises it and random signs cost nothing.
        const uint64_t difference = static_cast<uint64_t>(self[i]) - static_cast<uint64_t>(target[i]);
        const uint64_t negative = uint64_t{0} - (difference >> 63);
        out[i] = static_cast<int64_t>((difference ^ negative) - negative);
    }
}

}  // namespace aclnn_cpu::ops::l1_loss

// ---- aclnnL1Loss ------------------------------------------------------------------------------------------------
// aclnnL1Loss: |self - target| on the elementwise engine, in the order of CANN's op_api (ops-nn
// loss/lp_loss/op_api/aclnn_l1_loss.cpp): the reduction, the floating-type rules, the promoted dtype in the
// SoC's list and castable to out's, the ranks, the broadcast, out's shape (the broadcast shape for none, 0-d
// otherwise). An integer input is read in the promote type; an INT64 promote type computes in int64, as CANN's
// Sub, Abs and ReduceSum do.
namespace aclnn_cpu {
namespace {

// CANN's lists (GetDtypeSupportListV2's two): INT64 besides the floating types.
constexpr validation::DtypeSupport kL1LossDtypes = {
    {{ACL_FLOAT, ACL_FLOAT16, ACL_INT64, ACL_BF16}, 4}, {{ACL_FLOAT, ACL_FLOAT16, ACL_INT64, 0}, 3}};

}  // namespace

ACLNN_CPU_OPERATOR_ROW(l1_loss) =
    OperatorDescription(ACLNN_CPU_C_API(aclnnL1Loss), "l1_loss", "|self - target| per element, or its mean or sum")
        .Inputs({operator_rows::kSelf, operator_rows::kTarget}, 0)
        .Parameters({operator_rows::kReduction})
        .Result(ResultRule::kLoss)
        .Dtypes(&kL1LossDtypes)
        .Reference(&references::L1Loss)
        .Aten("l1_loss", AtenResultType::kPromoted)
        .GradientRow("l1_loss_backward", -1)
        .WarnsOfFractalNz();

}  // namespace aclnn_cpu

namespace {

const aclnn_cpu::OperatorDescription& kLossRow = aclnn_cpu::kOperatorRow_l1_loss;

// CANN's rules for non-floating inputs (those of PyTorch's CUDA kernel): with reduction none a non-floating self
// needs a non-floating target, and a mean needs one floating input.
aclnnStatus CheckFloatingTypes(const aclTensor* self, const aclTensor* target, int64_t reduction) {
    using namespace aclnn_cpu;
    using validation::CannDtypeName;
    using validation::FloatingDtype;
    const char* api = kLossRow.phase1_name;
    if (reduction == 0 && !FloatingDtype(self->data_type) && FloatingDtype(target->data_type)) {
        SetErrorMessage(kAclnnParameterError,
                        "%s: Input dtype should be either floating point or complex dtypes. Got %s instead.", api,
                        CannDtypeName(self->data_type).c_str());
        return ACLNN_ERR_PARAM_INVALID;
    }
    if (reduction == 1 && !FloatingDtype(self->data_type) && !FloatingDtype(target->data_type)) {
        SetErrorMessage(kAclnnParameterError,
                        "%s: Input dtype should be either floating point or complex dtypes. Got self %s and "
                        "target %s instead.", api, CannDtypeName(self->data_type).c_str(),
                        CannDtypeName(target->data_type).c_str());
        return ACLNN_ERR_PARAM_INVALID;
    }
    return ACLNN_SUCCESS;
}

}  // namespace

extern "C" {

aclnnStatus aclnnL1LossGetWorkspaceSize(const aclTensor* self, const aclTensor* target, int64_t reduction,
                                        aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
    using namespace aclnn_cpu;
    namespace checks = validation::checks;
    return engine::GuardCBoundary(kLossRow.phase1_name, [&]() -> aclnnStatus {
        engine::ElementwiseRequest request = ops::RequestFor(kLossRow, {self, target}, out, workspaceSize, executor);
        request.validation.out_shape = validation::OutShapeRule::kScalar;
        request.validation.out_shape_message = "Expected out tensor shape to be %s, but got %s.";
        // Both inputs integer (CANN refuses a mean of them, and the list holds INT64 alone): the int64 path.
        const bool integers = self != nullptr && target != nullptr && validation::IntegerDtype(self->data_type) &&
                              validation::IntegerDtype(target->data_type);
        request.validation.integer_results = integers;
        request.validation.steps = {
            checks::NullTensors(),
            checks::ReductionInRange(reduction, "Expected reduction to be 0 or 1 or 2, but got %lld."),
            checks::Custom([=] { return CheckFloatingTypes(self, target, reduction); }),
            checks::PromotedDtypeInList({0, 1}, "promoteType dtype %s should be in dtype support list %s."),
            checks::PromotedCastableToOut({0, 1}),
            checks::Ranks({0, 1}),
            checks::Layouts(),
            checks::Broadcast(),
            checks::OutShape(reduction != 0),
            checks::OutDoesNotOverlapItself(),
        };
        request.describe = [reduction, integers](const validation::ValidatedOperation&) {
            engine::ElementwiseDescription description =
                engine::ReducedLoss(&ops::l1_loss::ChooseLossKernel, reduction, engine::MeanRule::kTimesReciprocal);
            if (integers) description.integer_block = &ops::l1_loss::IntegerLoss;
            return description;
        };
        return engine::PlanElementwiseOperator(request);
    });
}

aclnnStatus aclnnL1Loss(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
    return aclnn_cpu::ops::Run(kLossRow, workspace, workspaceSize, executor, stream);
}

}  // extern "C"

// ---- aclnnL1LossBackward ----------------------------------------------------------------------------------------
// aclnnL1LossBackward: sign(self - target) * (gradOutput * norm) on the elementwise engine, norm 1, or for mean
// 1.0f divided in fp32 by each dim of the broadcast shape in turn (CANN's tiling: not always the same bits as
// 1/N). In the order of CANN's op_api (ops-nn loss/l1_loss_grad/op_api/aclnn_l1_loss_backward.cpp): the
// reduction, the promoted dtype castable to gradInput's and in the SoC's list, the ranks, the broadcast (self with
// gradOutput, then target), gradInput of the broadcast shape.
namespace aclnn_cpu {

ACLNN_CPU_OPERATOR_ROW(l1_loss_backward) =
    OperatorDescription(ACLNN_CPU_C_API(aclnnL1LossBackward), "l1_loss_backward",
                        "sign(self - target) * gradOutput, divided by N for mean")
        .Inputs({operator_rows::kGradOutput, operator_rows::kSelf, operator_rows::kTarget}, 1)
        .Out("gradInput")
        .Parameters({operator_rows::kReduction})
        .Result(ResultRule::kGradient)
        .Dtypes(&validation::kFloatTypesBf16FromAtlasA2)
        .Reference(&references::L1LossGrad)
        .WarnsOfFractalNz();

}  // namespace aclnn_cpu

namespace {

const aclnn_cpu::OperatorDescription& kGradientRow = aclnn_cpu::kOperatorRow_l1_loss_backward;

}  // namespace

extern "C" {

aclnnStatus aclnnL1LossBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                const aclTensor* target, int64_t reduction, aclTensor* gradInput,
                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
    using namespace aclnn_cpu;
    namespace checks = validation::checks;
    return engine::GuardCBoundary(kGradientRow.phase1_name, [&]() -> aclnnStatus {
        engine::ElementwiseRequest request =
            ops::RequestFor(kGradientRow, {gradOutput, self, target}, gradInput, workspaceSize, executor);
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
            description.choose_kernel = &ops::l1_loss::ChooseGradientKernel;
            if (reduction == 1) {
                float norm = 1.0f;
                for (int64_t dim : validated.broadcast_shape) norm = norm / static_cast<float>(dim);
                description.input_scale = norm;
            }
            return description;
        };
        return engine::PlanElementwiseOperator(request);
    });
}

aclnnStatus aclnnL1LossBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                aclrtStream stream) {
    return aclnn_cpu::ops::Run(kGradientRow, workspace, workspaceSize, executor, stream);
}

}  // extern "C"

#endif  // HWY_ONCE
