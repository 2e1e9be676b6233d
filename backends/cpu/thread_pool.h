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
 public:
  // `threads` includes a caller: the pool has threads - 1 workers.
  explicit ThreadPool(unsigned threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  unsigned threads() const { return static_cast<unsigned>(workers_.size()) + 1; }

  // Calls task(first, last, thread) for consecutive runs [first, last) that together cover
  // [0, count) once, spread over the threads; returns when all are done. Runs let the task carry
  // state from one index to the next (a group id, instead of dividing it out of the index).
  // `thread` in [1, threads()) identifies a worker (for per-thread scratch); 0 is the calling
  // thread, which may be one of several calling at once. A task that returns false stops the
  // job: runs not yet started are not handed out (a task returning void never stops it).
  template <typename Task>
  void run(uint64_t count, Task&& task) {
    runErased(count, &task, [](void* erased, uint64_t first, uint64_t last, unsigned thread) -> bool {
      Task& typed = *static_cast<Task*>(erased);
      if constexpr (std::is_void_v<decltype(typed(first, last, thread))>) {
        typed(first, last, thread);
        return true;
      } else {
        return typed(first, last, thread);
      }
    });
  }

 private:
  using Trampoline = bool (*)(void*, uint64_t, uint64_t, unsigned);
  struct Job {
    void* task;
    Trampoline trampoline;
    uint64_t count;
    std::atomic<uint64_t> next{0};
  };
  // Where a running job is posted for the workers. `helpers` counts the workers inside the job
  // (and, briefly, workers checking a job that has just left): the job's thread waits for it to
  // drop to 0 before the job ends, and the slot is only reused after that.
  struct alignas(64) Slot {
    std::atomic<Job*> job{nullptr};
    std::atomic<uint32_t> helpers{0};
    std::atomic<bool> hasWork{false};  // a hint: false once a worker found every index handed out
    std::atomic<bool> ownerSleeping{false};  // the job's thread sleeps on helpers (a futex)
  };
  static constexpr unsigned kSlots = 32;

  void runErased(uint64_t count, void* task, Trampoline trampoline);
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

  // Workers exist only in the process that created them: a forked child runs work itself.
  const uint32_t ownerProcess_;  // process generation (process_generation.h)
  std::vector<std::thread> workers_;
  Slot slots_[kSlots];
  std::atomic<uint32_t> occupied_{0};    // a bit per slot that holds or is freeing a job
  std::atomic<uint32_t> generation_{0};  // bumped when a job is posted; idle workers wait on it
  std::atomic<bool> stopping_{false};
};

}  // namespace loom::backends::cpu
