// The checks the two binary cross-entropy-with-logits operators have of their own (ops-nn
// loss/sigmoid_cross_entropy_with_logits_v2 and ..._grad_v2, op_api): the exact-shape rules between self, target
// and out, the optional inputs' broadcast to target's or self's shape, out's dtype tied to target's, and the
// backward's storage formats. Each is a validation step with CANN's status and message.
#pragma once

#include "validation/broadcast_validation.h"

namespace aclnn_cpu::ops::binary_cross_entropy_with_logits {

// The lists of both operators: validation::kHalfFirstTypesBf16FromAtlasA2. (The forward's op_api tests a
// SocVersion range, Ascend910B to Ascend910E; the two differ only for Ascend910E and Ascend 350,
// docs/compatibility.md.)
inline constexpr const validation::DtypeSupport* kDtypes = &validation::kHalfFirstTypesBf16FromAtlasA2;

// OP_CHECK_DTYPE_NOT_MATCH(checked, expected's dtype): "Tensor <checked> expected dtype is <expected's> but
// found <checked's>."
validation::CheckStep DtypeMatches(int checked, int expected);

// The forward's shapes: self's and target's equal, then (unless target is empty) weightOptional's and
// posWeightOptional's each broadcast with target's -- and, aclnn-cpu's rule where CANN's result is not
// documented, to no larger a shape.
validation::CheckStep ForwardShapes();

// The backward's storage formats: self's equal to target's and to out's.
validation::CheckStep BackwardFormats();

// The backward's shapes (skipped where self is empty, as CANN does): self's equal to target's and out's, then
// gradOutput, weightOptional and posWeightOptional each broadcast to exactly self's shape.
validation::CheckStep BackwardShapes();

}  // namespace aclnn_cpu::ops::binary_cross_entropy_with_logits
