#pragma once
// Every live engine of the process, so that deferred releases can wait for work submitted
// anywhere. Engines register themselves; a snapshot names them by id, never by pointer, so an
// engine destroyed meanwhile (it drains before it goes) simply counts as done.
#include <cstdint>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

namespace loom::core {

class Engine;

class EngineRegistry {
 public:
  using Snapshot = std::vector<std::pair<uint64_t, uint64_t>>;  // engine id, task count submitted

  uint64_t add(Engine* engine);
  void remove(uint64_t id);
  Snapshot submittedWork() const;
  bool completed(const Snapshot& work) const;

 private:
  mutable std::mutex mutex_;
  std::map<uint64_t, Engine*> engines_;
  uint64_t nextId_ = 1;
};

}  // namespace loom::core
