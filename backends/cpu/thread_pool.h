#pragma once
// A persistent pool of worker threads that runs indexed work (the work-groups of a launch) in
// runs of consecutive indices, each a share of what is left: long runs first, short ones at the
// end. The calling thread takes part, so a pool of N threads has N-1 workers.
#include <atomic>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace loom::backends::cpu {

class ThreadPool {
 public:
  // `threads` includes the caller.
  explicit ThreadPool(unsigned threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  unsigned threads() const { return static_cast<unsigned>(workers_.size()) + 1; }

  // Calls task(first, last, thread) for consecutive runs [first, last) that together cover
  // [0, count) once, spread over the threads; returns when all are done. Runs let the task carry
  // state from one index to the next (a group id, instead of dividing it out of the index).
  // `thread` in [0, threads()) identifies per-thread scratch. One run at a time.
  template <typename Task>
  void run(uint64_t count, Task&& task) {
    runErased(count, &task, [](void* erased, uint64_t first, uint64_t last, unsigned thread) {
      (*static_cast<Task*>(erased))(first, last, thread);
    });
  }

 private:
  using Trampoline = void (*)(void*, uint64_t, uint64_t, unsigned);
  void runErased(uint64_t count, void* task, Trampoline trampoline);
  void work(unsigned thread);
  void waitForWorkers();
  void workerLoop(unsigned thread);

  std::mutex runMutex_;
  // Workers exist only in the process that created them: a forked child runs work itself.
  const uint32_t ownerProcess_;  // process generation (process_generation.h)
  std::vector<std::thread> workers_;
  // The current job.
  void* task_ = nullptr;
  Trampoline trampoline_ = nullptr;
  uint64_t count_ = 0;
  std::atomic<uint64_t> next_{0};
  std::atomic<uint32_t> busyWorkers_{0};
  std::atomic<bool> callerSleeping_{false};  // the caller sleeps on busyWorkers_ (a futex)
  std::atomic<uint32_t> generation_{0};  // bumped to start a job; workers wait on it
  std::atomic<bool> stopping_{false};
};

}  // namespace loom::backends::cpu
