#include "loom/core/runtime.h"

#include <algorithm>


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
    auto completion = [this] { runCompletedReleases(); };
    auto device = std::make_unique<Device>(std::move(discovered.backend), nullptr, completion, &engines_);
    for (auto& subBackend : discovered.subDevices)
      device->addSubDevice(std::make_unique<Device>(std::move(subBackend), device.get(), completion, &engines_));
    debugMessage("device %zu: %s (%zu sub-devices)", devices_.size(), device->info().name.c_str(),
                 device->subDevices().size());
    deviceView_.push_back(device.get());
    devices_.push_back(std::move(device));
  }
  for (Device* device : deviceView_)
    if (device->backend().providesHostMemory()) {
      memory_.setHostAllocator(&device->backend());
      break;
    }
}

void Runtime::releaseAfterSubmittedWork(std::function<void()> release) {
  PendingRelease pending{engines_.submittedWork(), std::move(release)};
  if (engines_.completed(pending.work)) {
    pending.release();
    return;
  }
  std::lock_guard lock(releasesMutex_);
  pendingReleases_.push_back(std::move(pending));
}

void Runtime::runCompletedReleases() {
  std::vector<std::function<void()>> ready;
  {
    std::lock_guard lock(releasesMutex_);
    if (pendingReleases_.empty()) return;
    auto done = std::stable_partition(pendingReleases_.begin(), pendingReleases_.end(),
                                      [&](const PendingRelease& pending) { return !engines_.completed(pending.work); });
    for (auto it = done; it != pendingReleases_.end(); ++it) ready.push_back(std::move(it->release));
    pendingReleases_.erase(done, pendingReleases_.end());
  }
  for (auto& release : ready) release();
}

}  // namespace loom::core
