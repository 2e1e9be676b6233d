#pragma once
// The process's own address space, for devices whose memory is host memory (the CPU): a
// reservation is an inaccessible anonymous mapping, physical memory is an anonymous file (memfd),
// and mappings are shared mappings of that file, so that mappings of one physical memory share
// their pages.
#include <memory>

#include "loom/core/address_space.h"

namespace loom::core {

class HostAddressSpace final : public AddressSpace {
 public:
  // The one instance: every host device shares the process's address space.
  static HostAddressSpace& get();

  size_t pageSize() const override;
  void* reserve(void* hint, size_t size) override;
  void release(void* address, size_t size) override;
  VirtualMemoryStatus map(void* address, size_t size, const PhysicalMemory& memory, size_t offset,
                          MemoryAccess access) override;
  void unmap(void* address, size_t size) override;
  VirtualMemoryStatus protect(void* address, size_t size, MemoryAccess access) override;

  // nullptr when the system has no memory left for it.
  std::unique_ptr<PhysicalMemory> createPhysicalMemory(size_t size);

 private:
  HostAddressSpace() = default;
};

}  // namespace loom::core
