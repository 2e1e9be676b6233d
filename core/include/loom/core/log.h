#pragma once
// Diagnostics printed under the PrintDebugMessages debug key.
#include <cstdarg>

namespace loom::core {

// printf-style; prints "[loom] <message>" to stderr when LOOM_PrintDebugMessages=1.
void debugMessage(const char* format, ...) __attribute__((format(printf, 1, 2)));

}  // namespace loom::core
