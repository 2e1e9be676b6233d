#include "backends/cpu/thread_pool.h"

#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>
#include <utility>
#include <vector>

#include "backends/cpu/cpu_backend.h"
#include "backends/cpu/numa_placement.h"
#include "backends/cpu/tile_cores.h"

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

TEST(ThreadPool, AJobThatNeverEndsHoldsUpOnlyItsOwnThread) {
  ThreadPool pool(4);
  std::atomic<bool> release{false};
  std::atomic<bool> started{false};
  // Every run of the first job spins until the end of the test, like a kernel that loops: its
  // thread and every worker that joins it stay inside.
  std::thread looping([&] {
    pool.run(64, [&](uint64_t, uint64_t, unsigned) {
      started.store(true);
      while (!release.load()) std::this_thread::yield();
    });
  });
  while (!started.load()) std::this_thread::yield();
  for (int round = 0; round < 3; ++round) {
    std::atomic<uint64_t> sum{0};
    pool.run(100000, [&](uint64_t first, uint64_t last, unsigned) {
      for (uint64_t index = first; index < last; ++index) sum += index;
    });
    EXPECT_EQ(sum.load(), 4999950000u);
  }
  release.store(true);
  looping.join();
}

TEST(ThreadPool, ConcurrentJobsEachRunEveryIndexOnce) {
  ThreadPool pool(4);
  constexpr int kCallers = 4;
  constexpr uint64_t kCount = 20000;
  std::vector<std::vector<std::atomic<int>>> hits(kCallers);
  for (auto& job : hits) job = std::vector<std::atomic<int>>(kCount);
  std::vector<std::thread> callers;
  for (int caller = 0; caller < kCallers; ++caller)
    callers.emplace_back([&, caller] {
      for (int round = 0; round < 20; ++round)
        pool.run(kCount, [&](uint64_t first, uint64_t last, unsigned thread) {
          EXPECT_LT(thread, pool.threads());
          for (uint64_t index = first; index < last; ++index) hits[caller][index].fetch_add(1);
        });
    });
  for (auto& caller : callers) caller.join();
  for (int caller = 0; caller < kCallers; ++caller)
    for (uint64_t i = 0; i < kCount; ++i) ASSERT_EQ(hits[caller][i].load(), 20) << "job " << caller << " index " << i;
}

TEST(ThreadPool, ATaskThatReturnsFalseStopsItsJob) {
  ThreadPool pool(4);
  const uint64_t count = 1 << 20;
  std::atomic<uint64_t> ran{0};
  pool.run(count, [&](uint64_t first, uint64_t last, unsigned) {
    if (first == 0) return false;  // the first run fails at once
    for (uint64_t index = first; index < last; ++index) {
      ran.fetch_add(1, std::memory_order_relaxed);
      for (int spin = 0; spin < 50; ++spin) asm volatile("");
    }
    return true;
  });
  EXPECT_LT(ran.load(), count - 1) << "runs went on after the job stopped";
  // The pool runs the next job in full.
  std::atomic<uint64_t> next{0};
  pool.run(1000, [&](uint64_t first, uint64_t last, unsigned) { next += last - first; });
  EXPECT_EQ(next.load(), 1000u);
}

TEST(ThreadPool, ATilesJobRunsOnlyOnTheCallerAndThatTilesWorkers) {
  ThreadPool pool(4, 2);  // threads 0 (a caller) and 1 form tile 0; threads 2 and 3 tile 1
  for (unsigned tile : {0u, 1u}) {
    std::vector<std::atomic<int>> byThread(pool.threads());
    pool.run(
        20000,
        [&](uint64_t first, uint64_t last, unsigned thread) {
          byThread[thread].fetch_add(int(last - first));
          // Long enough for every worker that may help to join.
          for (uint64_t index = first; index < last; ++index)
            for (int spin = 0; spin < 2000; ++spin) asm volatile("");
        },
        tile);
    int total = 0;
    for (unsigned thread = 0; thread < pool.threads(); ++thread) {
      total += byThread[thread].load();
      const bool ofTile = thread == 0 || thread / 2 == tile;
      if (!ofTile) EXPECT_EQ(byThread[thread].load(), 0) << "thread " << thread << " helped tile " << tile;
    }
    EXPECT_EQ(total, 20000);
  }
}

TEST(ThreadPool, AStartedJobRunsOnItsTileWhileItsThreadDoesOtherWork) {
  ThreadPool pool(2, 2);  // tile 1 is worker 1 alone
  std::atomic<uint64_t> ran{0};
  auto task = [&](uint64_t first, uint64_t last, unsigned thread) {
    if (thread != 0) ran.fetch_add(last - first);
    return true;
  };
  ThreadPool::StartedJob started;
  pool.start(started, 1000, task, 1);
  // The caller does not touch the job until finish(): the worker alone makes progress.
  const auto giveUp = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (ran.load() == 0 && std::chrono::steady_clock::now() < giveUp) std::this_thread::yield();
  EXPECT_GT(ran.load(), 0u) << "no worker of tile 1 took the started job";
  pool.finish(started);
}

