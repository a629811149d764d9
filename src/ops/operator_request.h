// Phase 1's request and phase 2's call from an operator's row, so that a phase 1 states only what its row
// cannot: the checks in CANN's order and the description of the computation.
#pragma once

#include <initializer_list>

#include "engine/along_dim_operator.h"
#include "engine/elementwise_operator.h"
#include "ops/operator_table.h"

namespace aclnn_cpu::ops {

// The request of a call: phase 1's and phase 2's names, the tensors under their CANN names (an optional input may
// be null; one whose values the arithmetic does not read is checked and broadcast only), the dtype lists, the
// FRACTAL_NZ warning, phase 1's output pointers.
inline engine::ElementwiseRequest RequestFor(const OperatorDescription& row,
                                             std::initializer_list<const aclTensor*> inputs, const aclTensor* out,
                                             uint64_t* workspace_size, aclOpExecutor** executor) {
    engine::ElementwiseRequest request(row.phase1_name, row.api_name, workspace_size, executor);
    const InputDescription* input = row.inputs;
    for (const aclTensor* tensor : inputs) {
        request.validation.inputs.push_back({tensor, MessageName(*input), input->optional, !input->values_read});
        ++input;
    }
    request.validation.out = {out, row.out_name};
    request.validation.dtypes = row.dtypes;
    request.nz_warning_input = row.warns_of_fractal_nz ? 0 : -1;
    return request;
}

// The request of a call of an operator along a dim (the row's Iteration::kAlongDim): RequestFor's, DOUBLE read
// and written as CANN's AICPU kernels do, and dim.
inline engine::AlongDimRequest AlongDimRequestFor(const OperatorDescription& row,
                                                  std::initializer_list<const aclTensor*> inputs,
                                                  const aclTensor* out, int64_t dim, uint64_t* workspace_size,
                                                  aclOpExecutor** executor) {
    engine::AlongDimRequest request;
    request.validation = RequestFor(row, inputs, out, workspace_size, executor).validation;
    request.validation.reads_double = true;
    request.phase2_name = row.api_name;
    request.dim = dim;
    return request;
}

// The dtype such a call computes in and the cast of its inputs before (-1: none), from the row: out's dtype, the
// inputs cast to it, where the row computes in out's dtype (aclnnLogSoftmax); else the first input's, uncast.
inline void SetComputeDtypes(const OperatorDescription& row, const aclTensor& first_input, const aclTensor& out,
                             engine::AlongDimDescription* description) {
    const bool to_out = row.computes_in_out_dtype && first_input.data_type != out.data_type;
    description->compute_type = row.computes_in_out_dtype ? out.data_type : first_input.data_type;
    description->input_cast_type = to_out ? out.data_type : -1;
}

// Phase 2 of the row's operator.
inline aclnnStatus Run(const OperatorDescription& row, void* workspace, uint64_t workspace_size,
                       aclOpExecutor* executor, aclrtStream stream) {
    return engine::RunElementwiseOperator(workspace, workspace_size, executor, stream, row.api_name);
}

}  // namespace aclnn_cpu::ops
