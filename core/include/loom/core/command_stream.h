#pragma once
// A command stream: the compact binary encoding of recorded commands. The encoder methods here
// are the one place commands are written; forEachCommand decodes; printCommandStream describes.
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "loom/core/kernel_launch.h"
#include "loom/core/work_counters.h"

namespace loom::core {

class BackendKernel;
class Event;

enum class Opcode : uint16_t {
  LaunchKernel,
  Copy,
  CopyRegion,
  Fill,
  Barrier,
  SignalEvent,
  WaitEvents,
  ResetEvent,
  MarkEventStart,
  WriteTimestamp,
  QueryKernelTimestamps,
  Prefetch,
  MemoryAdvise,
  HostFunction,
  FillRegion,
  SampleWorkCounters,
  PassStreamerMarker,
};

struct CommandHeader {
  Opcode opcode;
  uint16_t reserved;
  uint32_t size;  // bytes of this command, header and trailing data included
};

// Where Level Zero's indirect launches find their counts, read from memory when the command runs.
struct IndirectLaunch {
  const uint32_t* groupCount = nullptr;   // x, y, z: replace the recorded counts (whole groups)
  const uint32_t* kernelCount = nullptr;  // when set, the launch runs only if *kernelCount > kernelIndex
  uint32_t kernelIndex = 0;               // (zeCommandListAppendLaunchMultipleKernelsIndirect)
};

// Trailing data: `launch.argumentSize` bytes of the argument buffer, local pointer arguments
// holding their offsets in the local arena.
struct LaunchKernelCommand {
  KernelLaunch launch;
  IndirectLaunch indirect;
};

struct CopyCommand {
  void* destination;
  const void* source;
  uint64_t size;
};

struct Region3d {
  uint64_t originX, originY, originZ;  // x in bytes
  uint64_t rowPitch, slicePitch;
};

// The first and one past the last byte of a region's `rows` x `slices` rows of `rowBytes` bytes
// from `base`.
struct ByteSpan {
  uintptr_t begin, end;
};
inline ByteSpan spanOf(const void* base, const Region3d& region, uint64_t rowBytes, uint64_t rows, uint64_t slices) {
  const uintptr_t first = reinterpret_cast<uintptr_t>(base) + region.originZ * region.slicePitch +
                          region.originY * region.rowPitch + region.originX;
  return {first, first + (slices - 1) * region.slicePitch + (rows - 1) * region.rowPitch + rowBytes};
}

struct CopyRegionCommand {
  void* destination;
  const void* source;
  Region3d destinationRegion;
  Region3d sourceRegion;
  uint64_t width, height, depth;  // width in bytes
};

// Trailing data: `patternSize` bytes of the pattern.
struct FillCommand {
  void* destination;
  uint64_t size;
  uint64_t patternSize;
};

// The same copy the other way: from its destination to its source.
inline CopyRegionCommand reversed(const CopyRegionCommand& copy) {
  return {const_cast<void*>(copy.source), copy.destination, copy.sourceRegion, copy.destinationRegion,
          copy.width, copy.height, copy.depth};
}

// Trailing data: `patternSize` bytes of the pattern (an image's texel), repeated over a 3-D
// region of pitched memory.
struct FillRegionCommand {
  void* destination;
  Region3d region;
  uint64_t width, height, depth;  // width in bytes, a multiple of patternSize
  uint64_t patternSize;
};

struct EventCommand {
  Event* event;
};

// Trailing data: `count` Event pointers.
struct WaitEventsCommand {
  uint64_t count;
};

struct WriteTimestampCommand {
  uint64_t* destination;
};

// Trailing data: `count` Event pointers, then `count` byte offsets when hasOffsets.
struct QueryKernelTimestampsCommand {
  void* destination;
  uint32_t count;
  uint32_t hasOffsets;
};

// Writes the device's WorkCounters::sample() to `destination` (host memory) as the command is
// issued: a metric query's begin and end.
struct SampleWorkCountersCommand {
  WorkCounts* destination;
};

// Passes a metric streamer marker once the work before it is done.
struct StreamerMarkerCommand {
  uint32_t value;
  uint32_t reserved;
};

// Runs `function(userData)` on the engine's thread (OpenCL native kernels, host-side steps).
struct HostFunctionCommand {
  void (*function)(void*);
  void* userData;
};

struct MemoryHintCommand {
  const void* address;
  uint64_t size;
  uint32_t advice;  // MemoryAdvise only
  uint32_t reserved;
};

// How both APIs frame each command: wait for `waits`, mark the start of `timed` (an event that
// records when its command ran), the command, then signal `signal`. Null events are left out.
struct CommandFraming {
  std::span<Event* const> waits;
  Event* timed = nullptr;
  Event* signal = nullptr;
};

class CommandStream {
 public:
  // One API command: `encode(*this)` appends the command itself inside `framing`.
  template <typename Encode>
  void appendFramed(const CommandFraming& framing, Encode&& encode);

