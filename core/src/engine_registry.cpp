#include "loom/core/engine_registry.h"

namespace loom::core {

uint64_t EngineRegistry::add(const EngineProgress* engine) {
  std::lock_guard lock(mutex_);
  engines_.emplace(nextId_, engine);
  return nextId_++;
}

void EngineRegistry::remove(uint64_t id) {
  std::lock_guard lock(mutex_);
  engines_.erase(id);
}

EngineRegistry::Snapshot EngineRegistry::submittedWork() const {
  std::lock_guard lock(mutex_);
  Snapshot work;
  for (const auto& [id, engine] : engines_) work.emplace_back(id, engine->submitted.load(std::memory_order_acquire));
  return work;
}

bool EngineRegistry::completed(const Snapshot& work) const {
  std::lock_guard lock(mutex_);
  for (const auto& [id, taskCount] : work) {
    auto engine = engines_.find(id);
    if (engine != engines_.end() && engine->second->completionTag.load(std::memory_order_acquire) < taskCount) return false;
  }
  return true;
}

}  // namespace loom::core
