// Which of the softmax family's row kernels a call runs (softmax_rows-inl.h).
#pragma once

#include <cstdint>

#include "engine/along_dim_plan.h"

namespace aclnn_cpu::ops::softmax {

enum class RowKind : uint8_t { kSoftmax, kLogSoftmax, kSoftmaxBackward, kLogSoftmaxBackward };

}  // namespace aclnn_cpu::ops::softmax
