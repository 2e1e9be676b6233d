#include "loom/core/event.h"

#include <algorithm>

#include "loom/core/futex.h"
#include "loom/core/spin_wait.h"
#include "loom/core/trace_recorder.h"

namespace loom::core {

namespace {
void setStart(EventTimestamps& timestamps, uint64_t start) { timestamps.globalStart = timestamps.contextStart = start; }
void setEnd(EventTimestamps& timestamps, uint64_t end) { timestamps.globalEnd = timestamps.contextEnd = end; }
}  // namespace

void Event::markStart(uint64_t timestamp) {
  if (tiles_) tiles_->count = 0;
  setStart(storage_->timestamps, timestamp);
}

void Event::signal(uint64_t timestamp) {
  setEnd(storage_->timestamps, timestamp);
  // Tiles timed apart at the start and not at the end (a start marked by an earlier submission).
  for (uint32_t tile = 0; tiles_ && tile < tiles_->count; ++tile) setEnd(tiles_->tiles[tile], timestamp);
  hostSignal();
}

void Event::markTileStarts(const std::vector<uint64_t>& starts) {
  setStart(storage_->timestamps, starts.empty() ? 0 : *std::min_element(starts.begin(), starts.end()));
  if (!tiles_) return;
  tiles_->count = static_cast<uint32_t>(std::min<size_t>(starts.size(), kMaxTimestampTiles));
  for (uint32_t tile = 0; tile < tiles_->count; ++tile) setStart(tiles_->tiles[tile], starts[tile]);
}

void Event::signalTileEnds(const std::vector<uint64_t>& ends) {
  setEnd(storage_->timestamps, ends.empty() ? 0 : *std::max_element(ends.begin(), ends.end()));
  for (uint32_t tile = 0; tiles_ && tile < tiles_->count && tile < ends.size(); ++tile) setEnd(tiles_->tiles[tile], ends[tile]);
  hostSignal();
}

std::vector<EventTimestamps> Event::tileTimestamps() const {
  if (!tiles_) return {};
  return {tiles_->tiles, tiles_->tiles + tiles_->count};
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
  if (tiles_) tiles_->count = 0;
  std::atomic_ref<int32_t>(storage_->error).store(0, std::memory_order_relaxed);
  deviceState().store(0, std::memory_order_relaxed);
  deviceSignalIssued_.store(false, std::memory_order_relaxed);
  state().store(0, std::memory_order_release);
}

bool Event::isSignaled() const { return state().load(std::memory_order_acquire) == 1; }

bool Event::hostSynchronize(uint64_t timeoutNs) const {
  if (timeoutNs == 0) return isSignaled();
  // A wait shows on the trace even where the event was signaled already: the caller was ready to.
  const TraceScope traced("wait for event", TraceCategory::Wait);
  if (isSignaled()) return true;
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
