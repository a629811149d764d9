// aclnnL1Loss: |self - target| on the elementwise engine, in the order of CANN's op_api (ops-nn
// loss/lp_loss/op_api/aclnn_l1_loss.cpp): the reduction, the floating-type rules, the promoted dtype in the
// SoC's list and castable to out's, the ranks, the broadcast, out's shape (the broadcast shape for none, 0-d
// otherwise). An integer input is read in the promote type; an INT64 promote type computes in int64, as CANN's
// Sub, Abs and ReduceSum do.
#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_l1_loss.h"
#include "common/error_message.h"
#include "engine/elementwise_operator.h"
#include "ops/l1_loss/l1_loss_kernels.h"
#include "ops/operator_table.h"

namespace {

constexpr const char* kPhase1Name = "aclnnL1LossGetWorkspaceSize";
constexpr const char* kPhase2Name = "aclnnL1Loss";

// CANN's lists (GetDtypeSupportListV2's two): INT64 besides the floating types.
constexpr aclnn_cpu::validation::DtypeSupport kL1LossDtypes = {{{ACL_FLOAT, ACL_FLOAT16, ACL_INT64, ACL_BF16}, 4},
                                                    {{ACL_FLOAT, ACL_FLOAT16, ACL_INT64, 0}, 3}};

bool Floating(const aclTensor* t) {
    return t->data_type == ACL_FLOAT || t->data_type == ACL_FLOAT16 || t->data_type == ACL_BF16 ||
           t->data_type == ACL_DOUBLE;
}

// CANN's rules for non-floating inputs (those of PyTorch's CUDA kernel): with reduction none a non-floating self
// needs a non-floating target, and a mean needs one floating input.
aclnnStatus CheckFloatingTypes(const aclTensor* self, const aclTensor* target, int64_t reduction) {
    using aclnn_cpu::validation::CannDtypeName;
    if (reduction == 0 && !Floating(self) && Floating(target)) {
        aclnn_cpu::SetErrorMessage(aclnn_cpu::kAclnnParameterError,
                                   "%s: Input dtype should be either floating point or complex dtypes. Got %s instead.",
                                   kPhase1Name, CannDtypeName(self->data_type).c_str());
        return ACLNN_ERR_PARAM_INVALID;
    }
    if (reduction == 1 && !Floating(self) && !Floating(target)) {
        aclnn_cpu::SetErrorMessage(aclnn_cpu::kAclnnParameterError,
                                   "%s: Input dtype should be either floating point or complex dtypes. Got self %s and "
                                   "target %s instead.", kPhase1Name, CannDtypeName(self->data_type).c_str(),
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
    return engine::GuardCBoundary(kPhase1Name, [&]() -> aclnnStatus {
        engine::ElementwiseRequest request(kPhase1Name, workspaceSize, executor);
        request.validation.inputs = {{self, "self"}, {target, "target"}};
        request.validation.out = {out, "out"};
        request.validation.out_shape = validation::OutShapeRule::kScalar;
        request.validation.out_shape_message = "Expected out tensor shape to be %s, but got %s.";
        request.validation.dtypes = &kL1LossDtypes;
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
            engine::ElementwiseDescription description = engine::ReducedLoss(
                kPhase2Name, &ops::l1_loss::ChooseLossKernel, reduction, engine::MeanRule::kTimesReciprocal);
            if (integers) description.integer_block = &ops::l1_loss::IntegerLoss;
            return description;
        };
        request.nz_warning_input = 0;  // self
        return engine::PlanElementwiseOperator(request);
    });
}

aclnnStatus aclnnL1Loss(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
    return aclnn_cpu::engine::RunElementwiseOperator(workspace, workspaceSize, executor, stream, kPhase2Name);
}

}  // extern "C"

// The operator's row of the table every layer above the C API reads (ops/operator_table.h).
namespace aclnn_cpu {

ACLNN_CPU_OPERATOR_ROW(l1_loss) = {"l1_loss", "aclnnL1Loss", "|self - target| per element, or its mean or sum",
    2, {operator_rows::kSelf, operator_rows::kTarget}, 0,
    1, {operator_rows::kReduction},
    ResultRule::kLoss, MeanDivisor::kBroadcastElements, &kL1LossDtypes, false,
    &references::L1Loss, "l1_loss", AtenResultType::kPromoted, "l1_loss_backward", -1,
    [](const aclTensor* const* in, const double* p, aclTensor* out, uint64_t* size, aclOpExecutor** executor) {
        return aclnnL1LossGetWorkspaceSize(in[0], in[1], operator_rows::Int(p[0]), out, size, executor);
    },
    aclnnL1Loss};

}  // namespace aclnn_cpu
