#pragma once
// A persistent pool of worker threads that runs indexed work (the work-groups of a launch) in
// runs of consecutive indices, each a share of what is left: long runs first, short ones at the
// end. Several threads may run jobs at once (launches of different queues): each job's own
// thread always works on it, and the workers share themselves among the jobs that have work
// left, so a job that never ends holds up only its own thread and the workers inside it.
#include <atomic>
#include <cstdint>
#include <thread>
#include <type_traits>
#include <vector>

namespace loom::backends::cpu {

class ThreadPool {
  struct Job;

 public:
  // `threads` includes a caller: the pool has threads - 1 workers. With several `tiles` the
  // workers are partitioned among them (the tiles of a CPU device share one pool): a worker helps
  // the jobs of its own tile and those of no tile (kAnyTile) only.
  // `tileCores`, when given (one set per tile, tile_cores.h), pins each worker to its tile's
  // cores; the calling thread, which is the application's, is left as it is.
  explicit ThreadPool(unsigned threads, unsigned tiles = 1, const std::vector<std::vector<int>>& tileCores = {});
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  unsigned threads() const { return static_cast<unsigned>(workers_.size()) + 1; }
  unsigned tiles() const { return tiles_; }
  unsigned tileOf(unsigned thread) const { return homeTile_[thread]; }
  // The CPUs worker `thread` (1 to threads() - 1) may run on, as the kernel reports them.
  std::vector<int> cpusOf(unsigned thread);
  static constexpr unsigned kAnyTile = ~0u;

  // Calls task(first, last, thread) for consecutive runs [first, last) that together cover
  // [0, count) once, spread over the threads; returns when all are done. Runs let the task carry
  // state from one index to the next (a group id, instead of dividing it out of the index).
  // `thread` in [1, threads()) identifies a worker (for per-thread scratch); 0 is the calling
  // thread, which may be one of several calling at once. A task that returns false stops the
  // job: runs not yet started are not handed out (a task returning void never stops it).
  // `tile`: whose workers help (kAnyTile: all of them).
  template <typename Task>
  void run(uint64_t count, Task&& task, unsigned tile = kAnyTile) {
    runErased(count, &task, trampolineOf<Task>(), tile);
  }

  // A job its thread leaves to the workers while it does something else (a tile's part of a
  // launch, while the thread runs another tile's), then finishes: works on what is left of it and
  // waits for it to end. The task must live until finish() returns.
  class StartedJob;
  template <typename Task>
  void start(StartedJob& started, uint64_t count, Task& task, unsigned tile) {
    startErased(started, count, &task, trampolineOf<Task>(), tile);
  }
  void finish(StartedJob& started);

 private:
  using Trampoline = bool (*)(void*, uint64_t, uint64_t, unsigned);
  struct Job {
    void* task;
    Trampoline trampoline;
    uint64_t count;
    unsigned tile = kAnyTile;
    std::atomic<uint64_t> next{0};
  };

  template <typename Task>
  static Trampoline trampolineOf() {
    return [](void* erased, uint64_t first, uint64_t last, unsigned thread) -> bool {
      Task& typed = *static_cast<Task*>(erased);
      if constexpr (std::is_void_v<decltype(typed(first, last, thread))>) {
        typed(first, last, thread);
        return true;
      } else {
        return typed(first, last, thread);
      }
    };
  }

 public:
  class StartedJob {
   public:
    StartedJob() = default;
    StartedJob(const StartedJob&) = delete;
    StartedJob& operator=(const StartedJob&) = delete;

   private:
    friend class ThreadPool;
    Job job{};
    unsigned slot = 0;  // kSlots: not posted, its thread runs it alone
    bool started = false;
  };

 private:
  // Where a running job is posted for the workers. `helpers` counts the workers inside the job
  // (and, briefly, workers checking a job that has just left): the job's thread waits for it to
  // drop to 0 before the job ends, and the slot is only reused after that.
  struct alignas(64) Slot {
    std::atomic<Job*> job{nullptr};
    std::atomic<uint32_t> helpers{0};
    std::atomic<bool> hasWork{false};  // a hint: false once a worker found every index handed out
    std::atomic<bool> ownerSleeping{false};  // the job's thread sleeps on helpers (a futex)
    std::atomic<unsigned> tile{kAnyTile};    // the posted job's
  };
  static constexpr unsigned kSlots = 32;

  void runErased(uint64_t count, void* task, Trampoline trampoline, unsigned tile);
  void startErased(StartedJob& started, uint64_t count, void* task, Trampoline trampoline, unsigned tile);
  // False when the calling thread must run a job alone: no workers, or a forked child's pool.
  bool workersAvailable(uint64_t count) const;
  bool helps(unsigned thread, const Slot& slot) const;
  static void runAlone(Job& job);
  // Takes a free slot and posts `job` there; kSlots when all are taken.
  unsigned post(Job& job);
  // Withdraws the job posted in `slot` once no worker is inside it any more.
  void withdraw(unsigned slot);
  void waitForHelpers(Slot& slot);
  // Runs the job's indices on `thread` until none are left, or, for a worker, until another job
  // is posted (`leaveAt`: the generation it joined at), so that workers spread over new jobs.
  void work(Job& job, unsigned thread, const uint32_t* leaveAt);
  static void stop(Job& job);
  // A worker joins the posted job with the fewest workers and runs it; false when no job has
  // indices left.
  bool joinAJob(unsigned thread, uint32_t generation);
  unsigned leastHelpedSlot(unsigned thread) const;
  void workerLoop(unsigned thread);
  static void pin(std::thread& worker, const std::vector<int>& cores);

  // Workers exist only in the process that created them: a forked child runs work itself.
  const uint32_t ownerProcess_;  // process generation (process_generation.h)
  const unsigned tiles_;
  std::vector<std::thread> workers_;
  std::vector<unsigned> homeTile_;  // by thread number
  Slot slots_[kSlots];
  std::atomic<uint32_t> occupied_{0};    // a bit per slot that holds or is freeing a job
  std::atomic<uint32_t> generation_{0};  // bumped when a job is posted; idle workers wait on it
  std::atomic<bool> stopping_{false};
};

}  // namespace loom::backends::cpu
