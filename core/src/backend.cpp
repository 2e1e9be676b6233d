#include "loom/core/backend.h"

#include <algorithm>

#include "loom/core/host_address_space.h"

namespace loom::core {

namespace {

// Whether a region's `count` steps of `step` bytes follow each other without a gap.
bool contiguous(uint64_t step, uint64_t pitch, uint64_t count) { return count <= 1 || step == pitch; }

}  // namespace

// Rows, and then slices, that lie back to back in both regions are copied as one block: one copy
// of a whole image instead of one per row.
void BackendQueue::copyRegion(const CopyRegionCommand& copy) {
  auto* destination = static_cast<char*>(copy.destination);
  const auto* source = static_cast<const char*>(copy.source);
  const Region3d& to = copy.destinationRegion;
  const Region3d& from = copy.sourceRegion;
  uint64_t rowBytes = copy.width, rows = copy.height, slices = copy.depth;
  if (contiguous(rowBytes, to.rowPitch, rows) && contiguous(rowBytes, from.rowPitch, rows)) {
    rowBytes *= rows, rows = 1;
    if (contiguous(rowBytes, to.slicePitch, slices) && contiguous(rowBytes, from.slicePitch, slices)) rowBytes *= slices, slices = 1;
  }
  for (uint64_t z = 0; z < slices; ++z) {
    for (uint64_t y = 0; y < rows; ++y) {
      char* row = destination + (to.originZ + z) * to.slicePitch + (to.originY + y) * to.rowPitch + to.originX;
      const char* sourceRow = source + (from.originZ + z) * from.slicePitch + (from.originY + y) * from.rowPitch + from.originX;
      this->copy(row, sourceRow, rowBytes);
    }
  }
}

// log2(rows) + log2(slices) copies, each of whole rows or slices: few commands on a GPU queue.
void BackendQueue::fillRegion(const FillRegionCommand& fill, const void* pattern) {
  if (fill.width == 0 || fill.height == 0 || fill.depth == 0) return;
  const Region3d& at = fill.region;
  char* first = static_cast<char*>(fill.destination) + at.originZ * at.slicePitch + at.originY * at.rowPitch + at.originX;
  this->fill(first, pattern, fill.patternSize, fill.width);
  CopyRegionCommand doubling{fill.destination, fill.destination, at, at, fill.width, 0, 1};
  for (uint64_t filled = 1; filled < fill.height; filled *= 2) {
    doubling.destinationRegion.originY = at.originY + filled;
    doubling.height = std::min(filled, fill.height - filled);
    copyRegion(doubling);
  }
  doubling.destinationRegion.originY = at.originY;
  doubling.height = fill.height;
  for (uint64_t filled = 1; filled < fill.depth; filled *= 2) {
    doubling.destinationRegion.originZ = at.originZ + filled;
    doubling.depth = std::min(filled, fill.depth - filled);
    copyRegion(doubling);
  }
}

AddressSpace* Backend::addressSpace() { return &HostAddressSpace::get(); }

std::unique_ptr<PhysicalMemory> Backend::createPhysicalMemory(size_t size) {
  return HostAddressSpace::get().createPhysicalMemory(size);
}

std::unique_ptr<Telemetry> Backend::createTelemetry() { return std::make_unique<Telemetry>(); }

}  // namespace loom::core
