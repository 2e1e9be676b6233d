#include "loom/core/engine.h"

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

uint64_t Engine::submit(std::shared_ptr<const std::vector<uint8_t>> stream) {
  if (debugKeys().PrintCommandStream)
    std::fprintf(stderr, "[loom] command stream submitted to %s engine:\n%s", backend_.info().name.c_str(),
                 describeCommandStream(*stream).c_str());
  if (processGeneration() != ownerProcess_) return runInForkedChild(*stream);
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

uint64_t Engine::runInForkedChild(const std::vector<uint8_t>& stream) {
  std::lock_guard lock(mutex_);
  executor_.execute(stream);
  executor_.retire(true);
  const uint64_t taskCount = ++taskCount_;
  submitted_.store(taskCount, std::memory_order_release);
  completionTag_.store(taskCount, std::memory_order_release);
  return taskCount;
}

bool Engine::waitForTaskCount(uint64_t taskCount, uint64_t timeoutNs) {
  auto done = [&] { return completionTag() >= taskCount; };
  const uint64_t deadline = timeoutNs == UINT64_MAX ? UINT64_MAX : monotonicNanoseconds() + timeoutNs;
  if (spinUntil(done, deadline)) return true;
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
    ++issued_;
    // Now and then, retire without waiting when the device is done already, so that a steady
    // stream of submissions never keeps waiters of earlier ones waiting (a poll of the device
    // after every stream would cost each launch a driver call).
    if ((executor_.idle() || issued_ % kPollEvery == 0) && executor_.retire(false)) retireIssued();
  }
  executor_.retire(true);
  retireIssued();
}

std::shared_ptr<const std::vector<uint8_t>> Engine::nextStream() {
  // Back-to-back submissions are common: poll briefly before sleeping, so that the next one is
  // issued without a wake-up (and, on a GPU, before the device runs dry).
  for (int spin = 0; spin < 20000 && nothingSubmitted(); ++spin)
    if (!executor_.idle() && spin % 64 == 0 && executor_.retire(false)) retireIssued();
  if (nothingSubmitted() && !executor_.idle()) {
    executor_.retire(true);
    retireIssued();
  }
  std::unique_lock lock(mutex_);
  workArrived_.wait(lock, [&] { return stopping_ || !pending_.empty(); });
  if (pending_.empty()) return nullptr;
  std::shared_ptr<const std::vector<uint8_t>> stream = std::move(pending_.front());
  pending_.pop_front();
  return stream;
}

void Engine::retireIssued() {
  if (completionTag() == issued_) return;
  {
    std::lock_guard lock(mutex_);
    completionTag_.store(issued_, std::memory_order_release);
  }
  completed_.notify_all();
  if (onCompletion_) onCompletion_();
}

}  // namespace loom::core
