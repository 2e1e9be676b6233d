#pragma once
// An event's state and timestamps. The storage may live in memory shared with other processes
// (IPC event pools), so it is a plain struct waited on with shared futexes.
#include <atomic>
#include <cstdint>
#include <vector>

#include "loom/core/device_info.h"

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
// What an event reports when it was destroyed before anything signaled it.
constexpr int32_t kStatusAbandoned = -14;         // CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST

// Tiles whose own timestamps an event keeps (TileTimestamps).
constexpr uint32_t kMaxTimestampTiles = 8;

struct EventStorage {
  uint32_t state = 0;  // 0: not signaled, 1: signaled
  int32_t error = 0;   // negative when the work failed or was abandoned (OpenCL execution status)
  EventTimestamps timestamps;
  // 1 once the work before the signal is done, which a device learns before the host does: a
  // device writes it after the work and waits on it in its queue (BackendQueue::waitValue); the
  // host writes it along with `state`, which alone says that timestamps and error are final.
  uint32_t deviceState = 0;
};

// Where an event keeps the timestamps of work that ran on the tiles of a root device: each tile's
// own start and end, in tile order, for its first kMaxTimestampTiles tiles (count 0: the work was
// timed as a whole). Shared like EventStorage, kept only by events that record kernel timestamps.
struct TileTimestamps {
  uint32_t count = 0;
  EventTimestamps tiles[kMaxTimestampTiles];
};

class Event {
 public:
  // `deviceVisible`: the storage lies in memory the devices can address
  // (MemoryManager::allocateDeviceVisible), so that their queues can wait on it and signal it.
  // `work`: the kind of device whose work the event stands for, which decides how long its host
  // waiters spin (waitSpinNanoseconds), as the engines' waiters for that device do.
  // `tiles`: where each tile's timestamps go; nullptr keeps only the span of the tiles'.
  explicit Event(EventStorage* storage, bool deviceVisible = false, DeviceType work = DeviceType::Cpu,
                 TileTimestamps* tiles = nullptr)
      : storage_(storage), deviceVisible_(deviceVisible), work_(work), tiles_(tiles) {}

  void markStart(uint64_t timestamp);
  void signal(uint64_t timestamp);  // records the end timestamp, then wakes every waiter
  // The same for work timed on each tile of a root device apart (one time per tile, in tile
  // order): the event's own timestamps span the tiles', from the earliest start to the latest end.
  void markTileStarts(const std::vector<uint64_t>& starts);
  void signalTileEnds(const std::vector<uint64_t>& ends);
  void hostSignal();                // no timestamps
  // Completes the event with a negative error status: the work it stands for did not run.
  void fail(int32_t error);
  int32_t error() const { return std::atomic_ref<int32_t>(storage_->error).load(std::memory_order_acquire); }
  void reset();
  bool isSignaled() const;
  // Returns true when signaled within timeoutNs (UINT64_MAX waits forever; 0 only queries).
  bool hostSynchronize(uint64_t timeoutNs) const;
  EventTimestamps timestamps() const { return storage_->timestamps; }
  // Each tile's timestamps where the work was timed per tile (markTileStarts) and the event keeps
  // them, else none.
  std::vector<EventTimestamps> tileTimestamps() const;
  bool deviceVisible() const { return deviceVisible_; }
  DeviceType work() const { return work_; }
  // The word device queues wait on and write (EventStorage::deviceState).
  uint32_t* deviceWord() const { return &storage_->deviceState; }
  // A queue has issued the device's write of deviceWord() since the last reset: the signal comes
  // without any further host action, so other queues may wait for it on the device
  // (CommandExecutor::waitInQueue).
  void noteDeviceSignalIssued() { deviceSignalIssued_.store(true, std::memory_order_release); }
  bool deviceSignalIssued() const { return deviceSignalIssued_.load(std::memory_order_acquire); }

 private:
  std::atomic_ref<uint32_t> state() const { return std::atomic_ref<uint32_t>(storage_->state); }
  std::atomic_ref<uint32_t> deviceState() const { return std::atomic_ref<uint32_t>(storage_->deviceState); }
  EventStorage* storage_;
  bool deviceVisible_;
  DeviceType work_;
  TileTimestamps* tiles_;
  std::atomic<bool> deviceSignalIssued_{false};
};

}  // namespace loom::core
