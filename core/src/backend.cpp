#include "loom/core/backend.h"

#include "loom/core/host_address_space.h"

namespace loom::core {
namespace {

// For devices whose commands complete on the issuing thread (the CPU): every command runs through
// the backend's own synchronous calls.
class SynchronousQueue final : public BackendQueue {
 public:
  explicit SynchronousQueue(Backend& backend) : backend_(backend) {}
  bool asynchronous() const override { return false; }
  void launch(const KernelLaunch& launch) override { backend_.launch(launch); }
  void copy(void* destination, const void* source, size_t size) override { backend_.copy(destination, source, size); }
  void fill(void* destination, const void* pattern, size_t patternSize, size_t size) override {
    backend_.fill(destination, pattern, patternSize, size);
  }
  bool completed() override { return true; }
  void synchronize() override {}

 private:
  Backend& backend_;
};

}  // namespace

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

std::unique_ptr<BackendQueue> Backend::createQueue() { return std::make_unique<SynchronousQueue>(*this); }

AddressSpace* Backend::addressSpace() { return &HostAddressSpace::get(); }

std::unique_ptr<PhysicalMemory> Backend::createPhysicalMemory(size_t size) {
  return HostAddressSpace::get().createPhysicalMemory(size);
}

std::unique_ptr<Telemetry> Backend::createTelemetry() { return std::make_unique<Telemetry>(); }

}  // namespace loom::core
