#include "loom/core/command_executor.h"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdio>
#include <utility>
#include <vector>

#include "loom/core/command_stream.h"
#include "loom/core/debug_keys.h"
#include "loom/core/event.h"

namespace loom::core {
namespace {

// Each queried event's timestamps and where they go.
std::vector<std::pair<char*, EventTimestamps>> queriedTimestamps(const DecodedCommand& command) {
  const auto& query = command.as<QueryKernelTimestampsCommand>();
  auto* const* events = reinterpret_cast<Event* const*>(trailingData(command));
  const auto* offsets = reinterpret_cast<const size_t*>(events + query.count);
  auto* destination = static_cast<char*>(query.destination);
  std::vector<std::pair<char*, EventTimestamps>> results;
  for (uint32_t i = 0; i < query.count; ++i) {
    const size_t offset = query.hasOffsets ? offsets[i] : i * sizeof(EventTimestamps);
    results.emplace_back(destination + offset, events[i]->timestamps());
  }
  return results;
}

}  // namespace

CommandExecutor::CommandExecutor(Backend& backend)
    : backend_(backend),
      queue_(backend.createQueue()),
      deviceEventWaits_(debugKeys().EnableDeviceEventWaits),
      trace_(*queue_, backend.info().name) {}

CommandExecutor::~CommandExecutor() { retire(true); }

void CommandExecutor::execute(const std::vector<uint8_t>& bytes) {
  // Once a waited-for event has failed, the rest of the stream is abandoned: its work does not
  // run and the events it would signal fail with the same status, so failures propagate.
  failure_ = 0;
  forEachCommand(bytes, [&](const DecodedCommand& command) {
    if (failure_ == 0) {
      executeCommand(command);
      return;
    }
    if (command.header->opcode == Opcode::SignalEvent) command.as<EventCommand>().event->fail(failure_);
  });
}

bool CommandExecutor::retire(bool wait) {
  if (!inFlight_) return true;
  if (wait) {
    queue_->synchronize();
  } else if (!queue_->completed()) {
    completeReachedProgress();
    return false;
  }
  inFlight_ = false;
  // A fault while the device ran cannot be pinned on one command: every signal that waited for
  // the device reports it, so that no result of the failed work passes for good.
  const int32_t failure = queue_->takeFailure();
  recordDeviceFailure(failure);
  completeDeferred(deferredStarts_.size(), deferredSignals_.size(), failure);
  deferredStarts_.clear();
  deferredSignals_.clear();
  queueWaits_.clear();
  progressPoints_.clear();
  completedStarts_ = 0;
  completedSignals_ = 0;
  trace_.retire();
  queue_->forgetMarks();
  return true;
}

// In stream order: the signals before each start complete before it, so that waiters woken by a
// signal never see the commands after it started while it still runs.
void CommandExecutor::completeDeferred(size_t starts, size_t signals, int32_t deviceFailure) {
  SignalOutcome outcome{backend_.timestamp(), deviceFailure};
  outcome.firstFailed = firstSignalAfterAFailedWait(outcome.waitedFailure);
  for (; completedStarts_ < starts; ++completedStarts_) {
    const DeferredTime& start = deferredStarts_[completedStarts_];
    completeSignals(std::min(start.signalsBefore, signals), outcome);
    if (timedPerTile(start))
      start.event->markTileStarts(tileTimesOf(start));
    else
      start.event->markStart(timeOf(start, outcome.now));
  }
  completeSignals(signals, outcome);
}

void CommandExecutor::completeSignals(size_t signals, const SignalOutcome& outcome) {
  for (; completedSignals_ < signals; ++completedSignals_) {
    const DeferredTime& signal = deferredSignals_[completedSignals_];
    if (outcome.deviceFailure)
      signal.event->fail(outcome.deviceFailure);
    else if (completedSignals_ >= outcome.firstFailed)
      signal.event->fail(outcome.waitedFailure);
    else if (timedPerTile(signal))
      signal.event->signalTileEnds(tileTimesOf(signal));
    else
      signal.event->signal(timeOf(signal, outcome.now));
  }
}

void CommandExecutor::markProgress() {
  const size_t covered = progressPoints_.empty() ? completedSignals_ : progressPoints_.back().signals;
  if (deferredSignals_.size() == covered) return;
  const uint32_t mark = queue_->markTime();
  if (mark != BackendQueue::kNoMark) progressPoints_.push_back({mark, deferredStarts_.size(), deferredSignals_.size()});
}

// A device that reached a mark completed the work before it without a fault (a fault stops it).
void CommandExecutor::completeReachedProgress() {
  size_t reached = 0;
  while (reached < progressPoints_.size() && queue_->markReached(progressPoints_[reached].mark)) ++reached;
  if (reached == 0) return;
  const ProgressPoint last = progressPoints_[reached - 1];
  progressPoints_.erase(progressPoints_.begin(), progressPoints_.begin() + static_cast<ptrdiff_t>(reached));
  completeDeferred(last.starts, last.signals, 0);
}

void CommandExecutor::issued() {
  if (queue_->asynchronous()) inFlight_ = true;
  if (const int32_t failure = queue_->takeFailure()) {
    recordDeviceFailure(failure);
    failure_ = failure;
  }
}

uint64_t CommandExecutor::timeOf(const DeferredTime& deferred, uint64_t now) const {
  return deferred.mark == BackendQueue::kNoMark ? now : queue_->timeOfMark(deferred.mark);
}

bool CommandExecutor::timedPerTile(const DeferredTime& deferred) const {
  return deferred.mark != BackendQueue::kNoMark && queue_->markTiles() > 1;
}

std::vector<uint64_t> CommandExecutor::tileTimesOf(const DeferredTime& deferred) const {
  std::vector<uint64_t> times(queue_->markTiles());
  for (uint32_t tile = 0; tile < times.size(); ++tile) times[tile] = queue_->timeOfMarkOnTile(deferred.mark, tile);
  return times;
}

// Host-side results may go to device memory, which only the queue can write: copies, all
// completed before `results` (the caller's) go out of scope.
template <typename Value>
void CommandExecutor::writeResults(const std::vector<std::pair<char*, Value>>& results) {
  for (const auto& [destination, value] : results) queue_->copy(destination, &value, sizeof(value));
  issued();
  retire(true);
}

size_t CommandExecutor::firstSignalAfterAFailedWait(int32_t& error) const {
  size_t first = deferredSignals_.size();
  for (const QueueWait& wait : queueWaits_) {
    const int32_t waitedError = wait.event->error();
    if (waitedError == 0 || wait.signalsBefore >= first) continue;
    first = wait.signalsBefore;
    error = waitedError;
  }
  return first;
}

// Waits for every event: in the queue where it can, else on the host once the work issued before
// is done (its signals may be what the events wait for). A failed event abandons the rest of the
// stream.
void CommandExecutor::waitEvents(const DecodedCommand& command) {
  const auto count = command.as<WaitEventsCommand>().count;
  auto* const* events = reinterpret_cast<Event* const*>(trailingData(command));
  int32_t failure = 0;
  std::vector<Event*> onHost;
  for (uint64_t i = 0; i < count; ++i) {
    Event* event = events[i];
    // A signal deferred earlier in this in-order queue comes before the work that waits.
    if (signaledEarlierHere(event)) continue;
    if (event->isSignaled()) {
      if (failure == 0) failure = event->error();
      continue;
    }
    if (!waitInQueue(event)) onHost.push_back(event);
  }
  if (!onHost.empty()) retire(true);
  for (Event* event : onHost) {
    event->hostSynchronize(UINT64_MAX);
    if (failure == 0) failure = event->error();
  }
  if (failure_ == 0) failure_ = failure;
}

// Only for an event whose device write some queue has issued already: a GPU's driver waits for
// every stream of the GPU in some calls (CUDA's module loads), and a stream waiting for a signal
// that only later host action gives would hang a thread that makes such a call first
// (benchmarks/gpu/stream_wait_probe.cu). Such waits block this queue's thread instead.
bool CommandExecutor::waitInQueue(Event* event) {
  if (!deviceEventWaits_ || !event->deviceVisible() || !event->deviceSignalIssued()) return false;
  markProgress();
  if (!queue_->waitValue(event->deviceWord(), 1)) return false;
  queueWaits_.push_back({event, deferredSignals_.size()});
  issued();
  return true;
}

std::string CommandExecutor::describeQueueWaits() const {
  std::string text;
  for (const QueueWait& wait : queueWaits_) {
    char line[96];
    std::snprintf(line, sizeof line, "%sevent %p: device word %u, %s", text.empty() ? "" : "; ", static_cast<void*>(wait.event),
                  std::atomic_ref<uint32_t>(*wait.event->deviceWord()).load(std::memory_order_acquire),
                  wait.event->isSignaled() ? "signaled" : "not signaled");
    text += line;
  }
  return text;
}

bool CommandExecutor::signaledEarlierHere(const Event* event) const {
  return std::any_of(deferredSignals_.begin(), deferredSignals_.end(),
                     [&](const DeferredTime& signal) { return signal.event == event; });
}

void CommandExecutor::recordDeviceFailure(int32_t failure) {
  int32_t none = 0;
  if (failure) deviceFailure_.compare_exchange_strong(none, failure, std::memory_order_acq_rel);
}

void CommandExecutor::signal(Event* event) {
  if (inFlight_) {
    // The end is timed on the device only for events whose start was: marks cost driver calls.
    deferredSignals_.push_back({event, startMarked(event) ? queue_->markTime() : BackendQueue::kNoMark});
    // Queues that wait for the event go on as soon as the device gets here, not at retirement.
    if (deviceEventWaits_ && event->deviceVisible() && queue_->writeValue(event->deviceWord(), 1))
      event->noteDeviceSignalIssued();
    return;
  }
  event->signal(backend_.timestamp());
}

// The start of the work that follows: on a device that runs it later, the time the device gets
// there. Behind work in flight, a start the queue cannot mark waits for that work all the same,
// and takes the time of its retirement.
void CommandExecutor::markStart(Event* event) {
  const uint32_t mark = queue_->markTime();
  if (mark == BackendQueue::kNoMark && !inFlight_) return event->markStart(backend_.timestamp());
  inFlight_ = true;
  deferredStarts_.push_back({event, mark, deferredSignals_.size()});
}

bool CommandExecutor::startMarked(const Event* event) const {
  return std::any_of(deferredStarts_.begin(), deferredStarts_.end(),
                     [&](const DeferredTime& start) { return start.event == event; });
}

void CommandExecutor::launch(const DecodedCommand& command) {
  const auto& recorded = command.as<LaunchKernelCommand>();
  const IndirectLaunch& indirect = recorded.indirect;
  if (indirect.kernelCount && *indirect.kernelCount <= indirect.kernelIndex) return;
  const uint8_t* arguments = trailingData(command);
  const auto issue = [&](const KernelLaunch& launch) {
    queue_->launch(launch, arguments);
    backend_.workCounters().countLaunch(launch);
  };
  if (indirect.groupCount)
    issue(recorded.launch.withGroupCount(indirect.groupCount));
  else
    issue(recorded.launch);
  issued();
}

void CommandExecutor::executeCommand(const DecodedCommand& command) {
  if (TraceRecorder::enabled() && DeviceWorkTrace::isDeviceWork(command)) return executeTraced(command);
  runCommand(command);
}

void CommandExecutor::executeTraced(const DecodedCommand& command) {
  const DeviceWorkTrace::Start start = trace_.begin();
  runCommand(command);
  // Times the queue marked are known at retirement, which only work in flight gets.
  if (trace_.end(start, command)) inFlight_ = true;
}

void CommandExecutor::runCommand(const DecodedCommand& command) {
  switch (command.header->opcode) {
    case Opcode::LaunchKernel:
      launch(command);
      break;
    case Opcode::Copy: {
      const auto& copy = command.as<CopyCommand>();
      queue_->copy(copy.destination, copy.source, copy.size);
      backend_.workCounters().countCopy(bytesWritten(command));
      issued();
      break;
    }
    case Opcode::CopyRegion:
      queue_->copyRegion(command.as<CopyRegionCommand>());
      backend_.workCounters().countCopy(bytesWritten(command));
      issued();
      break;
    case Opcode::Fill: {
      const auto& fill = command.as<FillCommand>();
      queue_->fill(fill.destination, trailingData(command), fill.patternSize, fill.size);
      backend_.workCounters().countFill(bytesWritten(command));
      issued();
      break;
    }
    case Opcode::FillRegion:
      queue_->fillRegion(command.as<FillRegionCommand>(), trailingData(command));
      backend_.workCounters().countFill(bytesWritten(command));
      issued();
      break;
    case Opcode::SignalEvent: signal(command.as<EventCommand>().event); break;
    case Opcode::MarkEventStart: markStart(command.as<EventCommand>().event); break;
    case Opcode::WaitEvents: waitEvents(command); break;
    case Opcode::ResetEvent:
      retire(true);
      command.as<EventCommand>().event->reset();
      break;
    case Opcode::HostFunction: {
      retire(true);
      const auto& call = command.as<HostFunctionCommand>();
      call.function(call.userData);
      break;
    }
    case Opcode::WriteTimestamp:
      retire(true);
      writeResults(std::vector<std::pair<char*, uint64_t>>{
          {reinterpret_cast<char*>(command.as<WriteTimestampCommand>().destination), backend_.timestamp()}});
      break;
    // At issue, as the counters count: the work a query brackets is what was issued between.
    case Opcode::SampleWorkCounters:
      *command.as<SampleWorkCountersCommand>().destination = backend_.workCounters().sample();
      break;
    case Opcode::PassStreamerMarker:
      retire(true);
      backend_.workCounters().passMarker(command.as<StreamerMarkerCommand>().value);
      break;
    case Opcode::QueryKernelTimestamps:
      retire(true);
      writeResults(queriedTimestamps(command));
      break;
    // In-order queues already order every command; memory is coherent on the CPU, and the CUDA
    // driver keeps managed memory coherent itself.
    case Opcode::Barrier:
    case Opcode::Prefetch:
    case Opcode::MemoryAdvise: break;
  }
}

void executeCommandStream(const std::vector<uint8_t>& bytes, Backend& backend) {
  CommandExecutor executor(backend);
  executor.execute(bytes);
  executor.retire(true);
}

}  // namespace loom::core
