#pragma once
// An engine consumes submitted command streams in order on its own thread, issuing them to a
// hardware queue of its own. submit() returns a monotonically increasing task count; the
// completion tag reaches it when that stream's work is done. On a GPU the engine issues the next
// stream while the device still runs earlier ones, and retires them as the device finishes.
//
// Destroying an engine never waits for work that has not completed (a kernel may never end):
// the engine's thread then goes on alone, runs what was submitted to the end and frees the
// engine's state itself. It stays listed in the registry until then, so that releases deferred
// until submitted work completes (Runtime::releaseAfterSubmittedWork) keep what the work uses.
#include <cstdint>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include "loom/core/backend.h"
#include "loom/core/engine_registry.h"

namespace loom::core {

class CommandStream;

class Engine {
 public:
  // `onCompletion` runs on the engine's thread after each stream completes, and then
  // `ownerCompletion`, which stops running once the engine is destroyed (the owner goes with it);
  // `registry`, when given, lists the engine while it has work.
  Engine(Backend& backend, std::function<void()> onCompletion, EngineRegistry* registry = nullptr,
         std::function<void()> ownerCompletion = {});
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Submits a stream its owner keeps (a regular command list's, which it may submit again).
  uint64_t submit(std::shared_ptr<const std::vector<uint8_t>> stream);
  // Submits what `stream` holds, leaving it empty. The stream goes on in the storage of one that
  // has run, so that a submitter of one command after another (an immediate list) allocates none.
  uint64_t submit(CommandStream& stream);
  // Runs the stream on the calling thread when everything submitted before it has completed, and
  // submits it otherwise: a caller that waits for the stream anyway saves two thread hand-offs.
  // The completion callback does not run for a stream run here; the caller does that work.
  uint64_t runHereOrSubmit(CommandStream& stream);
  uint64_t completionTag() const;
  uint64_t submittedTaskCount() const;
  // True when the stream with `taskCount` completed within timeoutNs (UINT64_MAX: forever).
  bool waitForTaskCount(uint64_t taskCount, uint64_t timeoutNs);
  Backend& backend() { return backend_; }
  // The first failure of this engine's device work (command_executor.h), or 0.
  int32_t deviceFailure() const;

 private:
  class State;  // everything the engine's thread uses: shared with it, which may outlive the engine

  Backend& backend_;
  std::shared_ptr<State> state_;
  std::thread worker_;
};

}  // namespace loom::core
