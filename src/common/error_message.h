// The thread-local "recent error" behind aclGetRecentErrMsg(). Every failing API call records one message
// that names the function, the argument and the rule it broke.
#pragma once

#include "common/export.h"

namespace aclnn_cpu {

// The codes CANN puts at the head of a message (its troubleshooting guide lists them): "EZ1001: <API>: <what is
// wrong with which argument>".
inline constexpr const char* kAclnnParameterError = "EZ1001";  // AclNN_Parameter_Error: an aclnn argument
inline constexpr const char* kAclnnInnerError = "EZ9999";      // an aclnn inner error
inline constexpr const char* kRuntimeArgumentError = "EE1001"; // RTS Invalid_Argument: a runtime argument
inline constexpr const char* kRuntimeInnerError = "EE9999";    // a runtime inner error (resources, a failed task)

// "<code>: " then the printf-style text; replaces the calling thread's recent message and also sends it to
// the error log. The text names the API, the argument and the rule.
ACLNN_CPU_INTERNAL void SetErrorMessage(const char* code, const char* format, ...)
    __attribute__((format(printf, 2, 3)));
// Sets a message that already carries its code (a stream task's failure, handed to the synchronising thread).
ACLNN_CPU_INTERNAL void RestoreErrorMessage(const char* message);

}  // namespace aclnn_cpu
