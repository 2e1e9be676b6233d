#include "loom/core/runtime.h"

#include <algorithm>
#include <cstdlib>

#include "loom/core/composite_backend.h"
#include "loom/core/debug_keys.h"
#include "loom/core/log.h"

namespace loom::core {

namespace {
// A discovered device may leave its root to the device tree (a composite of its tiles).
bool selectedByForceBackend(const DiscoveredDevice& device) {
  const Backend* any = device.backend ? device.backend.get() : device.subDevices.empty() ? nullptr : device.subDevices[0].get();
  if (!any) return false;
  const std::string& forced = debugKeys().ForceBackend;
  return forced.empty() || forced == any->info().backendName;
}
}  // namespace

Runtime::Runtime(std::vector<DiscoveredDevice> discovered)
    : hierarchy_(parseDeviceHierarchy(std::getenv("ZE_FLAT_DEVICE_HIERARCHY"))) {
  std::erase_if(discovered, [](const DiscoveredDevice& device) { return !selectedByForceBackend(device); });
  DeviceTreeOptions options;
  options.hierarchy = hierarchy_;
  options.mask = parseAffinityMask(std::getenv("ZE_AFFINITY_MASK"));
  options.makeComposite = createCompositeBackend;
  options.engineCompletion = [this] { runCompletedReleases(); };
  options.registry = &engines_;
  devices_ = buildDeviceTree(std::move(discovered), options);
  for (const auto& device : devices_.roots) {
    debugMessage("device %zu: %s (%zu sub-devices, %s hierarchy)", deviceView_.size(), device->info().name.c_str(),
                 device->subDevices().size(), deviceHierarchyName(hierarchy_));
    deviceView_.push_back(device.get());
  }
  Backend* hostAllocator = nullptr;
  for (Device* device : deviceView_)
    if (device->backend().providesHostMemory()) {
      hostAllocator = &device->backend();
      break;
    }
  memory_.setHostAllocator(hostAllocator);
  importedHostPointers_ = std::make_unique<ImportedHostPointers>(hostAllocator);
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
