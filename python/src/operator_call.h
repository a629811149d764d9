// One call of an operator of the table (ops/operator_table.h) through the C API, exactly as a C++ program makes
// it -- aclCreateTensor, phase 1, an aclrtMalloc'd workspace, phase 2, stream sync -- on the caller's buffers,
// which are registered with aclrtHostRegister for the duration of the call (no copy; the strict memory checks
// stay on). Shared by the Python core (core_module.cpp) and the PyTorch kernels (torch_kernels.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ops/operator_table.h"

namespace aclnn_cpu::python {

// One operand as the caller describes it.
struct TensorSpec {
    bool absent = false;           // an optional input not given (a null aclTensor*)
    uintptr_t address = 0;
    int dtype = 0;                 // aclDataType
    std::vector<int64_t> shape;    // the view's dims
    std::vector<int64_t> strides;  // in elements, non-negative
    int64_t element_bytes = 4;
};

// A failed call: the status and "<function> returned <status>: <aclGetRecentErrMsg()>". status 0: success.
struct Failure {
    int64_t status = 0;
    std::string message;
};

// A host byte range to register for a call: (address, bytes).
using Region = std::pair<uintptr_t, uint64_t>;

// The byte range [begin, end) a view addresses; empty (begin == end) for a view with no elements.
std::pair<uintptr_t, uintptr_t> ByteRange(const TensorSpec& spec);

// The byte ranges of the operands, overlapping or touching ones merged, so each buffer is registered once.
std::vector<Region> MergeRanges(std::vector<std::pair<uintptr_t, uintptr_t>> ranges);

// Runs `row` on inputs (in the row's order) and its outputs (out, then aclnnNLLLoss's totalWeightOut), with the
// row's parameters in order. threads > 0 sets the operators' thread count for the call on this thread
// (aclnnCpuSetThreadCount); 0 leaves it alone. Returns an empty failure on success. Call without holding Python's
// GIL.
Failure RunOperator(const OperatorDescription& row, const std::vector<TensorSpec>& inputs,
                    const std::vector<TensorSpec>& outs, const std::vector<double>& parameters,
                    const std::vector<Region>& regions, int threads);

}  // namespace aclnn_cpu::python
