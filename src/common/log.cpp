#include "common/log.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace aclnn_cpu {
namespace {

int ThresholdFromEnvironment() {
    const char* value = std::getenv("ASCEND_GLOBAL_LOG_LEVEL");
    if (value == nullptr || value[0] < '0' || value[0] > '4' || value[1] != '\0') return 3;
    return value[0] - '0';  // 4 (CANN's "null") prints nothing
}

const char* LevelName(LogLevel level) {
    switch (level) {
        case LogLevel::kDebug: return "DEBUG";
        case LogLevel::kInfo: return "INFO";
        case LogLevel::kWarning: return "WARNING";
        case LogLevel::kError: return "ERROR";
    }
    return "?";
}

bool PrintToStdout() {
    const char* value = std::getenv("ASCEND_SLOG_PRINT_TO_STDOUT");
    return value != nullptr && std::strcmp(value, "1") == 0;
}

}  // namespace

// CANN writes its logs to log files, not the terminal, unless ASCEND_SLOG_PRINT_TO_STDOUT=1. aclnn-cpu has no
// log files: it prints to stdout in that case, to stderr when ASCEND_GLOBAL_LOG_LEVEL is set, and otherwise
// keeps quiet (the messages stay available through aclGetRecentErrMsg()).
bool LogEnabled(LogLevel level) {
    if (!PrintToStdout() && std::getenv("ASCEND_GLOBAL_LOG_LEVEL") == nullptr) return false;
    return static_cast<int>(level) >= ThresholdFromEnvironment();
}

void Log(LogLevel level, const char* format, ...) {
    if (!LogEnabled(level)) return;
    FILE* stream = PrintToStdout() ? stdout : stderr;
    char buffer[1024];
    va_list args;
    va_start(args, format);
    std::vsnprintf(buffer, sizeof buffer, format, args);
    va_end(args);
    std::fprintf(stream, "[%s] aclnn-cpu: %s\n", LevelName(level), buffer);
}

}  // namespace aclnn_cpu
