// Validation steps for operators whose op_api ties shapes, dtypes and formats to one tensor's rather than
// broadcasting them all together (the binary cross-entropy losses): each with CANN's status (161002) and the
// message text of the op_api macro it follows. Tensors are named by index as in broadcast_validation.h.
#pragma once

#include <vector>

#include "validation/broadcast_validation.h"

namespace aclnn_cpu::validation::checks {

// OP_CHECK_DTYPE_NOT_MATCH(checked, expected's dtype): "Tensor <checked> expected dtype is <expected's> but
// found <checked's>." Skipped where either tensor is absent.
CheckStep DtypeMatches(int checked, int expected);

// OP_CHECK_SHAPE_NOT_EQUAL(a, b): "Expected tensor for <a> to have same size as tensor for <b>, but <a's> does
// not equal <b's>."
CheckStep ShapesEqual(int a, int b);

// OP_CHECK_BROADCAST_AND_INFER_SHAPE(first, second) ("The size of tensor <first> <shape> must match the size of
// tensor <second> <shape>."), then the result must be the shape of `shape_of`, else `mismatch_message` (which
// may take the first's, the second's and the result's shapes, in that order). Skipped where first or second is
// absent.
CheckStep BroadcastsToShapeOf(int first, int second, int shape_of, const char* mismatch_message);

// CANN's storage-format rule: "Format of <a> and <b> can't be different, <a> [<a's>], <b> [<b's>]." Skipped
// where b is absent.
CheckStep StorageFormatsEqual(int a, int b);

// The steps, run only where `tensor` has elements (CANN skips its shape checks for an empty self).
CheckStep UnlessEmpty(int tensor, std::vector<CheckStep> steps);

// The steps of the operators along a dim (the softmax family), with their op_api's texts.

// CANN's early return: where `when` holds and any listed tensor has no elements, phase 1 succeeds here with
// nothing to compute, before the remaining checks.
CheckStep SucceedIfEmpty(std::vector<int> tensors, bool when = true);

// On chips outside Atlas A2/A3 and Ascend 950 (SocVersion outside [ASCEND910B, ASCEND910E]), a listed tensor of
// dtype BFLOAT16 gives `message` (161002).
CheckStep NoBf16OnOlderChips(std::vector<int> tensors, const char* message);

// dim in [-rank, rank - 1] of `tensor` (a 0-d tensor counts as rank 1): "provided dim <dim> not in the range of
// input size <rank>." (161002).
CheckStep DimInRange(int tensor, int64_t dim);

}  // namespace aclnn_cpu::validation::checks
