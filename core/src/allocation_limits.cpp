#include "loom/core/allocation_limits.h"

#include <algorithm>

namespace loom::core {

uint64_t allocationLimit(const DeviceInfo& device, bool relaxed) {
  return relaxed ? device.globalMemorySize : device.maxAllocationSize;
}

uint64_t allocationLimit(std::span<const DeviceInfo* const> devices, bool relaxed) {
  if (devices.empty()) return 0;
  uint64_t smallest = UINT64_MAX;
  for (const DeviceInfo* device : devices) smallest = std::min(smallest, allocationLimit(*device, relaxed));
  return smallest;
}

}  // namespace loom::core
