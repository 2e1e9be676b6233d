#pragma once
// One command executor's part of the LOOM_TraceFile timeline (trace_recorder.h): a track for the
// engine (its command streams and host waits) and one for the device work it issues (kernels,
// copies, fills), or one per tile on a queue over several tiles. Device work is timed by the
// queue's marks where it has them (a GPU: CUDA events; CPU tiles: when each tile's part
// returned), which are known once the work has completed; else on the host around the command,
// which a synchronous queue (the CPU's thread pool) runs before it returns.
#include <cstdint>
#include <string>
#include <vector>

#include "loom/core/backend.h"
#include "loom/core/trace_recorder.h"

namespace loom::core {

struct DecodedCommand;

class DeviceWorkTrace {
 public:
  // Makes the tracks when tracing is on; does nothing otherwise.
  DeviceWorkTrace(BackendQueue& queue, const std::string& deviceName);

  // The engine's track; 0 while tracing is off.
  uint32_t engineTrack() const { return engineTrack_; }
  // True for the commands that run on the device (launches, copies, fills).
  static bool isDeviceWork(const DecodedCommand& command);

  // Taken right before a device command is issued.
  struct Start {
    uint64_t hostTime;
    uint32_t mark;
  };
  Start begin();
  // Right after the command was issued. True when its times come with the queue's marks: the
  // executor must then retire the queue (before it forgets its marks) for them to be recorded.
  bool end(const Start& start, const DecodedCommand& command);
  // Records the work whose marks are complete; before the queue forgets its marks.
  void retire();

 private:
  struct Work {
    const char* name;
    TraceCategory category;
    uint64_t bytes;  // copies and fills; 0 for a launch
  };
  static Work describe(const DecodedCommand& command);
  void record(const Work& work, uint32_t track, uint64_t startTime, uint64_t endTime);

  BackendQueue& queue_;
  uint32_t engineTrack_ = 0;
  std::vector<uint32_t> deviceTracks_;  // one per tile of the queue
  struct Pending {
    Work work;
    uint32_t startMark, endMark;
  };
  std::vector<Pending> pending_;
};

}  // namespace loom::core
