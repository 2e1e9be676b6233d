#pragma once
// The chunk records of the device allocations of root devices over tiles (implicit scaling): which
// tile owns which bytes of each allocation, as the composite backend laid it out, so that copies
// and fills into any part of it split by its real owners. One index for the process, as addresses
// are the process's. Thread-safe.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <shared_mutex>
#include <vector>

#include "loom/core/memory_coloring.h"

namespace loom::core {

class ColoredAllocations {
 public:
  static ColoredAllocations& instance();

  // The allocation at `address` of `size` bytes, of a root of `tiles` tiles, is made of `chunks`
  // (offsets in it, in order, covering it).
  void add(const void* address, size_t size, unsigned tiles, std::vector<MemoryChunk> chunks);
  void remove(const void* address);
  // The chunks of the allocation whose base is `address`; empty when none was recorded there.
  std::vector<MemoryChunk> chunksOf(const void* address) const;
  // The owners of [address, address + size) as pieces (offsets from `address`), when the range
  // lies in one recorded allocation of a root of `tiles` tiles; nullopt otherwise.
  std::optional<std::vector<MemoryChunk>> owners(uintptr_t address, size_t size, unsigned tiles) const;

 private:
  struct Record {
    size_t size;
    unsigned tiles;
    std::vector<MemoryChunk> chunks;
  };
  mutable std::shared_mutex mutex_;
  std::map<uintptr_t, Record> byAddress_;
};

}  // namespace loom::core
