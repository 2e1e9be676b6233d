#pragma once
// Which tile of a root device owns which bytes of memory (implicit scaling's coloring): each device
// allocation of the root is laid out in chunks, each on the memory of one tile, and the composite
// queue splits copies and fills by those owners, so that each tile writes its own chunks.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace loom::core {

struct MemoryColoring {
  enum class Policy { Even = 0, Interleaved = 1 };
  unsigned tiles = 1;
  Policy policy = Policy::Even;
  size_t granularity = size_t(64) << 10;  // at least kMinGranularity

  static constexpr size_t kMinGranularity = size_t(64) << 10;
  // The granularity `requested` raised to kMinGranularity and rounded up to a whole number of
  // `hardwareGranularity` (the unit of a device's physical memory, CUDA's allocation granularity;
  // 0: none).
  static MemoryColoring of(unsigned tiles, Policy policy, size_t requested, size_t hardwareGranularity);
  // LOOM_MultiStoragePolicy and LOOM_MultiStorageGranularity, as of() makes them.
  static MemoryColoring fromDebugKeys(unsigned tiles, size_t hardwareGranularity = 0);

  // Bytes [offset, offset + size) of a range or an allocation, owned by `tile`.
  struct Piece {
    size_t offset;
    size_t size;
    unsigned tile;
    bool operator==(const Piece&) const = default;
  };
  // The chunks of a new allocation of `size` bytes, in address order, each a whole number of
  // granules but the last: Even: the granules split evenly, one consecutive run per tile (the
  // first tiles one granule more when they do not divide evenly); Interleaved: granule i on tile
  // i % tiles, one chunk each. An allocation smaller than tiles x granularity is one chunk, on
  // tile 0.
  std::vector<Piece> chunks(size_t size) const;
  // The pieces of the range of `size` bytes at `address`, in address order, offsets from
  // `address`: by the owners of its bytes when the range lies in one colored allocation of as many
  // tiles (colored_allocations.h); else by this coloring: Even: consecutive runs of whole
  // granules, one per tile; Interleaved: granules of the address space (address / granularity)
  // owned in turn by each tile; a range smaller than tiles x granularity is one piece, on tile 0.
  std::vector<Piece> pieces(uintptr_t address, size_t size) const;
};

// One chunk of a colored allocation: its offset in the allocation, size and owning tile.
using MemoryChunk = MemoryColoring::Piece;

}  // namespace loom::core
