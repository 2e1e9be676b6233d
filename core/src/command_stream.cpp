#include "loom/core/command_stream.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>

namespace loom::core {
namespace {

constexpr size_t kCommandAlignment = 8;

size_t alignUp(size_t value) { return (value + kCommandAlignment - 1) & ~(kCommandAlignment - 1); }

template <typename... Args>
void appendLine(std::string& out, const char* format, Args... args) {
  char line[256];
  std::snprintf(line, sizeof(line), format, args...);
  out += line;
}

}  // namespace

// Each command grows the storage at most once, by at least half, never a part at a time. A stream
// taken for submission starts again empty and takes, at its first command, room for as much as
// was taken: an immediate list's appends, which are mostly alike, cost one allocation each.
uint8_t* CommandStream::appendCommand(Opcode opcode, size_t contentSize) {
  const size_t start = bytes_.size();
  const size_t size = alignUp(sizeof(CommandHeader) + contentSize);
  if (start + size > bytes_.capacity()) bytes_.reserve(std::max({start + size, bytes_.capacity() * 3 / 2, lastTaken_}));
  bytes_.resize(start + size);
  const CommandHeader header{opcode, 0, static_cast<uint32_t>(size)};
  std::memcpy(bytes_.data() + start, &header, sizeof(header));
  return bytes_.data() + start + sizeof(header);
}

uint8_t* CommandStream::put(uint8_t* at, const void* data, size_t size) {
  if (size) std::memcpy(at, data, size);
  return at + size;
}

void CommandStream::appendLaunchKernel(const LaunchKernelCommand& command, const void* arguments) {
  uint8_t* at = appendCommand(Opcode::LaunchKernel, sizeof(command) + command.launch.argumentSize);
  put(put(at, &command, sizeof(command)), arguments, command.launch.argumentSize);
}

void CommandStream::appendFill(const FillCommand& command, const void* pattern) {
  uint8_t* at = appendCommand(Opcode::Fill, sizeof(command) + command.patternSize);
  put(put(at, &command, sizeof(command)), pattern, command.patternSize);
}

void CommandStream::appendFillRegion(const FillRegionCommand& command, const void* pattern) {
  uint8_t* at = appendCommand(Opcode::FillRegion, sizeof(command) + command.patternSize);
  put(put(at, &command, sizeof(command)), pattern, command.patternSize);
}

void CommandStream::appendWaitEvents(Event* const* events, uint32_t count) {
  const WaitEventsCommand command{count};
  uint8_t* at = appendCommand(Opcode::WaitEvents, sizeof(command) + count * sizeof(Event*));
  put(put(at, &command, sizeof(command)), events, count * sizeof(Event*));
}

void CommandStream::appendQueryKernelTimestamps(void* destination, Event* const* events, uint32_t count,
                                                const size_t* offsets) {
  const QueryKernelTimestampsCommand command{destination, count, offsets != nullptr};
  const size_t trailing = count * sizeof(Event*) + (offsets ? count * sizeof(size_t) : 0);
  uint8_t* at = appendCommand(Opcode::QueryKernelTimestamps, sizeof(command) + trailing);
  at = put(put(at, &command, sizeof(command)), events, count * sizeof(Event*));
  if (offsets) put(at, offsets, count * sizeof(size_t));
}

size_t payloadSize(Opcode opcode) {
  switch (opcode) {
    case Opcode::LaunchKernel: return sizeof(LaunchKernelCommand);
    case Opcode::Copy: return sizeof(CopyCommand);
    case Opcode::CopyRegion: return sizeof(CopyRegionCommand);
    case Opcode::Fill: return sizeof(FillCommand);
    case Opcode::Barrier: return 0;
    case Opcode::SignalEvent:
    case Opcode::ResetEvent:
    case Opcode::MarkEventStart: return sizeof(EventCommand);
    case Opcode::WaitEvents: return sizeof(WaitEventsCommand);
    case Opcode::WriteTimestamp: return sizeof(WriteTimestampCommand);
    case Opcode::QueryKernelTimestamps: return sizeof(QueryKernelTimestampsCommand);
    case Opcode::Prefetch:
    case Opcode::MemoryAdvise: return sizeof(MemoryHintCommand);
    case Opcode::HostFunction: return sizeof(HostFunctionCommand);
    case Opcode::FillRegion: return sizeof(FillRegionCommand);
    case Opcode::SampleWorkCounters: return sizeof(SampleWorkCountersCommand);
    case Opcode::PassStreamerMarker: return sizeof(StreamerMarkerCommand);
  }
  return 0;
}

uint64_t bytesWritten(const DecodedCommand& command) {
  switch (command.header->opcode) {
    case Opcode::Copy: return command.as<CopyCommand>().size;
    case Opcode::CopyRegion: {
      const auto& copy = command.as<CopyRegionCommand>();
      return copy.width * copy.height * copy.depth;
    }
    case Opcode::Fill: return command.as<FillCommand>().size;
    case Opcode::FillRegion: {
      const auto& fill = command.as<FillRegionCommand>();
      return fill.width * fill.height * fill.depth;
    }
    default: return 0;
  }
}

const char* opcodeName(Opcode opcode) {
  switch (opcode) {
    case Opcode::LaunchKernel: return "LAUNCH_KERNEL";
    case Opcode::Copy: return "COPY";
    case Opcode::CopyRegion: return "COPY_REGION";
    case Opcode::Fill: return "FILL";
    case Opcode::Barrier: return "BARRIER";
    case Opcode::SignalEvent: return "SIGNAL_EVENT";
    case Opcode::WaitEvents: return "WAIT_EVENTS";
    case Opcode::ResetEvent: return "RESET_EVENT";
    case Opcode::MarkEventStart: return "MARK_EVENT_START";
    case Opcode::WriteTimestamp: return "WRITE_TIMESTAMP";
    case Opcode::QueryKernelTimestamps: return "QUERY_KERNEL_TIMESTAMPS";
    case Opcode::Prefetch: return "PREFETCH";
    case Opcode::MemoryAdvise: return "MEMORY_ADVISE";
    case Opcode::HostFunction: return "HOST_FUNCTION";
    case Opcode::FillRegion: return "FILL_REGION";
    case Opcode::SampleWorkCounters: return "SAMPLE_WORK_COUNTERS";
    case Opcode::PassStreamerMarker: return "PASS_STREAMER_MARKER";
  }
  return "UNKNOWN";
}

namespace {

void describe(const DecodedCommand& command, std::string& out) {
  appendLine(out, "  %-24s", opcodeName(command.header->opcode));
  switch (command.header->opcode) {
    case Opcode::LaunchKernel: {
      const auto& recorded = command.as<LaunchKernelCommand>();
      const KernelLaunch& launch = recorded.launch;
      appendLine(out, " kernel=%s groups=%ux%ux%u%s group-size=%ux%ux%u args=%u bytes local=%u bytes%s",
                 launch.descriptor ? launch.descriptor->name.c_str() : "?", launch.groupCount[0], launch.groupCount[1],
                 launch.groupCount[2], recorded.indirect.groupCount ? " (indirect)" : "", launch.groupSize[0],
                 launch.groupSize[1], launch.groupSize[2], launch.argumentSize, launch.localMemorySize,
                 launch.cooperative ? " cooperative" : "");
      break;
    }
    case Opcode::Copy: {
      const auto& copy = command.as<CopyCommand>();
      appendLine(out, " dst=%p src=%p size=%" PRIu64, copy.destination, copy.source, copy.size);
      break;
    }
    case Opcode::CopyRegion: {
      const auto& copy = command.as<CopyRegionCommand>();
      appendLine(out, " dst=%p src=%p extent=%" PRIu64 "x%" PRIu64 "x%" PRIu64, copy.destination, copy.source, copy.width,
                 copy.height, copy.depth);
      break;
    }
    case Opcode::Fill: {
      const auto& fill = command.as<FillCommand>();
      appendLine(out, " dst=%p size=%" PRIu64 " pattern=%" PRIu64 " bytes", fill.destination, fill.size, fill.patternSize);
      break;
    }
    case Opcode::FillRegion: {
      const auto& fill = command.as<FillRegionCommand>();
      appendLine(out, " dst=%p extent=%" PRIu64 "x%" PRIu64 "x%" PRIu64 " pattern=%" PRIu64 " bytes", fill.destination, fill.width,
                 fill.height, fill.depth, fill.patternSize);
      break;
    }
    case Opcode::SignalEvent:
    case Opcode::ResetEvent:
    case Opcode::MarkEventStart:
      appendLine(out, " event=%p", static_cast<void*>(command.as<EventCommand>().event));
      break;
    case Opcode::WaitEvents:
      appendLine(out, " count=%" PRIu64, command.as<WaitEventsCommand>().count);
      break;
    case Opcode::WriteTimestamp:
      appendLine(out, " dst=%p", static_cast<void*>(command.as<WriteTimestampCommand>().destination));
      break;
    case Opcode::QueryKernelTimestamps:
      appendLine(out, " dst=%p count=%u", command.as<QueryKernelTimestampsCommand>().destination,
                 command.as<QueryKernelTimestampsCommand>().count);
      break;
    case Opcode::Prefetch:
    case Opcode::MemoryAdvise: {
      const auto& hint = command.as<MemoryHintCommand>();
      appendLine(out, " address=%p size=%" PRIu64, hint.address, hint.size);
      break;
    }
    case Opcode::HostFunction:
      appendLine(out, " data=%p", command.as<HostFunctionCommand>().userData);
      break;
    case Opcode::SampleWorkCounters:
      appendLine(out, " dst=%p", static_cast<void*>(command.as<SampleWorkCountersCommand>().destination));
      break;
    case Opcode::PassStreamerMarker:
      appendLine(out, " value=%u", command.as<StreamerMarkerCommand>().value);
      break;
    case Opcode::Barrier: break;
  }
  out += '\n';
}

}  // namespace

std::string describeCommandStream(const std::vector<uint8_t>& bytes) {
  std::string out;
  forEachCommand(bytes, [&](const DecodedCommand& command) { describe(command, out); });
  return out;
}

}  // namespace loom::core
