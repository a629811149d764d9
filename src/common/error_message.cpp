#include "common/error_message.h"

#include <cstdarg>
#include <cstdio>
#include <string>

#include "acl/acl_rt.h"
#include "common/log.h"

namespace aclnn_cpu {
namespace {
thread_local std::string t_recent_message;
}  // namespace

void SetErrorMessage(const char* format, ...) {
    char buffer[1024];
    va_list args;
    va_start(args, format);
    std::vsnprintf(buffer, sizeof buffer, format, args);
    va_end(args);
    try {
        t_recent_message = buffer;
    } catch (...) {
        // Out of memory for the message itself: keep the previous one rather than fail the caller.
    }
    Log(LogLevel::kError, "%s", buffer);
}

}  // namespace aclnn_cpu

extern "C" const char* aclGetRecentErrMsg(void) {
    const std::string& message = aclnn_cpu::t_recent_message;
    return message.empty() ? nullptr : message.c_str();
}
