#include "loom/core/device_work_trace.h"

#include <atomic>

#include "loom/core/command_stream.h"
#include "loom/core/futex.h"

namespace loom::core {
namespace {

std::string engineName(const std::string& deviceName) {
  static std::atomic<uint32_t> engines{0};
  return "engine " + std::to_string(engines.fetch_add(1, std::memory_order_relaxed) + 1) + " (" + deviceName + ")";
}

}  // namespace

DeviceWorkTrace::DeviceWorkTrace(BackendQueue& queue, const std::string& deviceName) : queue_(queue) {
  if (!TraceRecorder::enabled()) return;
  TraceRecorder& recorder = TraceRecorder::get();
  const std::string engine = engineName(deviceName);
  engineTrack_ = recorder.addTrack(engine);
  const uint32_t tiles = queue_.markTiles();
  if (tiles == 1) {
    deviceTracks_.push_back(recorder.addTrack(engine + " device"));
    return;
  }
  for (uint32_t tile = 0; tile < tiles; ++tile)
    deviceTracks_.push_back(recorder.addTrack(engine + " tile " + std::to_string(tile)));
}

bool DeviceWorkTrace::isDeviceWork(const DecodedCommand& command) {
  switch (command.header->opcode) {
    case Opcode::LaunchKernel:
    case Opcode::Copy:
    case Opcode::CopyRegion:
    case Opcode::Fill: return true;
    default: return false;
  }
}

DeviceWorkTrace::Start DeviceWorkTrace::begin() { return {monotonicNanoseconds(), queue_.markTime()}; }

bool DeviceWorkTrace::end(const Start& start, const DecodedCommand& command) {
  const Work work = describe(command);
  if (start.mark != BackendQueue::kNoMark) {
    const uint32_t endMark = queue_.markTime();
    if (endMark != BackendQueue::kNoMark) {
      pending_.push_back({work, start.mark, endMark});
      return true;
    }
  }
  record(work, deviceTracks_.front(), start.hostTime, monotonicNanoseconds());
  return false;
}

void DeviceWorkTrace::retire() {
  for (const Pending& pending : pending_) {
    for (uint32_t tile = 0; tile < deviceTracks_.size(); ++tile) {
      const uint64_t startTime = queue_.timeOfMarkOnTile(pending.startMark, tile);
      const uint64_t endTime = queue_.timeOfMarkOnTile(pending.endMark, tile);
      // A tile that took no part in the command passed both marks at once.
      if (endTime > startTime) record(pending.work, deviceTracks_[tile], startTime, endTime);
    }
  }
  pending_.clear();
}

DeviceWorkTrace::Work DeviceWorkTrace::describe(const DecodedCommand& command) {
  switch (command.header->opcode) {
    case Opcode::LaunchKernel: {
      const compiler::KernelDescriptor* descriptor = command.as<LaunchKernelCommand>().launch.descriptor;
      return {descriptor ? TraceRecorder::get().intern(descriptor->name) : "kernel", TraceCategory::Kernel, 0};
    }
    case Opcode::Copy: return {"copy", TraceCategory::Copy, bytesWritten(command)};
    case Opcode::CopyRegion: return {"copy region", TraceCategory::Copy, bytesWritten(command)};
    case Opcode::Fill: return {"fill", TraceCategory::Fill, bytesWritten(command)};
    default: return {"command", TraceCategory::Stream, 0};
  }
}

void DeviceWorkTrace::record(const Work& work, uint32_t track, uint64_t startTime, uint64_t endTime) {
  TraceEvent event{};
  event.name = work.name;
  event.category = work.category;
  event.track = track;
  event.start = startTime;
  event.end = endTime;
  if (work.category != TraceCategory::Kernel) {
    event.argument = "bytes";
    event.value = work.bytes;
  }
  TraceRecorder::get().record(event);
}

}  // namespace loom::core
