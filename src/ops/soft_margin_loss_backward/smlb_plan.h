// The execution plan of aclnnSoftMarginLossBackward, built by phase 1 from validated arguments: dtypes,
// coefficient, the iteration shape over the broadcast shape, and the workspace needed when out overlaps an
// input. Phase 2 binds the tensors' current addresses and runs one fused pass.
#pragma once

#include <memory>

#include "engine/iteration_shape.h"
#include "executor/op_plan.h"
#include "kernels/smlb_row_kernel.h"
#include "ops/soft_margin_loss_backward/smlb_validate.h"

namespace aclnn_cpu::ops::smlb {

class SmlbPlan final : public OpPlan, public std::enable_shared_from_this<SmlbPlan> {
public:
    SmlbPlan(const Arguments& args, const ValidatedShapes& shapes);

    // Check 10 against the tensors' current data addresses; also decides the workspace for an overlapping
    // out. Called by phase 1; Bind repeats the address checks for the addresses of phase 2.
    aclnnStatus CheckAddressesAndSizeWorkspace(const char* caller);

    uint64_t WorkspaceSize() const override { return workspace_size_; }
    aclnnStatus Bind(void* workspace, uint64_t workspace_size, rt::Task* task) const override;
    bool IsSmall() const override;

private:
    // Reads the four data addresses and checks them; on success fills bases (with each view's offset applied).
    aclnnStatus ResolveAddresses(const char* caller, engine::OperandPointers* bases) const;
    // True when out shares bytes with an input in any way other than being the very same view.
    bool OutNeedsStaging(const engine::OperandPointers& bases) const;
    void Compute(const engine::IterationShape& shape, const engine::OperandPointers& bases, int threads) const;
    void Run(const engine::OperandPointers& bases, char* staging, int threads) const;

    const aclTensor* tensors_[4];
    ViewExtent extents_[4];
    engine::IterationShape shape_;
    kernels::SmlbTypes types_;
    float cof_ = 1.0f;
    uint64_t workspace_size_ = 0;
};

}  // namespace aclnn_cpu::ops::smlb
