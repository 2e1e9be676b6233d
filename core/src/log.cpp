#include "loom/core/log.h"

#include <cstdio>

#include "loom/core/debug_keys.h"

namespace loom::core {

void debugMessage(const char* format, ...) {
  if (!debugKeys().PrintDebugMessages) return;
  char buffer[1024];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buffer, sizeof(buffer), format, args);
  va_end(args);
  std::fprintf(stderr, "[loom] %s\n", buffer);
}

}  // namespace loom::core
