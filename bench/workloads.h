// The benchmark's workloads: set up once, then run any number of times. Each knows the bytes it moves and
// the elements it produces per run, for the bytes/s and elements/s counters.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "ops/operator_table.h"

namespace bench {

class Workload {
public:
    virtual ~Workload() = default;
    virtual void Run() = 0;
    int64_t bytes() const { return bytes_; }
    int64_t items() const { return items_; }
    // Empty when set-up succeeded.
    const std::string& error() const { return error_; }
    // The data of those of its operands that hold at least min_bytes, in operand order, for a comparison loop
    // to run over the very same memory; empty where it has none to lend.
    virtual std::vector<void*> Buffers(int64_t /*min_bytes*/) const { return {}; }

protected:
    int64_t bytes_ = 0;
    int64_t items_ = 0;
    std::string error_;
};

// The row the engine's scenarios run on: the table's first gradient of three inputs (or, loss, the first loss of
// two) that broadcast freely, are read, and may each have any dtype of the lists (aclnnSoftMarginLossBackward and
// aclnnSoftMarginLoss, the table's first rows).
const aclnn_cpu::OperatorDescription& ScenarioRow(bool loss);

// An operator through the public API: a repeatable executor; each run is phase 2 plus a stream sync. The
// engine's scenarios on ScenarioRow, each tensor placed by its role: the gradient (mean): variant full,
// scalar_grad, broadcast_target ([n/64, 64] with a [n/64, 1] target), transposed_self ([s, s] with self stored
// transposed), mixed (bf16 grad, f32 self, f16 target, f16 out); the loss: loss_none (out of n elements),
// loss_mean (0-d out).
std::unique_ptr<Workload> MakeOperator(const std::string& variant, aclDataType type, int64_t n, int threads);

// Which inputs of a table row's workload hold integers: none; every input and out INT64 (an operator that
// computes integers, under none or sum); or the target INT32 beside fp32 inputs (read in the promote type).
enum class IntegerInputs { kNone, kAllInt64, kInt32Target };

// How a table row's workload lays out its tensors.
struct TableForm {
    bool optional_given = true;  // optional inputs given (of n elements), or left out
    bool hard_labels = false;    // probability labels (aclnn_cpu::IsProbabilityLabel) 0 or 1, not uniform in (0, 1)
    bool summed_back = false;    // self [1, 1024], the others [n/1024, 1024]: the gradient summed back into 1024
    IntegerInputs integers = IntegerInputs::kNone;
};

// A row of the operator table (ops/operator_table.h) through its own phase functions, on fp32 inputs of n
// elements (unless form.integers says otherwise) with the row's default parameters and the given reduction: out
// is n elements unless the reduction reduces (0-d; a row summing over the first dim takes [n/1024, 1024] inputs
// and writes 1024).
std::unique_ptr<Workload> MakeTableOperator(const aclnn_cpu::OperatorDescription& row, int64_t reduction, int64_t n,
                                            int threads, const TableForm& form = {});

// A row along a dim or by class rows (softmax's family, the fused cross-entropy) on [rows, classes] of `type`, its
// mean where it has a reduction; bytes: its tensors of rows x classes elements.
std::unique_ptr<Workload> MakeClassRowOperator(const aclnn_cpu::OperatorDescription& row, aclDataType type,
                                               int64_t rows, int64_t classes, int threads);

// Plain loops with the operator's traffic: reads + 1 write of element_size-byte elements (8: 2 reads, int64). Given a partner
// (the operator it is paired with), the loop reads the first `reads` of its buffers of n elements and writes
// the last: the same pages as the operator, so the pair's ratio does not depend on where two separate
// allocations landed in physical memory (a partner with too few such buffers makes error() non-empty).
// Without one it allocates its own.
std::unique_ptr<Workload> MakePlainLoop(int reads, int element_size, int64_t n, int threads,
                                        const Workload* partner = nullptr);

// The plain 2-read sum loop (sum of a[i] * b[i]), the forward mean/sum's yardstick; over the partner's first
// two buffers of n fp32 elements where it lends them, as MakePlainLoop.
// reads: 2 (the forward's traffic) to 4 (a loss's mean with its weights).
std::unique_ptr<Workload> MakePlainSum(int64_t n, int threads, const Workload* partner = nullptr, int reads = 2);
// The 2-read sum of int64 elements (a[i] ^ b[i], wrapping), an integer sum's yardstick.
std::unique_ptr<Workload> MakePlainIntegerSum(int64_t n, int threads, const Workload* partner);
// The 2-read sum over the first dim of [n/1024, 1024] into 1024 float64 column sums: a column sum's traffic.
std::unique_ptr<Workload> MakePlainColumnSum(int64_t n, int threads, const Workload* partner);

// PyTorch's evaluation: one pass per arithmetic step, with temporaries allocated on every run as PyTorch's
// CPU allocator does (fresh_temporaries) or allocated once and kept warm.
std::unique_ptr<Workload> MakeComposite(int64_t n, int threads, bool fresh_temporaries);

// The scalar reference kernel (bench/comparison_kernels.h) over contiguous fp32 data.
std::unique_ptr<Workload> MakeScalarReference(int64_t n, int threads);

}  // namespace bench
