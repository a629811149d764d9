// The engine's plan of a broadcasting elementwise operator, built by phase 1 from validated arguments and
// an operator's description, in the manner of PyTorch's TensorIterator: the operand table, the iteration
// shape (broadcast, reordered and coalesced once), the tile kernel chosen for the dtypes and strides, the
// workspace an overlapping out needs, and the small-call decision. Phase 2 binds the tensors' current
// addresses (checking them again) and runs one fused pass, on threads, storing every element or summing them.
#pragma once

#include <memory>
#include <vector>

#include "engine/iteration_shape.h"
#include "executor/op_plan.h"
#include "kernels/tile_kernel.h"
#include "validation/tensor_checks.h"

namespace aclnn_cpu::engine {

// One row of the operand table: the inputs first, the output last.
struct PlanOperand {
    const aclTensor* tensor;
    const char* name;       // the argument's name, for messages
    validation::ViewExtent extent; // from validation
    // >= 0: an absent optional input read as 1 of this dtype everywhere (tensor is null), as CANN's op_api
    // passes a tensor of ones for it.
    int32_t ones_type = -1;
};

// How a kSum result becomes a mean (N = numel of the broadcast shape): CANN's kernels differ.
enum class MeanRule : uint8_t {
    kNone,             // a sum
    kTimesReciprocal,  // the fp32 sum times 1.0f / (float)N (the reduce template's Muls by meanVar)
    kDividedByCount,   // the fp32 sum divided by (float)N
};

// What an operator tells the engine besides its operands.
struct ElementwiseDescription {
    const char* phase2_name = "";                      // for messages in phase 2
    kernels::TileKernelChooser choose_kernel = nullptr;  // the operator's dispatched ChooseTileKernel
    kernels::OutputMode output = kernels::OutputMode::kStore;
    float input_scale = 1.0f;              // for the functor's scaled input (kStore)
    kernels::FunctorParameters parameters;  // what the operator's functor is built from (beta, a coefficient)
    MeanRule mean = MeanRule::kNone;       // kSum, or sum_back: how a sum becomes a mean
    // kStore: rather than stored, the values are summed back to out's shape: over the dims of the broadcast shape
    // S that out (aligned with S's trailing dims) lacks, or holds as 1 where S does not, each value rounded to
    // the promote type first -- CANN's elementwise result then a ReduceSum or ReduceMean over those dims
    // (aclnnMseLossOut's first dim, aclnnKlDivBackward's dims where self broadcasts against target).
    bool sum_back = false;
    // sum_back over an empty S: out is left as it was (CANN's op_api returns before computing), or, true, each
    // element is the sum of nothing, 0 (a ReduceSum of an empty tensor).
    bool empty_sum_writes_zero = false;
    // sum_back: the operator's chooser of a kernel that adds into the columns' sums directly (one
    // pass), or nullptr (every tile is stored into an L1 buffer that is then added).
    kernels::ColumnSumKernelChooser choose_column_sum_kernel = nullptr;
    // Not null: the call computes in int64 (its promote type is an integer one) through this function rather than
    // the tile kernels; kStore stores each result in out's dtype, kSum adds them in int64 (wrapping, so in any
    // order the same) into out. No mean.
    kernels::IntegerBlockFunction integer_block = nullptr;
    // The inputs' promoted dtype where an input the kernel does not read takes part (a shape-only input), or
    // -1: the promotion of the operands' dtypes.
    int32_t promote_type = -1;
};

class ElementwisePlan final : public OpPlan, public std::enable_shared_from_this<ElementwisePlan> {
public:
    // broadcast_shape: S, validated; operands: the inputs, then out (of shape S for kStore, 0-d for kSum).
    ElementwisePlan(const ElementwiseDescription& description, std::vector<PlanOperand> operands,
                    const std::vector<int64_t>& broadcast_shape);

    // The address checks (strict memory) against the tensors' current data addresses, and the workspace for
    // an out that overlaps an input. Called by phase 1; Bind repeats the checks for the addresses of phase 2.
    aclnnStatus CheckAddressesAndSizeWorkspace(const char* caller);

    uint64_t WorkspaceSize() const override { return workspace_size_; }
    aclnnStatus Bind(void* workspace, uint64_t workspace_size, rt::Task* task) const override;
    bool IsSmall() const override;

private:
    int output_index() const { return config_.num_inputs; }
    // Reads the operands' data addresses and checks them; on success fills bases (each view's offset applied).
    aclnnStatus ResolveAddresses(const char* caller, OperandPointers* bases) const;
    // True when out shares bytes with an input in any way other than being the very same view.
    bool OutNeedsStaging(const OperandPointers& bases) const;
    void Store(const IterationShape& shape, const OperandPointers& bases, int threads) const;
    // sum_back: each column's (out element's) float64 sum over its rows, in increasing order, then out.
    // sums: room for columns_ * RowChunks() partial sums; the columns' sums end in the first columns_.
    void SumBack(const OperandPointers& bases, double* sums, int threads) const;
    // How many chunks the rows are cut into for the threads (fixed by the shape, not the thread count).
    int64_t RowChunks() const;
    void StoreThroughStaging(const OperandPointers& bases, char* staging, int threads) const;
    // The integer path: the n elements of one row through integer_block_, stored into out (sum == nullptr) or
    // added to *sum.
    void IntegerRow(const IterationShape& shape, const OperandPointers& row, int64_t n, uint64_t* sum) const;
    // The integer sum of every element.
    uint64_t IntegerSum(const OperandPointers& bases, int threads) const;
    // The kSum result: the sum of every element's fp32 value (times 1/N for mean), as fp32.
    float Sum(const OperandPointers& bases, double* chunk_sums, int threads) const;
    int64_t SumChunks() const;

    const char* phase2_name_;
    std::vector<PlanOperand> operands_;
    IterationShape shape_;
    kernels::KernelConfig config_;
    kernels::TileKernel kernel_ = nullptr;
    MeanRule mean_ = MeanRule::kNone;
    kernels::IntegerBlockFunction integer_block_ = nullptr;
    uint64_t workspace_size_ = 0;
    // sum_back: S's summed dims go first and out's after, so that S in that order is summed_rows_ rows of
    // columns_ columns (out's elements); out's dtype (the kernel stores fp32 into a buffer), and the walk from
    // the columns' dense sums to out.
    bool sum_back_ = false;
    bool empty_sum_writes_zero_ = false;
    kernels::ColumnSumKernel column_sum_kernel_ = nullptr;  // chosen in phase 1; nullptr: the buffered path
    int64_t summed_rows_ = 0;
    int64_t columns_ = 0;
    kernels::ElementType reduced_out_type_ = kernels::ElementType::kFloat32;
    IterationShape column_shape_;
};

// The number of elements of shape (validated: no overflow).
int64_t ElementCount(const std::vector<int64_t>& shape);

}  // namespace aclnn_cpu::engine
