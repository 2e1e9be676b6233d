#include "backends/cpu/thread_pool.h"

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <utility>
#include <vector>

namespace loom::backends::cpu {
namespace {

TEST(ThreadPool, RunsEveryIndexExactlyOnce) {
  ThreadPool pool(4);
  for (uint64_t count : {0ull, 1ull, 3ull, 1000ull, 100003ull}) {
    std::vector<std::atomic<int>> hits(count);
    pool.run(count, [&](uint64_t first, uint64_t last, unsigned thread) {
      EXPECT_LT(thread, pool.threads());
      EXPECT_LT(first, last);
      for (uint64_t index = first; index < last; ++index) hits[index].fetch_add(1);
    });
    for (uint64_t i = 0; i < count; ++i) ASSERT_EQ(hits[i].load(), 1) << "index " << i << " of " << count;
  }
}

TEST(ThreadPool, UsesSeveralThreadsForManyIndices) {
  ThreadPool pool(3);
  std::vector<std::atomic<int>> byThread(pool.threads());
  pool.run(30000, [&](uint64_t first, uint64_t last, unsigned thread) {
    for (uint64_t index = first; index < last; ++index) {
      byThread[thread].fetch_add(1);
      for (int spin = 0; spin < 200; ++spin) asm volatile("");
    }
  });
  int total = 0;
  for (auto& count : byThread) total += count.load();
  EXPECT_EQ(total, 30000);
}

TEST(ThreadPool, RunsShrinkWithWhatIsLeft) {
  ThreadPool pool(4);
  const uint64_t count = 100000;
  std::mutex mutex;
  std::vector<std::pair<uint64_t, uint64_t>> runs;
  pool.run(count, [&](uint64_t first, uint64_t last, unsigned) {
    std::lock_guard lock(mutex);
    runs.emplace_back(first, last);
  });
  std::sort(runs.begin(), runs.end());
  // No run takes more than one thread's share of what is left, so no thread is left alone with a
  // long run at the end; the very last run is a single index.
  for (const auto& [first, last] : runs)
    EXPECT_LE(last - first, std::max<uint64_t>(1, (count - first) / pool.threads())) << "run at " << first;
  EXPECT_EQ(runs.back().second - runs.back().first, 1u);
  // And long runs early: far fewer runs than indices.
  EXPECT_LT(runs.size(), 200u);
}

TEST(ThreadPool, AForkedChildRunsWorkOnItsOwnThread) {
  ThreadPool pool(3);
  pool.run(100, [](uint64_t, uint64_t, unsigned) {});  // the workers exist and have run
  const pid_t child = fork();
  if (child == 0) {
    std::atomic<uint64_t> sum{0};
    pool.run(1000, [&](uint64_t first, uint64_t last, unsigned) {
      for (uint64_t index = first; index < last; ++index) sum += index;
    });
    _exit(sum == 499500 ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

TEST(ThreadPool, ASingleThreadPoolRunsOnTheCaller) {
  ThreadPool pool(1);
  uint64_t sum = 0;
  pool.run(100, [&](uint64_t first, uint64_t last, unsigned thread) {
    EXPECT_EQ(thread, 0u);
    for (uint64_t index = first; index < last; ++index) sum += index;
  });
  EXPECT_EQ(sum, 4950u);
}

}  // namespace
}  // namespace loom::backends::cpu
