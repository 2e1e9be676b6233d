#include "loom/core/backend.h"

#include "loom/core/host_address_space.h"

namespace loom::core {

void BackendQueue::copyRegion(const CopyRegionCommand& copy) {
  auto* destination = static_cast<char*>(copy.destination);
  const auto* source = static_cast<const char*>(copy.source);
  const Region3d& to = copy.destinationRegion;
  const Region3d& from = copy.sourceRegion;
  for (uint64_t z = 0; z < copy.depth; ++z) {
    for (uint64_t y = 0; y < copy.height; ++y) {
      char* row = destination + (to.originZ + z) * to.slicePitch + (to.originY + y) * to.rowPitch + to.originX;
      const char* sourceRow = source + (from.originZ + z) * from.slicePitch + (from.originY + y) * from.rowPitch + from.originX;
      this->copy(row, sourceRow, copy.width);
    }
  }
}

AddressSpace* Backend::addressSpace() { return &HostAddressSpace::get(); }

std::unique_ptr<PhysicalMemory> Backend::createPhysicalMemory(size_t size) {
  return HostAddressSpace::get().createPhysicalMemory(size);
}

std::unique_ptr<Telemetry> Backend::createTelemetry() { return std::make_unique<Telemetry>(); }

}  // namespace loom::core
