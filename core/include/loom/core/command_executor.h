#pragma once
// Runs command streams, in order, on one hardware queue of a device's backend.
#include <atomic>
#include <memory>
#include <utility>
#include <string>
#include <vector>

#include "loom/core/backend.h"
#include "loom/core/device_work_trace.h"

namespace loom::core {

class Event;
struct DecodedCommand;

// Issues commands to a BackendQueue. On an asynchronous queue (a GPU) device work may still be in
// flight when execute() returns: event signals that follow it wait until retire() finds the work
// complete, and every other host-side command (resets, host functions, timestamps) first waits
// for it. Signals of events the device can address are also written by the device (writeValue);
// a wait for such an event whose write a queue has issued goes into the queue itself (waitValue);
// other waits block the calling thread. On a synchronous queue (the CPU) everything completes
// inside execute().
class CommandExecutor {
 public:
  explicit CommandExecutor(Backend& backend);
  ~CommandExecutor();
  CommandExecutor(const CommandExecutor&) = delete;
  CommandExecutor& operator=(const CommandExecutor&) = delete;

  void execute(const std::vector<uint8_t>& bytes);
  // True when no device work or deferred signal is outstanding.
  bool idle() const { return !inFlight_; }
  // True when the issued work waits in the queue for events that something else signals: its
  // completion may take any time (Engine polls rather than blocks then).
  bool waitsInQueue() const { return !queueWaits_.empty(); }
  // "event 0x...: device word 0, not signaled; ..." for each event the queue waits for on the
  // device: what a queue that does not complete is stuck on.
  std::string describeQueueWaits() const;
  bool asynchronous() const { return queue_->asynchronous(); }
  // Completes what is outstanding once the device has finished it: at once when `wait` is false
  // and the device is not done yet, returns false, having completed the signals before any wait
  // in the queue that the device has reached; with `wait`, blocks until it is. True when idle.
  bool retire(bool wait);
  // The first failure of device work this executor saw (a negative execution status), or 0.
  // Sticky, as a GPU context that faulted stays unusable; readable from any thread.
  int32_t deviceFailure() const { return deviceFailure_.load(std::memory_order_acquire); }
  // The engine's track on the LOOM_TraceFile timeline (0 while tracing is off).
  uint32_t traceTrack() const { return trace_.engineTrack(); }

 private:
  void executeCommand(const DecodedCommand& command);
  // executeCommand, with the device work timed on the trace.
  void executeTraced(const DecodedCommand& command);
  void runCommand(const DecodedCommand& command);
  // Issues a LaunchKernel command, its indirect group counts read now.
  void launch(const DecodedCommand& command);
  void signal(Event* event);
  void markStart(Event* event);
  bool startMarked(const Event* event) const;
  // Event times that complete with the device work before them: a mark of the queue (kNoMark when
  // the time is that of retirement).
  struct DeferredTime {
    Event* event;
    uint32_t mark;
    // Of a start: how many signals were deferred before it, which complete first (an in-order
    // queue's command is never seen running before the one before it is seen complete).
    size_t signalsBefore = 0;
  };
  // The time of a deferred mark; `now` for kNoMark.
  uint64_t timeOf(const DeferredTime& deferred, uint64_t now) const;
  // A mark of a queue over several tiles (a root device's) is timed on each tile apart.
  bool timedPerTile(const DeferredTime& deferred) const;
  std::vector<uint64_t> tileTimesOf(const DeferredTime& deferred) const;
  // After each command issued to the device: only an asynchronous queue leaves work in flight
  // (and only then is inFlight_ written); a command the device refused abandons the stream.
  void issued();
  // Completes the deferred starts and signals before the given counts not completed yet; those
  // of work that failed fail with `deviceFailure`, or with the error of an event waited for in
  // the queue before them.
  void completeDeferred(size_t starts, size_t signals, int32_t deviceFailure);
  // How the deferred signals of one completeDeferred end: the time, a device failure, and the
  // first signal after a wait for an event that failed (with that event's error).
  struct SignalOutcome {
    uint64_t now;
    int32_t deviceFailure;
    size_t firstFailed = 0;
    int32_t waitedFailure = 0;
  };
  // Completes the deferred signals before index `signals` not completed yet (completeDeferred).
  void completeSignals(size_t signals, const SignalOutcome& outcome);
  void waitEvents(const DecodedCommand& command);
  // Makes the queue wait for `event`; false when it cannot (the caller waits on the host).
  bool waitInQueue(Event* event);
  // Before a wait in the queue: the host may signal the awaited event only once it has seen the
  // signals deferred before it, so a mark there lets retire(false) complete them while the queue
  // waits (completeReachedProgress).
  void markProgress();
  void completeReachedProgress();
  bool signaledEarlierHere(const Event* event) const;
  // The signals deferred after a wait in the queue whose event failed (the work between ran
  // anyway) fail with its error: from that signal's index on, or deferredSignals_.size().
  size_t firstSignalAfterAFailedWait(int32_t& error) const;
  void recordDeviceFailure(int32_t failure);
  template <typename Value>
  void writeResults(const std::vector<std::pair<char*, Value>>& results);

  Backend& backend_;
  std::unique_ptr<BackendQueue> queue_;
  bool inFlight_ = false;
  std::vector<DeferredTime> deferredStarts_;   // in stream order
  std::vector<DeferredTime> deferredSignals_;  // in stream order
  // Waits issued to the queue since the last retirement, with how many signals were deferred
  // before each.
  struct QueueWait {
    Event* event;
    size_t signalsBefore;
  };
  std::vector<QueueWait> queueWaits_;
  // Marks before waits in the queue, with how many starts and signals were deferred before each,
  // in stream order; those the device has reached are dropped once their signals are complete.
  struct ProgressPoint {
    uint32_t mark;
    size_t starts;
    size_t signals;
  };
  std::vector<ProgressPoint> progressPoints_;
  size_t completedStarts_ = 0;   // of deferredStarts_, completed while later work was in flight
  size_t completedSignals_ = 0;  // of deferredSignals_, likewise
  const bool deviceEventWaits_;  // the EnableDeviceEventWaits debug key
  int32_t failure_ = 0;                  // of the stream being executed: a failed wait or command
  std::atomic<int32_t> deviceFailure_{0};
  DeviceWorkTrace trace_;
};

// Executes `bytes` on a queue of `backend` and waits for all of it (tests, forked children).
void executeCommandStream(const std::vector<uint8_t>& bytes, Backend& backend);

}  // namespace loom::core
