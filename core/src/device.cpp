#include "loom/core/device.h"

#include "loom/core/engine.h"

namespace loom::core {

namespace {
// Several queues per group so that applications can overlap independent work.
constexpr uint32_t kComputeEngines = 4;
constexpr uint32_t kCopyEngines = 2;
}  // namespace

Device::Device(std::unique_ptr<Backend> backend, Device* parent)
    : backend_(std::move(backend)),
      parent_(parent),
      engineGroups_{{EngineType::Compute, kComputeEngines}, {EngineType::Copy, kCopyEngines}} {
  for (const auto& group : engineGroups_) engines_.emplace_back(group.count);
}

Device::~Device() = default;

Engine* Device::engine(uint32_t ordinal, uint32_t index) {
  if (ordinal >= engines_.size() || index >= engines_[ordinal].size()) return nullptr;
  std::lock_guard lock(enginesMutex_);
  auto& slot = engines_[ordinal][index];
  if (!slot) slot = std::make_unique<Engine>(*backend_);
  return slot.get();
}

}  // namespace loom::core
