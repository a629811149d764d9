// The plan of aclnnCrossEntropyLoss and aclnnCrossEntropyLossGrad (Iteration::kClassRows): a 2-D [N, C] tensor
// holds a row of C class scores per sample (the logits forward, logProb backward), target one class index per
// sample, the optional weight one factor per class. The forward computes each row's logProb (written whole) and
// the sample's loss from its target class (plus label smoothing's row sum); the backward writes each row from
// exp(logProb) and the sample's scale. Rows go to threads in fixed blocks whose float64 sums are added in block
// order, so a reduction has the same bits for any thread count and layout. A target outside [0, C) that is not
// ignored fails the kernel before anything is written (161002 at the stream's synchronisation; CANN's kernels
// read outside the row then).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "engine/elementwise_plan.h"
#include "executor/op_plan.h"

namespace aclnn_cpu::ops::cross_entropy {

enum class Direction : uint8_t { kForward, kBackward };

// The operands by role: the forward's input, target, weight, lossOut, logProbOut; the backward's logProb (as
// kScores), target, weight, gradLoss and out (as kOut). A role a call lacks stays null.
enum Operand : int { kScores, kTarget, kWeight, kGradLoss, kOut, kLogProbOut, kOperands };

// The row kernels, compiled per SIMD target (cross_entropy_rows-inl.h).
struct RowKernels {
    void (*log_prob)(const float* x, int64_t n, bool max_first, float* lp);
    float (*smoothing_sum)(const float* lp, const float* w, int64_t n);
    void (*scaled_exp)(const float* lp, int64_t n, float s, float* out);
    void (*add_smoothing)(const float* lp, const float* w, int64_t n, float k, float smooth, float* out);
};

struct CrossEntropyDescription {
    const char* phase2_name = "";
    Direction direction = Direction::kForward;
    int64_t reduction = 1;  // 0 none, 1 mean, 2 sum
    int64_t ignore_index = -100;
    float label_smoothing = 0;  // CANN's float attribute
    // Ascend 950's kernels: logProb as (x - max) - log(sum), its grouping of the mean and of the gradient's
    // label smoothing, an ignored sample's loss +0, and a gradient whose ignoreIndex ignores only where it is >= 0.
    // Else Atlas A2/A3's.
    bool register_based = false;
    RowKernels kernels{};
};

class CrossEntropyPlan final : public OpPlan, public std::enable_shared_from_this<CrossEntropyPlan> {
public:
    CrossEntropyPlan(const CrossEntropyDescription& description, std::array<engine::PlanOperand, kOperands> operands);

    aclnnStatus CheckAddresses(const char* caller) const;
    uint64_t WorkspaceSize() const override { return 0; }
    aclnnStatus Bind(void* workspace, uint64_t workspace_size, rt::Task* task) const override;
    bool IsSmall() const override;

private:
    using Bases = std::array<char*, kOperands>;
    struct Sums;
    aclnnStatus ResolveAddresses(const char* caller, Bases* bases) const;
    int64_t TargetAt(const Bases& bases, int64_t n) const;
    // Whether sample n's target counts for nothing, by the SoC's rule.
    bool Ignored(int64_t target) const;
    int64_t FirstBadTarget(const Bases& bases, int64_t* value) const;
    aclError RefuseTarget(int64_t sample, int64_t value) const;
    // Byte offset of [n, c] in tensor k (a 2-D view), of element i of a 1-D view.
    int64_t At(int k, int64_t n, int64_t c) const;
    int64_t At(int k, int64_t i) const;
    bool OutputsOverlapInputs(const Bases& bases) const;
    // Row n of tensor k as fp32 values: the tensor's own memory where it is FLOAT and dense along C, else `buffer`.
    const float* ReadRow(const Bases& bases, int k, int64_t n, float* buffer) const;
    void WriteRow(const Bases& bases, int k, int64_t n, const float* values) const;
    // Row n of tensor k where the kernels can read or write it in place (a FLOAT row, contiguous), else nullptr.
    float* RowInPlace(const Bases& bases, int k, int64_t n) const;
    // The weight's C values as fp32 into *values (left null without a weight); false where they cannot be allocated.
    bool LoadWeights(const Bases& bases, std::unique_ptr<float[]>* values) const;
    aclError Forward(const Bases& bases, int threads) const;
    aclError Backward(const Bases& bases, int threads) const;
    // The gradient's divisor: the mean's sum of the counted samples' weights (or their count).
    float MeanDivisor(const Bases& bases, const float* weight) const;

    CrossEntropyDescription description_;
    std::array<engine::PlanOperand, kOperands> operands_;
    int64_t rows_ = 0;
    int64_t classes_ = 0;
};

}  // namespace aclnn_cpu::ops::cross_entropy
