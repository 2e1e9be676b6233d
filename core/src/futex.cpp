#include "loom/core/futex.h"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <ctime>

namespace loom::core {

// Shared (not FUTEX_PRIVATE) operations so that waits work on memory mapped by several processes.
bool futexWait(const uint32_t* word, uint32_t expected, uint64_t timeoutNs) {
  timespec relative{};
  timespec* timeout = nullptr;
  if (timeoutNs != UINT64_MAX) {
    relative.tv_sec = static_cast<time_t>(timeoutNs / 1000000000ull);
    relative.tv_nsec = static_cast<long>(timeoutNs % 1000000000ull);
    timeout = &relative;
  }
  long rc = syscall(SYS_futex, word, FUTEX_WAIT, expected, timeout, nullptr, 0);
  return !(rc == -1 && errno == ETIMEDOUT);
}

void futexWakeAll(const uint32_t* word) { syscall(SYS_futex, word, FUTEX_WAKE, INT32_MAX, nullptr, nullptr, 0); }

uint64_t monotonicNanoseconds() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC_RAW, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1000000000ull + static_cast<uint64_t>(now.tv_nsec);
}

}  // namespace loom::core
