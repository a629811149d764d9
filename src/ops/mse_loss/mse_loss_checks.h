// The phase-1 checks aclnnMseLoss and aclnnMseLossOut share: ops-nn's two op_api files
// (loss/mse_loss/op_api/aclnn_mse_loss.cpp, aclnn_mse_loss_out.cpp) check the same, in this order, with these
// texts; only out's shape rule differs, which each sets on its request.
#pragma once

#include <cstdint>
#include <vector>

#include "validation/broadcast_validation.h"

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
