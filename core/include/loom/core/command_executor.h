#pragma once
// Runs command streams, in order, on one hardware queue of a device's backend.
#include <memory>
#include <vector>

#include "loom/core/backend.h"

namespace loom::core {

class Event;
struct DecodedCommand;

// Issues commands to a BackendQueue. On an asynchronous queue (a GPU) device work may still be in
// flight when execute() returns: event signals that follow it wait until retire() finds the work
// complete, and every other host-side command (waits, resets, host functions, timestamps) first
// waits for it. On a synchronous queue (the CPU) everything completes inside execute().
class CommandExecutor {
 public:
  explicit CommandExecutor(Backend& backend);
  ~CommandExecutor();
  CommandExecutor(const CommandExecutor&) = delete;
  CommandExecutor& operator=(const CommandExecutor&) = delete;

  void execute(const std::vector<uint8_t>& bytes);
  // True when no device work or deferred signal is outstanding.
  bool idle() const { return !inFlight_; }
  bool asynchronous() const { return queue_->asynchronous(); }
  // Completes what is outstanding once the device has finished it: at once when `wait` is false
  // and the device is not done yet, returns false; with `wait`, blocks until it is. True when idle.
  bool retire(bool wait);

 private:
  void executeCommand(const DecodedCommand& command);
  void signal(Event* event);
  // Only an asynchronous queue leaves work in flight (and only then is inFlight_ written).
  void issued() {
    if (queue_->asynchronous()) inFlight_ = true;
  }

  Backend& backend_;
  std::unique_ptr<BackendQueue> queue_;
  bool inFlight_ = false;
  std::vector<Event*> deferredSignals_;  // in stream order
  int32_t failure_ = 0;                  // of the stream being executed: set by a failed wait
};

// Executes `bytes` on a queue of `backend` and waits for all of it (tests, forked children).
void executeCommandStream(const std::vector<uint8_t>& bytes, Backend& backend);

}  // namespace loom::core
