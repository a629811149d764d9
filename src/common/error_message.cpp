#include "common/error_message.h"

#include <cstdarg>
#include <cstdio>

#include "acl/acl_rt.h"
#include "common/log.h"

namespace aclnn_cpu {
namespace {
// A fixed buffer, not a std::string: recording an error must not need memory, since running out of it is
// one of the errors to report.
thread_local char t_recent_message[1024];
}  // namespace

void SetErrorMessage(const char* code, const char* format, ...) {
    const int prefix = std::snprintf(t_recent_message, sizeof t_recent_message, "%s: ", code);
    va_list args;
    va_start(args, format);
    std::vsnprintf(t_recent_message + prefix, sizeof t_recent_message - static_cast<size_t>(prefix), format, args);
    va_end(args);
    Log(LogLevel::kError, "%s", t_recent_message);
}

void RestoreErrorMessage(const char* message) {
    std::snprintf(t_recent_message, sizeof t_recent_message, "%s", message);
}

}  // namespace aclnn_cpu

extern "C" const char* aclGetRecentErrMsg(void) {
    const char* message = aclnn_cpu::t_recent_message;
    return message[0] == '\0' ? nullptr : message;
}
