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

// Execution statuses of work that failed on the device, in OpenCL's numbering (Level Zero reports
// any of them as a lost device).
constexpr int32_t kStatusAllocationFailure = -4;  // CL_MEM_OBJECT_ALLOCATION_FAILURE
constexpr int32_t kStatusOutOfResources = -5;     // CL_OUT_OF_RESOURCES

struct EventStorage {
  uint32_t state = 0;  // 0: not signaled, 1: signaled
  int32_t error = 0;   // negative when the work failed or was abandoned (OpenCL execution status)
  EventTimestamps timestamps;
};

class Event {
 public:
  explicit Event(EventStorage* storage) : storage_(storage) {}

  void markStart(uint64_t timestamp);
  void signal(uint64_t timestamp);  // records the end timestamp, then wakes every waiter
  void hostSignal();                // no timestamps
  // Completes the event with a negative error status: the work it stands for did not run.
  void fail(int32_t error);
  int32_t error() const { return std::atomic_ref<int32_t>(storage_->error).load(std::memory_order_acquire); }
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
