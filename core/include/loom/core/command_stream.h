#pragma once
// A command stream: the compact binary encoding of recorded commands. The encoder methods here
// are the one place commands are written; forEachCommand decodes; printCommandStream describes.
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "loom/compiler/kernel_descriptor.h"

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
};

struct CommandHeader {
  Opcode opcode;
  uint16_t reserved;
  uint32_t size;  // bytes of this command, header and trailing data included
};

// Trailing data: `argumentSize` bytes of the argument buffer.
struct LaunchKernelCommand {
  BackendKernel* kernel;
  const compiler::KernelDescriptor* descriptor;
  const uint32_t* indirectGroupCount;   // read when the command runs (zeCommandListAppendLaunchKernelIndirect)
  const uint32_t* indirectKernelCount;  // when set, the launch runs only if *indirectKernelCount > kernelIndex
  uint32_t kernelIndex;                 // (zeCommandListAppendLaunchMultipleKernelsIndirect)
  uint32_t localMemorySize;
  uint32_t workDim;
  uint32_t groupCount[3];
  uint32_t groupSize[3];
  uint64_t globalSize[3];  // zero: groupCount * groupSize
  uint64_t globalOffset[3];
  uint32_t argumentSize;
  bool cooperative;  // KernelLaunch::cooperative
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

class CommandStream {
 public:
  void appendLaunchKernel(const LaunchKernelCommand& command, const void* arguments);
  void appendCopy(const CopyCommand& command) { append(Opcode::Copy, command); }
  void appendCopyRegion(const CopyRegionCommand& command) { append(Opcode::CopyRegion, command); }
  void appendFill(const FillCommand& command, const void* pattern);
  void appendBarrier() { appendHeader(Opcode::Barrier, sizeof(CommandHeader)); }
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

  void appendHostFunction(void (*function)(void*), void* userData) {
    append(Opcode::HostFunction, HostFunctionCommand{function, userData});
  }

  const std::vector<uint8_t>& bytes() const { return bytes_; }
  // Hands the encoded bytes over (for submission), leaving the stream empty.
  std::vector<uint8_t> take() {
    std::vector<uint8_t> taken;
    taken.swap(bytes_);
    return taken;
  }
  bool empty() const { return bytes_.empty(); }
  void clear() { bytes_.clear(); }

 private:
  template <typename Command>
  void append(Opcode opcode, const Command& command) {
    static_assert(std::is_trivially_copyable_v<Command>);
    appendHeader(opcode, sizeof(CommandHeader) + sizeof(Command));
    appendBytes(&command, sizeof(Command));
  }
  // Commands start 8-byte aligned: appendHeader reserves the padded size, appendBytes fills it.
  void appendHeader(Opcode opcode, size_t size);
  void appendBytes(const void* data, size_t size);
  void alignEnd();

  std::vector<uint8_t> bytes_;
};

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

const char* opcodeName(Opcode opcode);
// The stream in words, one command a line (debug key PrintCommandStream).
std::string describeCommandStream(const std::vector<uint8_t>& bytes);

}  // namespace loom::core
