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

}  // namespace

bool LogEnabled(LogLevel level) { return static_cast<int>(level) >= ThresholdFromEnvironment(); }

void Log(LogLevel level, const char* format, ...) {
    if (!LogEnabled(level)) return;
    const char* to_stdout = std::getenv("ASCEND_SLOG_PRINT_TO_STDOUT");
    FILE* stream = (to_stdout != nullptr && std::strcmp(to_stdout, "1") == 0) ? stdout : stderr;
    char buffer[1024];
    va_list args;
    va_start(args, format);
    std::vsnprintf(buffer, sizeof buffer, format, args);
    va_end(args);
    std::fprintf(stream, "[%s] aclnn-cpu: %s\n", LevelName(level), buffer);
}

}  // namespace aclnn_cpu
