#include "loom/core/command_stream.h"

#include <cinttypes>
#include <cstdio>

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

void CommandStream::appendHeader(Opcode opcode, size_t size) {
  CommandHeader header{opcode, 0, static_cast<uint32_t>(alignUp(size))};
  appendBytes(&header, sizeof(header));
}

void CommandStream::appendBytes(const void* data, size_t size) {
  const auto* first = static_cast<const uint8_t*>(data);
  bytes_.insert(bytes_.end(), first, first + size);
}

void CommandStream::alignEnd() { bytes_.resize(alignUp(bytes_.size()), 0); }

void CommandStream::appendLaunchKernel(const LaunchKernelCommand& command, const void* arguments) {
  appendHeader(Opcode::LaunchKernel, sizeof(CommandHeader) + sizeof(command) + command.argumentSize);
  appendBytes(&command, sizeof(command));
  appendBytes(arguments, command.argumentSize);
  alignEnd();
}

void CommandStream::appendFill(const FillCommand& command, const void* pattern) {
  appendHeader(Opcode::Fill, sizeof(CommandHeader) + sizeof(command) + command.patternSize);
  appendBytes(&command, sizeof(command));
  appendBytes(pattern, command.patternSize);
  alignEnd();
}

void CommandStream::appendWaitEvents(Event* const* events, uint32_t count) {
  WaitEventsCommand command{count};
  appendHeader(Opcode::WaitEvents, sizeof(CommandHeader) + sizeof(command) + count * sizeof(Event*));
  appendBytes(&command, sizeof(command));
  appendBytes(events, count * sizeof(Event*));
}

void CommandStream::appendQueryKernelTimestamps(void* destination, Event* const* events, uint32_t count,
                                                const size_t* offsets) {
  QueryKernelTimestampsCommand command{destination, count, offsets != nullptr};
  const size_t trailing = count * sizeof(Event*) + (offsets ? count * sizeof(size_t) : 0);
  appendHeader(Opcode::QueryKernelTimestamps, sizeof(CommandHeader) + sizeof(command) + trailing);
  appendBytes(&command, sizeof(command));
  appendBytes(events, count * sizeof(Event*));
  if (offsets) appendBytes(offsets, count * sizeof(size_t));
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
  }
  return 0;
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
  }
  return "UNKNOWN";
}

namespace {

void describe(const DecodedCommand& command, std::string& out) {
  appendLine(out, "  %-24s", opcodeName(command.header->opcode));
  switch (command.header->opcode) {
    case Opcode::LaunchKernel: {
      const auto& launch = command.as<LaunchKernelCommand>();
      appendLine(out, " kernel=%s groups=%ux%ux%u%s group-size=%ux%ux%u args=%u bytes local=%u bytes%s",
                 launch.descriptor ? launch.descriptor->name.c_str() : "?", launch.groupCount[0], launch.groupCount[1],
                 launch.groupCount[2], launch.indirectGroupCount ? " (indirect)" : "", launch.groupSize[0],
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