TEST(ThreadPool, FinishRunsEveryIndexOfAStartedJobOnce) {
  for (unsigned tiles : {1u, 2u, 3u}) {  // with 3 tiles of 2 threads, tile 2 has no worker
    ThreadPool pool(2, tiles);
    std::vector<std::atomic<int>> hits(5000);
    auto task = [&](uint64_t first, uint64_t last, unsigned) {
      for (uint64_t index = first; index < last; ++index) hits[index].fetch_add(1);
    };
    ThreadPool::StartedJob started;
    pool.start(started, hits.size(), task, tiles - 1);
    pool.finish(started);
    for (size_t i = 0; i < hits.size(); ++i) ASSERT_EQ(hits[i].load(), 1) << i << " with " << tiles << " tiles";
  }
}

}  // namespace
}  // namespace loom::backends::cpu

namespace loom::backends::cpu {
namespace {

using Cores = std::vector<std::vector<int>>;

TEST(TileCores, SplitsTheAllowedCoresInConsecutiveDisjointParts) {
  EXPECT_EQ(coresOfTiles(2, {0, 1, 2, 3, 4, 5, 6, 7}, {}), (Cores{{0, 1, 2, 3}, {4, 5, 6, 7}}));
  EXPECT_EQ(coresOfTiles(2, {5, 1, 3}, {}), (Cores{{1}, {3, 5}})) << "only allowed cores, in order";
  EXPECT_EQ(coresOfTiles(2, {0, 1}, {{0, 1}}), (Cores{{0}, {1}})) << "one node: no NUMA";
}

TEST(TileCores, SharesACoreOnlyWhereThereAreFewerCoresThanTiles) {
  EXPECT_EQ(coresOfTiles(4, {0, 1}, {}), (Cores{{0}, {1}, {0}, {1}}));
}

TEST(TileCores, KeepsEachTileOnItsNodesAllowedCores) {
  const Cores nodes{{0, 1, 2, 3}, {4, 5, 6, 7}};
  EXPECT_EQ(coresOfTiles(2, {0, 1, 2, 3, 4, 5, 6, 7}, nodes), (Cores{{0, 1, 2, 3}, {4, 5, 6, 7}}));
  EXPECT_EQ(coresOfTiles(4, {0, 1, 2, 3, 4, 5, 6, 7}, nodes), (Cores{{0, 1}, {2, 3}, {4, 5}, {6, 7}}));
  EXPECT_EQ(coresOfTiles(2, {2, 3, 4}, nodes), (Cores{{2, 3}, {4}})) << "the process's mask applies on each node";
  EXPECT_EQ(coresOfTiles(2, {0, 1, 2}, nodes), (Cores{{0}, {1, 2}})) << "a node without allowed cores: split the allowed";
  const Cores interleaved{{0, 2, 4, 6}, {1, 3, 5, 7}};
  EXPECT_EQ(coresOfTiles(2, {0, 1, 2, 3, 4, 5, 6, 7}, interleaved), (Cores{{0, 2, 4, 6}, {1, 3, 5, 7}}));
}

// The workers of each tile run on its cores only, and tiles use disjoint cores wherever the
// process may use at least as many cores as there are tiles (even two).
TEST(TileCores, EachWorkerIsPinnedToItsTilesCores) {
  const std::vector<int> allowed = allowedCpus();
  ASSERT_FALSE(allowed.empty());
  for (unsigned tiles : {2u, 3u}) {
    const Cores cores = coresOfTiles(tiles, allowed, {});
    // More threads than cores, so that every tile has workers even on two cores.
    ThreadPool pool(std::max<unsigned>(unsigned(allowed.size()), 2 * tiles), tiles, cores);
    std::vector<std::set<int>> used(tiles);
    for (unsigned thread = 1; thread < pool.threads(); ++thread) {
      const unsigned tile = pool.tileOf(thread);
      EXPECT_EQ(pool.cpusOf(thread), cores[tile]) << "worker " << thread << " of tile " << tile;
      used[tile].insert(cores[tile].begin(), cores[tile].end());
    }
    if (allowed.size() < tiles) continue;
    for (unsigned a = 0; a < tiles; ++a)
      for (unsigned b = a + 1; b < tiles; ++b)
        for (int cpu : used[a]) EXPECT_EQ(used[b].count(cpu), 0u) << "tiles " << a << " and " << b << " share core " << cpu;
  }
}

TEST(TileCores, TheTilePoolHasAThreadPerAllowedCoreEachOnItsTilesCores) {
  const std::vector<int> allowed = allowedCpus();
  auto pool = createTilePool(0, 2);
  EXPECT_EQ(pool->threads(), allowed.size()) << "no more threads than cores";
  const Cores cores = coresOfTiles(2, allowed, {});
  for (unsigned thread = 1; thread < pool->threads(); ++thread) {
    const std::vector<int> cpus = pool->cpusOf(thread);
    EXPECT_FALSE(cpus.empty());
    for (int cpu : cpus) EXPECT_NE(std::find(allowed.begin(), allowed.end(), cpu), allowed.end()) << "an allowed core";
    // Without NUMA nodes the tiles split the allowed cores as coresOfTiles does.
    if (memoryNodes().size() <= 1) {
      EXPECT_EQ(cpus, cores[pool->tileOf(thread)]) << "worker " << thread;
    }
  }
}

}  // namespace
}  // namespace loom::backends::cpu
