#pragma once
// An engine consumes submitted command streams in order on its own thread, issuing them to a
// hardware queue of its own. submit() returns a monotonically increasing task count; the
// completion tag reaches it when that stream's work is done. On a GPU the engine issues the next
// stream while the device still runs earlier ones, and retires them as the device finishes.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "loom/core/backend.h"
#include "loom/core/command_executor.h"
#include "loom/core/engine_registry.h"

namespace loom::core {

class Engine {
 public:
  // `onCompletion` runs on the engine's thread after each stream completes; `registry`, when
  // given, lists the engine while it lives.
  Engine(Backend& backend, std::function<void()> onCompletion, EngineRegistry* registry = nullptr);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  uint64_t submit(std::shared_ptr<const std::vector<uint8_t>> stream);
  // Runs the stream on the calling thread when everything submitted before it has completed, and
  // submits it otherwise: a caller that waits for the stream anyway saves two thread hand-offs.
  // The completion callback does not run for a stream run here; the caller does that work.
  uint64_t runHereOrSubmit(std::shared_ptr<const std::vector<uint8_t>> stream);
  uint64_t completionTag() const { return completionTag_.load(std::memory_order_acquire); }
  uint64_t submittedTaskCount() const { return submitted_.load(std::memory_order_acquire); }
  // True when the stream with `taskCount` completed within timeoutNs (UINT64_MAX: forever).
  bool waitForTaskCount(uint64_t taskCount, uint64_t timeoutNs);
  Backend& backend() { return backend_; }
  // The first failure of this engine's device work (command_executor.h), or 0.
  int32_t deviceFailure() const { return executor_.deviceFailure(); }

 private:
  void run();
  // The next submitted stream, or nullptr when the engine stops; while none is there, issued
  // device work is retired as it completes.
  std::shared_ptr<const std::vector<uint8_t>> nextStream();
  bool nothingSubmitted() const {
    return submitted_.load(std::memory_order_acquire) == issued_.load(std::memory_order_acquire);
  }
  // Completes the streams issued so far (their work is done): advances the completion tag.
  void retireIssued();
  // With nothing submitted: waits until the issued work is done, then retires it. Work that
  // waits in the queue for a signal may take any time: then the engine polls it and returns
  // early, returning false, when a submission arrives (which it issues then) or the engine stops.
  bool retireWhileIdle();
  void trace(const std::vector<uint8_t>& stream) const;
  // Runs the stream to completion on the calling thread, which holds mutex_; returns its task count.
  uint64_t runLocked(const std::vector<uint8_t>& stream);

  Backend& backend_;
  CommandExecutor executor_;
  // Streams issued to the executor: by the engine thread, or by runLocked while the engine is idle.
  std::atomic<uint64_t> issued_{0};
  std::function<void()> onCompletion_;
  EngineRegistry* registry_;
  uint64_t registryId_ = 0;
  // The worker thread exists only in the process that created it: a forked child executes
  // submissions on the submitting thread.
  const uint32_t ownerProcess_;  // process generation (process_generation.h)
  std::mutex mutex_;
  std::condition_variable workArrived_;
  std::condition_variable completed_;
  std::deque<std::shared_ptr<const std::vector<uint8_t>>> pending_;
  std::atomic<uint64_t> submitted_{0};  // task count of the last submission, readable without the lock
  uint64_t taskCount_ = 0;
  std::atomic<uint64_t> completionTag_{0};
  bool stopping_ = false;
  std::thread worker_;
};

}  // namespace loom::core
