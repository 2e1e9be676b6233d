#include "loom/core/event.h"

#include "loom/core/futex.h"
#include "loom/core/spin_wait.h"

namespace loom::core {

void Event::markStart(uint64_t timestamp) {
  storage_->timestamps.globalStart = timestamp;
  storage_->timestamps.contextStart = timestamp;
}

void Event::signal(uint64_t timestamp) {
  storage_->timestamps.globalEnd = timestamp;
  storage_->timestamps.contextEnd = timestamp;
  hostSignal();
}

void Event::hostSignal() {
  deviceState().store(1, std::memory_order_release);
  state().store(1, std::memory_order_release);
  futexWakeAll(&storage_->state);
}

void Event::fail(int32_t error) {
  std::atomic_ref<int32_t>(storage_->error).store(error, std::memory_order_relaxed);
  hostSignal();
}

void Event::reset() {
  storage_->timestamps = EventTimestamps{};
  std::atomic_ref<int32_t>(storage_->error).store(0, std::memory_order_relaxed);
  deviceState().store(0, std::memory_order_relaxed);
  state().store(0, std::memory_order_release);
}

bool Event::isSignaled() const { return state().load(std::memory_order_acquire) == 1; }

bool Event::hostSynchronize(uint64_t timeoutNs) const {
  if (isSignaled()) return true;
  if (timeoutNs == 0) return false;
  const uint64_t deadline = timeoutNs == UINT64_MAX ? UINT64_MAX : monotonicNanoseconds() + timeoutNs;
  if (spinUntil([&] { return isSignaled(); }, deadline, waitSpinNanoseconds(work_)))
    return true;
  while (!isSignaled()) {
    uint64_t now = monotonicNanoseconds();
    if (now >= deadline) return false;
    uint64_t remaining = deadline == UINT64_MAX ? UINT64_MAX : deadline - now;
    futexWait(&storage_->state, 0, remaining);
  }
  return true;
}

}  // namespace loom::core
