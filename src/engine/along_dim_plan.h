// The engine's plan of an operator along one dim (the softmax family): the tensors share one shape, and the
// result at each position depends on the whole line of elements through it along `dim` (a row). Phase 1 splits
// the shape into that dim and the rest once (the rest coalesced where every operand allows, in the manner of
// the elementwise plan); phase 2 hands whole rows to threads, so each row is computed by one thread in a fixed
// order and the results are the same bits for any thread count and layout. A row reaches its kernel as
// contiguous values of the compute type: in place where the tensors are FLOAT and contiguous along the dim, by
// vector widening and narrowing where they are contiguous FLOAT16 or BFLOAT16, else gathered into a buffer and
// scattered back with the casts CANN's op_api makes around its kernel.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "engine/elementwise_plan.h"
#include "executor/op_plan.h"

namespace aclnn_cpu::engine {

constexpr int kMaxAlongDimInputs = 2;

// A row's computation: n values of each input (contiguous) into n results. out may be one of the inputs (the
// very same values): a kernel reads an element before it writes the element at the same index.
using FloatRowKernel = void (*)(const float* const* inputs, int64_t n, float* out);
using DoubleRowKernel = void (*)(const double* const* inputs, int64_t n, double* out);

struct AlongDimDescription {
    const char* phase2_name = "";
    FloatRowKernel float_row = nullptr;    // computes FLOAT, FLOAT16 and BFLOAT16 calls (in fp32)
    DoubleRowKernel double_row = nullptr;  // computes DOUBLE calls (CANN's AICPU kernels), or nullptr
    // The dtype the kernel runs in: its results are rounded to it, then cast to out's dtype.
    int32_t compute_type = ACL_FLOAT;
    // Each input is first cast to this dtype (aclnnLogSoftmax casts self to out's), or -1: read as it is.
    int32_t input_cast_type = -1;
};

class AlongDimPlan final : public OpPlan, public std::enable_shared_from_this<AlongDimPlan> {
public:
    // operands: the inputs, then out, all of view shape `shape` (a 0-d shape is taken as [1]); dim in
    // [-rank, rank - 1], validated. An empty shape computes nothing.
    AlongDimPlan(const AlongDimDescription& description, std::vector<PlanOperand> operands,
                 const std::vector<int64_t>& shape, int64_t dim);

    aclnnStatus CheckAddressesAndSizeWorkspace(const char* caller);
    uint64_t WorkspaceSize() const override { return workspace_size_; }
    aclnnStatus Bind(void* workspace, uint64_t workspace_size, rt::Task* task) const override;
    bool IsSmall() const override;

private:
    // The walks: the inputs, out, and a dense staging buffer of out's dtype (for an out that overlaps an input).
    static constexpr int kWalks = kMaxAlongDimInputs + 2;
    using Bases = std::array<char*, kWalks>;
    int out_walk() const { return inputs_; }
    int staging_walk() const { return inputs_ + 1; }
    aclnnStatus ResolveAddresses(const char* caller, Bases* bases) const;
    bool OutNeedsStaging(const Bases& bases) const;
    uint64_t StagingBytes() const;  // a dense copy of out
    // Computes rows [begin, end) into the walk `into` (out, or staging); false where its buffers could not be
    // allocated.
    bool ComputeRows(const Bases& bases, int into, int64_t begin, int64_t end) const;
    // Copies rows [begin, end) from staging to out.
    void CopyRows(const Bases& bases, int64_t begin, int64_t end) const;
    // Runs fn(begin, end) over slices of rows on the threads; false where a slice returned false.
    template <class SliceFn>
    bool ForRowSlices(int threads, SliceFn&& fn) const;
    // How a row of walk k reaches the fp32 kernel: in place (contiguous FLOAT read as it is), by the vector
    // conversions (contiguous FLOAT16 or BFLOAT16 whose cast changes no value), or element by element.
    enum class RowAccess { kInPlace, kVector, kScalar };
    RowAccess Access(int k) const;
    // Rows [begin, end) where every operand's access is in place or by vector; false where a buffer could not be
    // allocated.
    bool ComputeVectorRows(const Bases& bases, int into, int64_t begin, int64_t end) const;
    // The byte offset of row `row` in walk k.
    int64_t RowOffset(int k, int64_t row) const;

    AlongDimDescription description_;
    std::vector<PlanOperand> operands_;
    int inputs_ = 0;
    int32_t types_[kWalks] = {};  // the staging walk has out's dtype
    int64_t row_length_ = 0;      // the dim's size
    int64_t rows_ = 0;
    int64_t numel_ = 0;
    int64_t row_strides_[kWalks] = {};  // bytes between a row's elements, per walk
    // The other dims, coalesced, outermost first, and their byte strides per walk.
    std::vector<int64_t> outer_sizes_;
    std::vector<std::array<int64_t, kWalks>> outer_strides_;
    uint64_t workspace_size_ = 0;
};

}  // namespace aclnn_cpu::engine
