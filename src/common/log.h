// Logging in the way CANN users configure it: ASCEND_GLOBAL_LOG_LEVEL (0 debug, 1 info, 2 warning, 3 error,
// 4 none; default 3) selects what is printed. Printing happens on stdout when ASCEND_SLOG_PRINT_TO_STDOUT=1,
// on stderr when only ASCEND_GLOBAL_LOG_LEVEL is set, and not at all otherwise (CANN logs to files).
#pragma once

#include "common/export.h"

namespace aclnn_cpu {

enum class LogLevel { kDebug = 0, kInfo = 1, kWarning = 2, kError = 3 };

ACLNN_CPU_INTERNAL bool LogEnabled(LogLevel level);
ACLNN_CPU_INTERNAL void Log(LogLevel level, const char* format, ...) __attribute__((format(printf, 2, 3)));

}  // namespace aclnn_cpu