  void appendLaunchKernel(const LaunchKernelCommand& command, const void* arguments);
  void appendCopy(const CopyCommand& command) { append(Opcode::Copy, command); }
  void appendCopyRegion(const CopyRegionCommand& command) { append(Opcode::CopyRegion, command); }
  void appendFill(const FillCommand& command, const void* pattern);
  void appendFillRegion(const FillRegionCommand& command, const void* pattern);
  void appendBarrier() { appendCommand(Opcode::Barrier, 0); }
  void appendSignalEvent(Event* event) { append(Opcode::SignalEvent, EventCommand{event}); }
  void appendResetEvent(Event* event) { append(Opcode::ResetEvent, EventCommand{event}); }
  void appendMarkEventStart(Event* event) { append(Opcode::MarkEventStart, EventCommand{event}); }
  void appendWaitEvents(Event* const* events, uint32_t count);
  void appendWriteTimestamp(uint64_t* destination) { append(Opcode::WriteTimestamp, WriteTimestampCommand{destination}); }
  void appendQueryKernelTimestamps(void* destination, Event* const* events, uint32_t count, const size_t* offsets);
  void appendPrefetch(const void* address, uint64_t size) { append(Opcode::Prefetch, MemoryHintCommand{address, size, 0, 0}); }
  void appendMemoryAdvise(const void* address, uint64_t size, uint32_t advice) {
    append(Opcode::MemoryAdvise, MemoryHintCommand{address, size, advice, 0});
  }

  void appendSampleWorkCounters(WorkCounts* destination) {
    append(Opcode::SampleWorkCounters, SampleWorkCountersCommand{destination});
  }
  void appendPassStreamerMarker(uint32_t value) { append(Opcode::PassStreamerMarker, StreamerMarkerCommand{value, 0}); }

  void appendHostFunction(void (*function)(void*), void* userData) {
    append(Opcode::HostFunction, HostFunctionCommand{function, userData});
  }

  const std::vector<uint8_t>& bytes() const { return bytes_; }
  // Hands the encoded bytes over (for submission), leaving the stream empty. The stream goes on
  // in `storage`, when given the storage of a stream that has run, so as not to allocate anew.
  std::vector<uint8_t> take(std::vector<uint8_t> storage = {}) {
    std::vector<uint8_t> taken = std::exchange(bytes_, std::move(storage));
    bytes_.clear();
    lastTaken_ = taken.size();
    return taken;
  }
  bool empty() const { return bytes_.empty(); }
  void clear() { bytes_.clear(); }

 private:
  template <typename Command>
  void append(Opcode opcode, const Command& command) {
    static_assert(std::is_trivially_copyable_v<Command>);
    put(appendCommand(opcode, sizeof(Command)), &command, sizeof(Command));
  }
  // Grows the stream by one command of `contentSize` bytes after its header, padded so that the
  // next command starts 8-byte aligned; writes the header and returns where the content goes.
  uint8_t* appendCommand(Opcode opcode, size_t contentSize);
  // Copies `size` bytes to `at` and returns the end of the copy.
  static uint8_t* put(uint8_t* at, const void* data, size_t size);

  std::vector<uint8_t> bytes_;
  size_t lastTaken_ = 0;  // bytes handed over by the last take()
};

template <typename Encode>
void CommandStream::appendFramed(const CommandFraming& framing, Encode&& encode) {
  if (!framing.waits.empty()) appendWaitEvents(framing.waits.data(), static_cast<uint32_t>(framing.waits.size()));
  if (framing.timed) appendMarkEventStart(framing.timed);
  encode(*this);
  if (framing.signal) appendSignalEvent(framing.signal);
}

// A decoded command: its header and its fixed payload; trailingData() finds what follows.
struct DecodedCommand {
  const CommandHeader* header;
  const uint8_t* payload;

  template <typename Command>
  const Command& as() const {
    return *reinterpret_cast<const Command*>(payload);
  }
};

template <typename Visitor>
void forEachCommand(const std::vector<uint8_t>& bytes, Visitor&& visit) {
  size_t position = 0;
  while (position + sizeof(CommandHeader) <= bytes.size()) {
    const auto* header = reinterpret_cast<const CommandHeader*>(bytes.data() + position);
    const uint8_t* payload = bytes.data() + position + sizeof(CommandHeader);
    visit(DecodedCommand{header, payload});
    position += header->size;
  }
}

// Size of the fixed payload of each opcode; trailing data follows it.
size_t payloadSize(Opcode opcode);
inline const uint8_t* trailingData(const DecodedCommand& command) { return command.payload + payloadSize(command.header->opcode); }

// The bytes a copy or fill writes (of a region: its extent); 0 for any other command.
uint64_t bytesWritten(const DecodedCommand& command);

const char* opcodeName(Opcode opcode);
// The stream in words, one command a line (debug key PrintCommandStream).
std::string describeCommandStream(const std::vector<uint8_t>& bytes);

}  // namespace loom::core
