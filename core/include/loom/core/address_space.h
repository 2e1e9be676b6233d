#pragma once
// Virtual memory's two halves as a backend provides them: an address space, in which ranges are
// reserved and mapped to physical memory, and the physical memory of one device. The host's
// (host_address_space.h) serves the CPU; a GPU driver's unified address space serves its GPUs.
// Every address, size and offset given to these calls is a whole number of the space's pages;
// VirtualMemoryMap (virtual_memory_map.h) checks that before it calls.
#include <cstddef>
#include <cstdint>

namespace loom::core {

enum class MemoryAccess : uint8_t { None, ReadOnly, ReadWrite };

// What a virtual memory operation came to; the frontend turns it into its API's error code.
enum class VirtualMemoryStatus : uint8_t {
  Success,
  UnalignedSize,     // zero, or not a whole number of pages
  UnalignedAddress,  // an address or offset not on a page boundary
  NotReserved,       // not inside one reservation (or, to free one, not its exact start and size)
  ForeignMemory,     // physical memory of a device that cannot map into this address space
  OutOfRange,        // offset and size go past the end of the physical memory
  OutOfMemory,       // no address range or physical memory left
  Unsupported,       // the device cannot do this (e.g. a GPU that refuses read-only pages)
  Failed,            // the operating system or driver refused for another reason
};

class AddressSpace;

// Physical memory of one device: pages that mappings place at reserved addresses. Destroying it
// leaves existing mappings intact; their pages go with the last of them.
class PhysicalMemory {
 public:
  PhysicalMemory(AddressSpace& space, size_t size) : space_(space), size_(size) {}
  virtual ~PhysicalMemory() = default;
  PhysicalMemory(const PhysicalMemory&) = delete;
  PhysicalMemory& operator=(const PhysicalMemory&) = delete;

  AddressSpace& addressSpace() const { return space_; }
  size_t size() const { return size_; }

 private:
  AddressSpace& space_;
  size_t size_;
};

class AddressSpace {
 public:
  virtual ~AddressSpace() = default;
  // The granularity of reservations, mappings and physical memory.
  virtual size_t pageSize() const = 0;
  // An inaccessible range, at `hint` when that is free (nullptr: anywhere); nullptr when the
  // space has no room.
  virtual void* reserve(void* hint, size_t size) = 0;
  // A whole reservation, with nothing mapped in it any more.
  virtual void release(void* address, size_t size) = 0;
  // Maps unmapped pages at `address` to the pages of `memory` from `offset` on, with `access`.
  // On failure nothing stays mapped.
  virtual VirtualMemoryStatus map(void* address, size_t size, const PhysicalMemory& memory, size_t offset,
                                  MemoryAccess access) = 0;
  // Mapped pages become reserved, inaccessible ones again.
  virtual void unmap(void* address, size_t size) = 0;
  // Changes the access of mapped pages.
  virtual VirtualMemoryStatus protect(void* address, size_t size, MemoryAccess access) = 0;
};

}  // namespace loom::core
