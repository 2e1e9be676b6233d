#include "loom/core/memory_coloring.h"

#include <algorithm>

#include "loom/core/debug_keys.h"

namespace loom::core {

namespace {
void addPiece(std::vector<MemoryColoring::Piece>& pieces, size_t offset, size_t size, unsigned tile) {
  if (size == 0) return;
  if (!pieces.empty() && pieces.back().tile == tile && pieces.back().offset + pieces.back().size == offset) {
    pieces.back().size += size;
    return;
  }
  pieces.push_back({offset, size, tile});
}
}  // namespace

MemoryColoring MemoryColoring::fromDebugKeys(unsigned tiles) {
  MemoryColoring coloring;
  coloring.tiles = std::max(tiles, 1u);
  coloring.policy = debugKeys().MultiStoragePolicy == 1 ? Policy::Interleaved : Policy::Even;
  coloring.granularity = std::max<size_t>(kMinGranularity, size_t(std::max<int64_t>(debugKeys().MultiStorageGranularity, 0)));
  return coloring;
}

std::vector<MemoryColoring::Piece> MemoryColoring::pieces(uintptr_t address, size_t size) const {
  std::vector<Piece> result;
  if (tiles <= 1 || size < tiles * granularity) {
    addPiece(result, 0, size, 0);
    return result;
  }
  if (policy == Policy::Even) {
    const size_t granules = (size + granularity - 1) / granularity;
    size_t offset = 0;
    for (unsigned tile = 0; tile < tiles; ++tile) {
      const size_t tileGranules = granules / tiles + (tile < granules % tiles ? 1 : 0);
      const size_t tileBytes = std::min(size - offset, tileGranules * granularity);
      addPiece(result, offset, tileBytes, tile);
      offset += tileBytes;
    }
    return result;
  }
  for (size_t offset = 0; offset < size;) {
    const uintptr_t at = address + offset;
    const size_t granuleEnd = (at / granularity + 1) * granularity - address;
    const size_t pieceSize = std::min(size, granuleEnd) - offset;
    addPiece(result, offset, pieceSize, static_cast<unsigned>(at / granularity % tiles));
    offset += pieceSize;
  }
  return result;
}

}  // namespace loom::core
