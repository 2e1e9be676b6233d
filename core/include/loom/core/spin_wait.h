#pragma once
// Waiting for work that usually completes within microseconds (a CPU kernel, a GPU's round trip):
// spin first, so that the waiter sees it without a system call and the wake-up after it.
#include <sched.h>

#include <cstdint>

#include "loom/core/device_info.h"
#include "loom/core/futex.h"

namespace loom::core {

// How long waiters spin before they block.
constexpr uint64_t kSpinWaitNanoseconds = 50'000;
// How long waiters for a GPU spin, yielding: the driver's own waits spin too, since waking a
// sleeping thread costs tens of microseconds (an idle core's wake-up among them), which is still
// a percent of a few milliseconds of GPU work.
constexpr uint64_t kDeviceWaitSpinNanoseconds = 20'000'000;

// The one rule of both APIs and the engines for how long a host thread waiting for work on a
// device of `type` spins before it sleeps: work on a GPU keeps no core of this machine busy, so
// its waiters may spin (politely) while a wake-up would still cost a noticeable share of the
// wait; waiters for the CPU would take a core from the work they wait for.
constexpr uint64_t waitSpinNanoseconds(DeviceType type) {
  return type == DeviceType::Gpu ? kDeviceWaitSpinNanoseconds : kSpinWaitNanoseconds;
}

// True as soon as `done()` is; false once `nanoseconds` have passed (or `deadline`, a
// monotonicNanoseconds() time, if sooner) without it.
template <typename Done>
bool spinUntil(Done&& done, uint64_t deadline = UINT64_MAX, uint64_t nanoseconds = kSpinWaitNanoseconds) {
  const uint64_t start = monotonicNanoseconds();
  const uint64_t until = deadline - start < nanoseconds ? deadline : start + nanoseconds;
  for (uint32_t spin = 1;; ++spin) {
    if (done()) return true;
    if (spin % 64 != 0) continue;
    const uint64_t now = monotonicNanoseconds();
    if (now >= until) return false;
    // Past the first stretch, let other threads of this core run between polls.
    if (now - start >= kSpinWaitNanoseconds) sched_yield();
  }
}

}  // namespace loom::core
