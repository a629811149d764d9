// The plan of the NLL losses (Iteration::kClassIndex): self [C], [N, C] or [N, C, d1, ...] holds a row of C class
// scores for each sample (N times d1 times ...), target one class index per sample, weight one factor per class.
// The forward reads each sample's score at its target class, the backward writes there (the rest of its result
// zero). A sample's target outside [0, C) that is not ignoreIndex fails the kernel before anything is written,
// and the stream's synchronisation returns 161002 naming it (CANN's kernel reads or writes outside the row then). Samples go to threads in fixed blocks whose
// float64 sums are added in block order, so a reduction has the same bits for any thread count and layout.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "engine/elementwise_plan.h"
#include "executor/op_plan.h"

namespace aclnn_cpu::ops::nll_loss {

enum class Direction : uint8_t { kForward, kBackward };

// The operands by role: the forward's self, target, weight, out, totalWeightOut; the backward's gradOutput,
// self, target, weight, totalWeight, out (a role a direction lacks stays null).
enum Operand : int { kSelf, kTarget, kWeight, kGradOutput, kTotalWeight, kOut, kTotalWeightOut, kOperands };

struct NllDescription {
    const char* phase2_name = "";
    Direction direction = Direction::kForward;
    int64_t reduction = 1;  // 0 none, 1 mean, 2 sum
    int64_t ignore_index = -100;
    // The dtype CANN's kernel computes this call in on the SoC: its results are rounded to it (from fp32), then
    // cast to out's dtype.
    int32_t kernel_type = ACL_FLOAT;
    // The older chips' backward casts the target to INT32 first (an INT64 index wraps).
    bool target_as_int32 = false;
    // Ascend 950's kernel of a 1-D self: the mean is -self[t] (the weight cancels) and an ignored target gives 0.
    bool one_sample_kernel = false;
    // CANN's op_api takes its empty-tensor path (fills, no kernel) although self has elements.
    bool empty = false;
};

class NllPlan final : public OpPlan, public std::enable_shared_from_this<NllPlan> {
public:
    // operands: indexed by Operand, null where the direction has no such tensor.
    NllPlan(const NllDescription& description, std::array<engine::PlanOperand, kOperands> operands);

    aclnnStatus CheckAddresses(const char* caller) const;
    uint64_t WorkspaceSize() const override { return 0; }
    aclnnStatus Bind(void* workspace, uint64_t workspace_size, rt::Task* task) const override;
    bool IsSmall() const override;

private:
    using Bases = std::array<char*, kOperands>;
    aclnnStatus ResolveAddresses(const char* caller, Bases* bases) const;
    // The first sample whose target is out of range, or -1; *value is that target.
    int64_t FirstBadTarget(const Bases& bases, int64_t* value) const;
    aclError RefuseTarget(const char* caller, int64_t sample, int64_t value) const;
    int64_t TargetAt(const Bases& bases, int64_t sample) const;
    bool Ignored(int64_t target) const { return target == description_.ignore_index; }
    // Byte offsets: of the score of sample p at class c in a tensor of self's shape (self, the backward's out),
    // and of element i of tensor k in its view's row-major order.
    int64_t ScoreOffset(int k, int64_t p, int64_t c) const;
    int64_t LinearOffset(int k, int64_t i) const;
    aclError Forward(const Bases& bases, int threads) const;
    aclError Backward(const Bases& bases, int threads) const;
    void ZeroFill(char* out, int threads) const;
    bool OutputsOverlapInputs(const Bases& bases) const;

    NllDescription description_;
    std::array<engine::PlanOperand, kOperands> operands_;
    int64_t classes_ = 0;
    int64_t samples_ = 0;       // N times d1 times ...
    int64_t per_batch_ = 1;     // d1 times ... (the samples of one n)
    int64_t self_elements_ = 0;
};

}  // namespace aclnn_cpu::ops::nll_loss
