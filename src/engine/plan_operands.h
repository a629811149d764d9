// The operands of the plans that address each tensor by role (the NLL losses', the fused cross-entropy's): their
// base addresses, admitted as every plan admits them (operand_address.h), and an element's place in a view.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "common/config.h"
#include "engine/elementwise_plan.h"
#include "engine/operand_address.h"
#include "validation/dtype_support.h"

namespace aclnn_cpu::engine {

// Each present operand's first byte into *bases (null for a role the call lacks), every operand addressed; the first
// refusal's status, with its message (ACLNN_ERR_PARAM_INVALID under the strict memory checks).
template <std::size_t N>
aclnnStatus AdmitPlanOperands(const char* caller, const std::array<PlanOperand, N>& operands,
                              std::array<char*, N>* bases) {
    const bool strict = StrictMemoryChecks();
    bases->fill(nullptr);
    for (std::size_t k = 0; k < N; ++k) {
        const PlanOperand& operand = operands[k];
        if (operand.tensor == nullptr) continue;
        const aclnnStatus status =
            AdmitOperandAddress(caller, operand.name, operand.tensor, operand.extent, true, strict, &(*bases)[k]);
        if (status != ACLNN_SUCCESS) return status;
    }
    return ACLNN_SUCCESS;
}

// The byte offset of element i, in row-major order of its view, of a tensor (from its data address plus offset).
inline int64_t ElementByteOffset(const aclTensor& t, int64_t i) {
    int64_t offset = 0;
    for (std::size_t d = t.view_dims.size(); d-- > 0;) {
        offset += i % t.view_dims[d] * t.strides[d];
        i /= t.view_dims[d];
    }
    return offset * validation::DtypeSize(t.data_type);
}

}  // namespace aclnn_cpu::engine
