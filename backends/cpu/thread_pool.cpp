#include "backends/cpu/thread_pool.h"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <bit>
#include <cstring>

#include "loom/core/futex.h"
#include "loom/core/log.h"
#include "loom/core/process_generation.h"

namespace loom::backends::cpu {

namespace {
// Threads spin this many polls before sleeping, so back-to-back launches start without a wake-up.
constexpr int kSpinPolls = 20000;
// A run takes 1/(threads * this) of the indices left.
constexpr uint64_t kRunsPerThreadShare = 2;
constexpr uint32_t kAllSlots = ~uint32_t(0);

uint32_t* futexWord(std::atomic<uint32_t>& word) { return reinterpret_cast<uint32_t*>(&word); }
}  // namespace

ThreadPool::ThreadPool(unsigned threads, unsigned tiles, const std::vector<std::vector<int>>& tileCores)
    : ownerProcess_(core::processGeneration()), tiles_(std::max(tiles, 1u)) {
  threads = std::max(threads, 1u);
  tiles = std::max(tiles, 1u);
  // Consecutive threads form a tile; the calling thread (0) counts in tile 0.
  for (unsigned thread = 0; thread < threads; ++thread) homeTile_.push_back(tiles == 1 ? 0 : thread * tiles / threads);
  for (unsigned thread = 1; thread < threads; ++thread) {
    workers_.emplace_back([this, thread] { workerLoop(thread); });
    if (homeTile_[thread] < tileCores.size()) pin(workers_.back(), tileCores[homeTile_[thread]]);
  }
}

void ThreadPool::pin(std::thread& worker, const std::vector<int>& cores) {
  if (cores.empty()) return;
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int core : cores)
    if (core >= 0 && core < CPU_SETSIZE) CPU_SET(core, &set);
  if (const int error = pthread_setaffinity_np(worker.native_handle(), sizeof(set), &set))
    core::debugMessage("a CPU worker thread stays unpinned: pthread_setaffinity_np: %s", std::strerror(error));
}

std::vector<int> ThreadPool::cpusOf(unsigned thread) {
  if (thread == 0 || thread > workers_.size()) return {};
  cpu_set_t set;
  CPU_ZERO(&set);
  if (pthread_getaffinity_np(workers_[thread - 1].native_handle(), sizeof(set), &set) != 0) return {};
  std::vector<int> cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  return cpus;
}

ThreadPool::~ThreadPool() {
  if (core::processGeneration() != ownerProcess_) {
    for (auto& worker : workers_) worker.detach();  // they do not exist in this process
    return;
  }
  stopping_.store(true);
  generation_.fetch_add(1);
  core::futexWakeAll(futexWord(generation_));
  for (auto& worker : workers_) worker.join();
}

bool ThreadPool::workersAvailable(uint64_t count) const {
  return !workers_.empty() && count > 1 && core::processGeneration() == ownerProcess_;
}

void ThreadPool::runErased(uint64_t count, void* task, Trampoline trampoline, unsigned tile) {
  if (count == 0) return;
  Job job{task, trampoline, count, tile};
  if (!workersAvailable(count)) return runAlone(job);
  const unsigned slot = post(job);
  if (slot == kSlots) return runAlone(job);
  work(job, 0, nullptr);
  withdraw(slot);
}

void ThreadPool::startErased(StartedJob& started, uint64_t count, void* task, Trampoline trampoline, unsigned tile) {
  started.job.task = task;
  started.job.trampoline = trampoline;
  started.job.count = count;
  started.job.tile = tile;
  started.job.next.store(0, std::memory_order_relaxed);
  started.started = count != 0;
  started.slot = started.started && workersAvailable(count) ? post(started.job) : kSlots;
}

void ThreadPool::finish(StartedJob& started) {
  if (!started.started) return;
  started.started = false;
  if (started.slot == kSlots) return runAlone(started.job);
  work(started.job, 0, nullptr);
  withdraw(started.slot);
}

void ThreadPool::runAlone(Job& job) { job.trampoline(job.task, 0, job.count, 0); }

unsigned ThreadPool::post(Job& job) {
  uint32_t occupied = occupied_.load();
  unsigned slot;
  do {
    if (occupied == kAllSlots) return kSlots;
    slot = static_cast<unsigned>(std::countr_one(occupied));
  } while (!occupied_.compare_exchange_weak(occupied, occupied | (uint32_t(1) << slot)));
  Slot& posted = slots_[slot];
  posted.ownerSleeping.store(false, std::memory_order_relaxed);
  posted.hasWork.store(true, std::memory_order_relaxed);
  posted.tile.store(job.tile, std::memory_order_relaxed);
  posted.job.store(&job);
  generation_.fetch_add(1);
  core::futexWakeAll(futexWord(generation_));
  return slot;
}

