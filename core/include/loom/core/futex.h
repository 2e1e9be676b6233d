#pragma once
// Waiting on a 32-bit word that may live in memory shared between processes (IPC events).
#include <cstdint>

namespace loom::core {

// Blocks while *word == expected, at most timeoutNs (UINT64_MAX waits forever).
// Returns false on timeout. Spurious wake-ups return true; callers re-check.
bool futexWait(const uint32_t* word, uint32_t expected, uint64_t timeoutNs);
void futexWakeAll(const uint32_t* word);

// Monotonic nanoseconds: the clock of every Loom timestamp on the CPU.
uint64_t monotonicNanoseconds();

}  // namespace loom::core
