#pragma once
// Threads do not survive fork(): objects that own threads remember the process generation they
// were created in and, in a forked child, do their work on the calling thread instead.
#include <cstdint>

namespace loom::core {

// Changes in a child process after each fork(); cheap enough for hot paths (no system call).
uint32_t processGeneration();

}  // namespace loom::core
