// The thread-local "recent error" behind aclGetRecentErrMsg(). Every failing API call records one message
// that names the function, the argument and the rule it broke.
#pragma once

#include "common/export.h"

namespace aclnn_cpu {

// printf-style; replaces the calling thread's recent message and also sends it to the error log.
ACLNN_CPU_INTERNAL void SetErrorMessage(const char* format, ...) __attribute__((format(printf, 1, 2)));

}  // namespace aclnn_cpu
