#pragma once
// Which tile of a root device owns which bytes of memory (implicit scaling's coloring): the
// composite queue splits copies and fills by it, so that each tile writes its own chunks.
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
  // LOOM_MultiStoragePolicy and LOOM_MultiStorageGranularity (raised to kMinGranularity).
  static MemoryColoring fromDebugKeys(unsigned tiles);

  // Bytes [offset, offset + size) of a range, owned by `tile`.
  struct Piece {
    size_t offset;
    size_t size;
    unsigned tile;
  };
  // The pieces of the range of `size` bytes at `address`, in address order. Even: consecutive
  // runs of whole granules, one per tile. Interleaved: granules of the address space
  // (address / granularity) owned in turn by each tile. A range smaller than tiles x granularity
  // is one piece, on tile 0.
  std::vector<Piece> pieces(uintptr_t address, size_t size) const;
};

}  // namespace loom::core
