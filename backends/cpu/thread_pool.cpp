#include "backends/cpu/thread_pool.h"

#include <algorithm>

#include "loom/core/futex.h"
#include "loom/core/process_generation.h"

namespace loom::backends::cpu {

namespace {
// Workers spin this many polls before sleeping, so back-to-back launches start without a wake-up.
constexpr int kSpinPolls = 20000;
// A run takes 1/(threads * this) of the indices left.
constexpr uint64_t kRunsPerThreadShare = 2;
}  // namespace

ThreadPool::ThreadPool(unsigned threads) : ownerProcess_(core::processGeneration()) {
  for (unsigned thread = 1; thread < std::max(threads, 1u); ++thread)
    workers_.emplace_back([this, thread] { workerLoop(thread); });
}

ThreadPool::~ThreadPool() {
  if (core::processGeneration() != ownerProcess_) {
    for (auto& worker : workers_) worker.detach();  // they do not exist in this process
    return;
  }
  stopping_.store(true);
  generation_.fetch_add(1);
  core::futexWakeAll(reinterpret_cast<uint32_t*>(&generation_));
  for (auto& worker : workers_) worker.join();
}

void ThreadPool::runErased(uint64_t count, void* task, Trampoline trampoline) {
  if (count == 0) return;
  std::lock_guard lock(runMutex_);
  if (workers_.empty() || count == 1 || core::processGeneration() != ownerProcess_) {
    trampoline(task, 0, count, 0);
    return;
  }
  task_ = task;
  trampoline_ = trampoline;
  count_ = count;
  next_.store(0, std::memory_order_relaxed);
  busyWorkers_.store(static_cast<uint32_t>(workers_.size()), std::memory_order_relaxed);
  callerSleeping_.store(false, std::memory_order_relaxed);
  generation_.fetch_add(1, std::memory_order_release);
  core::futexWakeAll(reinterpret_cast<uint32_t*>(&generation_));
  work(0);
  waitForWorkers();
}

void ThreadPool::waitForWorkers() {
  // Spin first: workers usually finish their last chunk within microseconds. A worker that lost
  // its core to another process can take a time slice, which this thread must not spend polling.
  int polls = 0;
  for (uint32_t busy; (busy = busyWorkers_.load(std::memory_order_acquire)) != 0;) {
    if (++polls < kSpinPolls) continue;
    callerSleeping_.store(true);  // sequentially consistent with the workers' decrement
    if (busyWorkers_.load() == 0) return;
    core::futexWait(reinterpret_cast<const uint32_t*>(&busyWorkers_), busy, UINT64_MAX);
  }
}

void ThreadPool::work(unsigned thread) {
  // Guided runs: each takes a share of what is left, so the first runs are long (few atomics,
  // long sequential streams) and the last ones short (no thread idles for long at the end).
  const uint64_t share = uint64_t(threads()) * kRunsPerThreadShare;
  uint64_t first = next_.load(std::memory_order_relaxed);
  for (;;) {
    if (first >= count_) return;
    const uint64_t last = first + std::max<uint64_t>(1, (count_ - first) / share);
    if (!next_.compare_exchange_weak(first, last, std::memory_order_relaxed)) continue;
    trampoline_(task_, first, last, thread);
    first = next_.load(std::memory_order_relaxed);
  }
}

void ThreadPool::workerLoop(unsigned thread) {
  // Jobs only start after construction, so every worker starts from generation 0 even if a job
  // was posted before this thread first ran.
  uint32_t seen = 0;
  for (;;) {
    int polls = 0;
    uint32_t current;
    while ((current = generation_.load(std::memory_order_acquire)) == seen) {
      if (++polls < kSpinPolls) continue;
      core::futexWait(reinterpret_cast<const uint32_t*>(&generation_), seen, UINT64_MAX);
    }
    seen = current;
    if (stopping_.load()) return;
    work(thread);
    if (busyWorkers_.fetch_sub(1) == 1 && callerSleeping_.load())
      core::futexWakeAll(reinterpret_cast<uint32_t*>(&busyWorkers_));
  }
}

}  // namespace loom::backends::cpu
