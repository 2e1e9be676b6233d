#include "loom/core/engine.h"

#include <chrono>
#include <cstdio>

#include "loom/core/command_executor.h"
#include "loom/core/command_stream.h"
#include "loom/core/debug_keys.h"
#include "loom/core/process_generation.h"

namespace loom::core {

Engine::Engine(Backend& backend, std::function<void()> onCompletion, EngineRegistry* registry)
    : backend_(backend),
      onCompletion_(std::move(onCompletion)),
      registry_(registry),
      ownerProcess_(processGeneration()),
      worker_([this] { run(); }) {
  if (registry_) registryId_ = registry_->add(this);
}

Engine::~Engine() {
  if (registry_) registry_->remove(registryId_);
  if (processGeneration() != ownerProcess_) {
    worker_.detach();
    return;
  }
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  workArrived_.notify_all();
  worker_.join();
}

void Engine::trace(const std::vector<uint8_t>& stream) const {
  if (debugKeys().PrintCommandStream)
    std::fprintf(stderr, "[loom] command stream submitted to %s engine:\n%s", backend_.info().name.c_str(),
                 describeCommandStream(stream).c_str());
}

uint64_t Engine::submit(std::shared_ptr<const std::vector<uint8_t>> stream) {
  trace(*stream);
  if (processGeneration() != ownerProcess_) {
    std::lock_guard lock(mutex_);
    return runLocked(*stream);
  }
  uint64_t taskCount;
  {
    std::lock_guard lock(mutex_);
    pending_.push_back(std::move(stream));
    taskCount = ++taskCount_;
    submitted_.store(taskCount, std::memory_order_release);
  }
  workArrived_.notify_one();
  return taskCount;
}

uint64_t Engine::runHereOrSubmit(std::shared_ptr<const std::vector<uint8_t>> stream) {
  std::unique_lock lock(mutex_);
  // The engine thread completes what it took before it increments the completion tag.
  if (!pending_.empty() || completionTag() != taskCount_) {
    lock.unlock();
    return submit(std::move(stream));
  }
  trace(*stream);
  const uint64_t taskCount = runLocked(*stream);
  lock.unlock();
  completed_.notify_all();
  return taskCount;
}

uint64_t Engine::runLocked(const std::vector<uint8_t>& stream) {
  // Holding the lock keeps the engine thread from starting later submissions meanwhile.
  const uint64_t taskCount = ++taskCount_;
  submitted_.store(taskCount, std::memory_order_release);
  executeCommandStream(stream, backend_);
  completionTag_.store(taskCount, std::memory_order_release);
  return taskCount;
}

bool Engine::waitForTaskCount(uint64_t taskCount, uint64_t timeoutNs) {
  // Most short submissions finish within microseconds: spin briefly before sleeping.
  for (int spin = 0; spin < 4000; ++spin)
    if (completionTag() >= taskCount) return true;
  std::unique_lock lock(mutex_);
  auto done = [&] { return completionTag() >= taskCount; };
  if (timeoutNs == UINT64_MAX) {
    completed_.wait(lock, done);
    return true;
  }
  return completed_.wait_for(lock, std::chrono::nanoseconds(timeoutNs), done);
}

void Engine::run() {
  for (;;) {
    // Back-to-back submissions are common: poll briefly before sleeping, so that the next one
    // starts without a wake-up.
    for (int spin = 0; spin < 20000 && submitted_.load(std::memory_order_acquire) == completionTag(); ++spin) {
    }
    std::shared_ptr<const std::vector<uint8_t>> stream;
    {
      std::unique_lock lock(mutex_);
      workArrived_.wait(lock, [&] { return stopping_ || !pending_.empty(); });
      if (pending_.empty()) return;
      stream = std::move(pending_.front());
      pending_.pop_front();
    }
    executeCommandStream(*stream, backend_);
    {
      std::lock_guard lock(mutex_);
      completionTag_.fetch_add(1, std::memory_order_release);
    }
    completed_.notify_all();
    if (onCompletion_) onCompletion_();
  }
}

}  // namespace loom::core
