#pragma once
// The virtual memory of one API context: its reservations, which of their pages are mapped and
// with which access. It checks every range against them and drives the address spaces the
// reservations live in, so that the calls reaching an address space are always whole pages of
// one of its reservations, and only mapped pages are unmapped or protected. Every page has an
// access attribute: a mapped page its mapping's (given by map, changed by setAccess); a page that
// is not mapped the one setAccess last gave it (None at first), as Level Zero lets
// zeVirtualMemSetAccessAttribute name any range of a reservation. Thread-safe.
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "loom/core/address_space.h"

namespace loom::core {

class VirtualMemoryMap {
 public:
  VirtualMemoryMap() = default;
  VirtualMemoryMap(const VirtualMemoryMap&) = delete;
  VirtualMemoryMap& operator=(const VirtualMemoryMap&) = delete;
  // Unmaps and releases every reservation left (the context is being destroyed).
  ~VirtualMemoryMap();

  // `hint` is only a wish: a hint that is not on a page boundary is ignored.
  VirtualMemoryStatus reserve(AddressSpace& space, const void* hint, size_t size, void** address);
  // `address` and `size` must be a reservation's own; what is still mapped in it is unmapped.
  VirtualMemoryStatus free(const void* address, size_t size);
  // Pages of the range that were mapped already are unmapped first, as mmap replaces mappings.
  VirtualMemoryStatus map(const void* address, size_t size, const PhysicalMemory& memory, size_t offset,
                          MemoryAccess access);
  // Pages of the range that are not mapped are left as they are.
  VirtualMemoryStatus unmap(const void* address, size_t size);
  // Protects the range's mapped pages and remembers `access` for all its pages, which they have
  // whenever they are not mapped (a mapping brings its own access).
  VirtualMemoryStatus setAccess(const void* address, size_t size, MemoryAccess access);
  // The access of the range's first page and the length of the run of pages from there on that
  // share it, up to `size`.
  VirtualMemoryStatus access(const void* address, size_t size, MemoryAccess& access, size_t& sameAccessSize) const;
  // True when the range lies in one reservation and its first and last pages are mapped: memory
  // a copy or fill may touch, though the host may not read it (a GPU's).
  bool holds(const void* address, size_t size) const;

 private:
  struct Reservation {
    size_t size;
    AddressSpace* space;
  };
  using Range = std::pair<uintptr_t, size_t>;  // start and size

  // The reservation that holds the whole range, after checking that it is whole pages of it.
  VirtualMemoryStatus find(uintptr_t start, size_t size, const Reservation*& reservation) const;
  // The maximal runs of mapped pages inside [start, start + size).
  std::vector<Range> mappedRuns(uintptr_t start, size_t size, size_t pageSize) const;
  void unmapPages(AddressSpace& space, uintptr_t start, size_t size);
  void recordAccess(uintptr_t start, size_t size, size_t pageSize, MemoryAccess access);
  MemoryAccess accessOfPage(uintptr_t page) const;
  // The access setAccess last gave a page (None at first): the page's while it is not mapped.
  MemoryAccess rememberedAccess(uintptr_t page) const;
  void rememberAccess(uintptr_t start, size_t size, MemoryAccess access);

  mutable std::mutex mutex_;
  std::map<uintptr_t, Reservation> reservations_;  // by start address
  std::map<uintptr_t, MemoryAccess> mappedPages_;  // by page address; absent pages are unmapped
  // Runs of remembered access: each entry holds from its address up to the next entry's.
  std::map<uintptr_t, MemoryAccess> rememberedRuns_;
};

}  // namespace loom::core
