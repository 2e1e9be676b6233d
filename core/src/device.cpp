#include "loom/core/device.h"

#include "loom/core/engine.h"

namespace loom::core {

namespace {
// Several queues per group so that applications can overlap independent work.
constexpr uint32_t kComputeEngines = 4;
constexpr uint32_t kCopyEngines = 2;
}  // namespace

Device::Device(std::unique_ptr<Backend> backend, Device* parent, std::function<void()> engineCompletion)
    : backend_(std::move(backend)),
      parent_(parent),
      engineGroups_{{EngineType::Compute, kComputeEngines}, {EngineType::Copy, kCopyEngines}},
      engineCompletion_(std::move(engineCompletion)) {
  for (const auto& group : engineGroups_) engines_.emplace_back(group.count);
}

Device::~Device() = default;

Engine* Device::engine(uint32_t ordinal, uint32_t index) {
  if (ordinal >= engines_.size() || index >= engines_[ordinal].size()) return nullptr;
  std::lock_guard lock(enginesMutex_);
  auto& slot = engines_[ordinal][index];
  if (!slot) slot = std::make_unique<Engine>(*backend_, engineCompletion_);
  return slot.get();
}

void Device::collectSubmittedWork(std::vector<std::pair<Engine*, uint64_t>>& work) {
  {
    std::lock_guard lock(enginesMutex_);
    for (const auto& group : engines_)
      for (const auto& engine : group)
        if (engine) work.emplace_back(engine.get(), engine->submittedTaskCount());
  }
  for (const auto& subDevice : subDevices_) subDevice->collectSubmittedWork(work);
}

}  // namespace loom::core
