#include "loom/core/runtime.h"

#include "loom/core/debug_keys.h"
#include "loom/core/log.h"

namespace loom::core {

namespace {
bool selectedByForceBackend(const DeviceInfo& info) {
  const std::string& forced = debugKeys().ForceBackend;
  return forced.empty() || forced == info.backendName;
}
}  // namespace

Runtime::Runtime(std::vector<DiscoveredDevice> devices) {
  for (auto& discovered : devices) {
    if (!selectedByForceBackend(discovered.backend->info())) continue;
    auto device = std::make_unique<Device>(std::move(discovered.backend), nullptr);
    for (auto& subBackend : discovered.subDevices)
      device->addSubDevice(std::make_unique<Device>(std::move(subBackend), device.get()));
    debugMessage("device %zu: %s (%zu sub-devices)", devices_.size(), device->info().name.c_str(),
                 device->subDevices().size());
    deviceView_.push_back(device.get());
    devices_.push_back(std::move(device));
  }
}

}  // namespace loom::core
