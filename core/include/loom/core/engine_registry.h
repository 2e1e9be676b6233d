#pragma once
// Every engine of the process that may have work, so that deferred releases can wait for work
// submitted anywhere. Engines register their progress; a snapshot names them by id, never by
// pointer, so an engine gone meanwhile (it completed its work before it went) simply counts as
// done.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

namespace loom::core {

constexpr size_t kCacheLineBytes = 64;

// How far one engine's work got: the task count of its last submission and its completion tag,
// each on a cache line of its own: submitters write `submitted` while the engine's thread
// polls it and writes `completionTag`, which waiters poll; sharing a line would bounce it between
// their cores on every submission.
struct EngineProgress {
  alignas(kCacheLineBytes) std::atomic<uint64_t> submitted{0};
  alignas(kCacheLineBytes) std::atomic<uint64_t> completionTag{0};
};

class EngineRegistry {
 public:
  using Snapshot = std::vector<std::pair<uint64_t, uint64_t>>;  // engine id, task count submitted

  uint64_t add(const EngineProgress* engine);
  void remove(uint64_t id);
  Snapshot submittedWork() const;
  bool completed(const Snapshot& work) const;

 private:
  mutable std::mutex mutex_;
  std::map<uint64_t, const EngineProgress*> engines_;
  uint64_t nextId_ = 1;
};

}  // namespace loom::core
