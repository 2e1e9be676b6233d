#include "loom/core/engine.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "loom/core/command_executor.h"
#include "loom/core/command_stream.h"
#include "loom/core/debug_keys.h"
#include "loom/core/process_generation.h"
#include "loom/core/spin_wait.h"

namespace loom::core {

namespace {
constexpr uint64_t kPollEvery = 16;  // streams issued between polls of a busy device
// How often an idle engine polls work that waits in the queue for a signal: from the first pause,
// doubling up to the longest.
constexpr auto kFirstPause = std::chrono::microseconds(50);
constexpr auto kLongestPause = std::chrono::milliseconds(1);
}  // namespace

Engine::Engine(Backend& backend, std::function<void()> onCompletion, EngineRegistry* registry)
    : backend_(backend),
      executor_(backend),
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
  // Only on a synchronous queue (the CPU), and only when the engine has completed everything:
  // then its thread touches neither the executor nor the counters until the lock is free.
  if (executor_.asynchronous() || !pending_.empty() || completionTag() != taskCount_) {
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
  // Holding the lock keeps the engine thread from starting later submissions, and from retiring,
  // meanwhile.
  const uint64_t taskCount = ++taskCount_;
  submitted_.store(taskCount, std::memory_order_release);
  issued_.store(taskCount, std::memory_order_release);
  executor_.execute(stream);
  executor_.retire(true);
  completionTag_.store(taskCount, std::memory_order_release);
  return taskCount;
}

bool Engine::waitForTaskCount(uint64_t taskCount, uint64_t timeoutNs) {
  auto done = [&] { return completionTag() >= taskCount; };
  const uint64_t deadline = timeoutNs == UINT64_MAX ? UINT64_MAX : monotonicNanoseconds() + timeoutNs;
  if (spinUntil(done, deadline, waitSpinNanoseconds(backend_.info().type))) return true;
  std::unique_lock lock(mutex_);
  if (timeoutNs == UINT64_MAX) {
    completed_.wait(lock, done);
    return true;
  }
  const uint64_t now = monotonicNanoseconds();
  return completed_.wait_for(lock, std::chrono::nanoseconds(deadline > now ? deadline - now : 0), done);
}

void Engine::run() {
  while (std::shared_ptr<const std::vector<uint8_t>> stream = nextStream()) {
    executor_.execute(*stream);
    const uint64_t issued = issued_.fetch_add(1, std::memory_order_acq_rel) + 1;
    // Now and then, retire without waiting when the device is done already, so that a steady
    // stream of submissions never keeps waiters of earlier ones waiting (a poll of the device
    // after every stream would cost each launch a driver call).
    if ((executor_.idle() || issued % kPollEvery == 0) && executor_.retire(false)) retireIssued();
  }
  executor_.retire(true);
  retireIssued();
}

std::shared_ptr<const std::vector<uint8_t>> Engine::nextStream() {
  // Back-to-back submissions are common: poll briefly before sleeping, so that the next one is
  // issued without a wake-up (and, on a GPU, before the device runs dry). Once the device is done,
  // poll again: a waiter that has just been told tends to submit more at once.
  for (;;) {
    for (int spin = 0; spin < 20000 && nothingSubmitted(); ++spin)
      if (!executor_.idle() && spin % 64 == 0 && executor_.retire(false)) retireIssued();
    if (!nothingSubmitted() || executor_.idle() || !retireWhileIdle()) break;
  }
  std::unique_lock lock(mutex_);
  workArrived_.wait(lock, [&] { return stopping_ || !pending_.empty(); });
  if (pending_.empty()) return nullptr;
  std::shared_ptr<const std::vector<uint8_t>> stream = std::move(pending_.front());
  pending_.pop_front();
  return stream;
}

bool Engine::retireWhileIdle() {
  if (!executor_.waitsInQueue()) {
    executor_.retire(true);
    retireIssued();
    return true;
  }
  auto pause = std::chrono::duration_cast<std::chrono::microseconds>(kFirstPause);
  while (!executor_.retire(false)) {
    std::unique_lock lock(mutex_);
    if (workArrived_.wait_for(lock, pause, [&] { return stopping_ || !pending_.empty(); })) return false;
    pause = std::min<std::chrono::microseconds>(pause * 2, kLongestPause);
  }
  retireIssued();
  return true;
}

void Engine::retireIssued() {
  {
    // Under the lock: runLocked may be advancing both counters on another thread.
    std::lock_guard lock(mutex_);
    const uint64_t issued = issued_.load(std::memory_order_acquire);
    if (completionTag() == issued) return;
    completionTag_.store(issued, std::memory_order_release);
  }
  completed_.notify_all();
  if (onCompletion_) onCompletion_();
}

}  // namespace loom::core
