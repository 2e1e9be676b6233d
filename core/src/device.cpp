#include "loom/core/device.h"

#include <algorithm>

#include "loom/core/engine.h"

namespace loom::core {

Device::Device(std::unique_ptr<Backend> backend, Device* parent, std::function<void()> engineCompletion,
               EngineRegistry* registry)
    : backend_(std::move(backend)),
      parent_(parent),
      engineGroups_{{EngineType::Compute, std::max(backend_->info().computeQueues, 1u)},
                    {EngineType::Copy, std::max(backend_->info().copyQueues, 1u)}},
      engineCompletion_(std::move(engineCompletion)),
      registry_(registry) {}

// A root's backend may be a composite over its sub-devices' backends (composite_backend.h), which
// must outlive it: it goes first, after the telemetry it made.
Device::~Device() {
  telemetry_.reset();
  backend_.reset();
}

std::unique_ptr<Engine> Device::createEngine(uint32_t ordinal, uint32_t index, std::function<void()> onCompletion) {
  if (ordinal >= engineGroups_.size() || index >= engineGroups_[ordinal].count) return nullptr;
  return std::make_unique<Engine>(*backend_, engineCompletion_, registry_, std::move(onCompletion));
}

Telemetry& Device::telemetry() {
  std::call_once(telemetryOnce_, [this] { telemetry_ = backend_->createTelemetry(); });
  return *telemetry_;
}

}  // namespace loom::core