void ThreadPool::withdraw(unsigned slot) {
  Slot& posted = slots_[slot];
  posted.job.store(nullptr);  // workers that look now leave at once
  waitForHelpers(posted);
  occupied_.fetch_and(~(uint32_t(1) << slot));
}

void ThreadPool::waitForHelpers(Slot& slot) {
  // Spin first: workers usually finish their last run within microseconds. A worker that lost
  // its core to another process can take a time slice, which this thread must not spend polling.
  int polls = 0;
  for (uint32_t busy; (busy = slot.helpers.load()) != 0;) {
    if (++polls < kSpinPolls) continue;
    slot.ownerSleeping.store(true);  // sequentially consistent with the workers' decrement
    if (slot.helpers.load() == 0) return;
    core::futexWait(futexWord(slot.helpers), busy, UINT64_MAX);
  }
}

void ThreadPool::work(Job& job, unsigned thread, const uint32_t* leaveAt) {
  // Guided runs: each takes a share of what is left, so the first runs are long (few atomics,
  // long sequential streams) and the last ones short (no thread idles for long at the end).
  const uint64_t share = uint64_t(threads()) * kRunsPerThreadShare;
  uint64_t first = job.next.load(std::memory_order_relaxed);
  for (;;) {
    if (first >= job.count) return;
    if (leaveAt && generation_.load(std::memory_order_relaxed) != *leaveAt) return;
    const uint64_t last = first + std::max<uint64_t>(1, (job.count - first) / share);
    if (!job.next.compare_exchange_weak(first, last, std::memory_order_relaxed)) continue;
    if (!job.trampoline(job.task, first, last, thread)) stop(job);
    first = job.next.load(std::memory_order_relaxed);
  }
}

void ThreadPool::stop(Job& job) {
  uint64_t next = job.next.load(std::memory_order_relaxed);
  while (next < job.count && !job.next.compare_exchange_weak(next, job.count, std::memory_order_relaxed)) {
  }
}

unsigned ThreadPool::leastHelpedSlot(unsigned thread) const {
  // Workers start their search at different slots, so that among equally helped jobs they spread.
  const uint32_t occupied = std::rotr(occupied_.load(), int(thread % kSlots));
  unsigned best = kSlots;
  uint32_t fewest = UINT32_MAX;
  for (uint32_t rest = occupied; rest != 0; rest &= rest - 1) {
    const unsigned slot = (unsigned(std::countr_zero(rest)) + thread) % kSlots;
    const Slot& candidate = slots_[slot];
    if (!helps(thread, candidate)) continue;
    if (!candidate.hasWork.load(std::memory_order_relaxed) || !candidate.job.load(std::memory_order_relaxed)) continue;
    const uint32_t helpers = candidate.helpers.load(std::memory_order_relaxed);
    if (helpers < fewest) {
      best = slot;
      fewest = helpers;
    }
  }
  return best;
}

bool ThreadPool::helps(unsigned thread, const Slot& slot) const {
  const unsigned tile = slot.tile.load(std::memory_order_relaxed);
  return tile == kAnyTile || tile == homeTile_[thread];
}

bool ThreadPool::joinAJob(unsigned thread, uint32_t generation) {
  const unsigned index = leastHelpedSlot(thread);
  if (index == kSlots) return false;
  Slot& slot = slots_[index];
  Job* job = slot.job.load();
  slot.helpers.fetch_add(1);
  // Only a job still posted after joining is alive until this worker leaves (and it may have
  // replaced the one chosen, of another tile).
  if (job && slot.job.load() == job && (job->tile == kAnyTile || job->tile == homeTile_[thread])) {
    work(*job, thread, &generation);
    if (job->next.load(std::memory_order_relaxed) >= job->count) slot.hasWork.store(false, std::memory_order_relaxed);
  }
  if (slot.helpers.fetch_sub(1) == 1 && slot.ownerSleeping.load()) core::futexWakeAll(futexWord(slot.helpers));
  return true;
}

void ThreadPool::workerLoop(unsigned thread) {
  for (;;) {
    const uint32_t generation = generation_.load();
    if (stopping_.load()) return;
    if (joinAJob(thread, generation)) continue;
    int polls = 0;
    while (generation_.load(std::memory_order_acquire) == generation) {
      if (++polls < kSpinPolls) continue;
      core::futexWait(futexWord(generation_), generation, UINT64_MAX);
    }
  }
}

}  // namespace loom::backends::cpu
