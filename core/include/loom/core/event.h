#pragma once
// An event's state and timestamps. The storage may live in memory shared with other processes
// (IPC event pools), so it is a plain struct waited on with shared futexes.
#include <atomic>
#include <cstdint>

namespace loom::core {

// Field order matches ze_kernel_timestamp_result_t: global start/end, then context start/end.
struct EventTimestamps {
  uint64_t globalStart = 0;
  uint64_t globalEnd = 0;
  uint64_t contextStart = 0;
  uint64_t contextEnd = 0;
};

struct EventStorage {
  uint32_t state = 0;  // 0: not signaled, 1: signaled
  uint32_t reserved = 0;
  EventTimestamps timestamps;
};

class Event {
 public:
  explicit Event(EventStorage* storage) : storage_(storage) {}

  void markStart(uint64_t timestamp);
  void signal(uint64_t timestamp);  // records the end timestamp, then wakes every waiter
  void hostSignal();                // no timestamps
  void reset();
  bool isSignaled() const;
  // Returns true when signaled within timeoutNs (UINT64_MAX waits forever; 0 only queries).
  bool hostSynchronize(uint64_t timeoutNs) const;
  EventTimestamps timestamps() const { return storage_->timestamps; }

 private:
  std::atomic_ref<uint32_t> state() const { return std::atomic_ref<uint32_t>(storage_->state); }
  EventStorage* storage_;
};

}  // namespace loom::core
