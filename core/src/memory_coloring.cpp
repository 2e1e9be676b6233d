#include "loom/core/memory_coloring.h"

#include <algorithm>
#include <optional>

#include "loom/core/colored_allocations.h"
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

size_t roundUp(size_t value, size_t multiple) { return multiple == 0 ? value : (value + multiple - 1) / multiple * multiple; }
}  // namespace

MemoryColoring MemoryColoring::of(unsigned tiles, Policy policy, size_t requested, size_t hardwareGranularity) {
  return {std::max(tiles, 1u), policy, roundUp(std::max(kMinGranularity, requested), hardwareGranularity)};
}

MemoryColoring MemoryColoring::fromDebugKeys(unsigned tiles, size_t hardwareGranularity) {
  const Policy policy = debugKeys().MultiStoragePolicy == 1 ? Policy::Interleaved : Policy::Even;
  return of(tiles, policy, size_t(std::max<int64_t>(debugKeys().MultiStorageGranularity, 0)), hardwareGranularity);
}

std::vector<MemoryColoring::Piece> MemoryColoring::chunks(size_t size) const {
  std::vector<Piece> result;
  if (tiles <= 1 || size < tiles * granularity) {
    result.push_back({0, size, 0});
    return result;
  }
  const size_t granules = (size + granularity - 1) / granularity;
  if (policy == Policy::Interleaved) {
    for (size_t granule = 0; granule < granules; ++granule) {
      const size_t offset = granule * granularity;
      result.push_back({offset, std::min(granularity, size - offset), static_cast<unsigned>(granule % tiles)});
    }
    return result;
  }
  size_t offset = 0;
  for (unsigned tile = 0; tile < tiles; ++tile) {
    const size_t tileGranules = granules / tiles + (tile < granules % tiles ? 1 : 0);
    const size_t tileBytes = std::min(size - offset, tileGranules * granularity);
    result.push_back({offset, tileBytes, tile});
    offset += tileBytes;
  }
  return result;
}

std::vector<MemoryColoring::Piece> MemoryColoring::pieces(uintptr_t address, size_t size) const {
  if (std::optional<std::vector<Piece>> owned = ColoredAllocations::instance().owners(address, size, tiles)) return *owned;
  std::vector<Piece> result;
  if (tiles <= 1 || size < tiles * granularity) {
    addPiece(result, 0, size, 0);
    return result;
  }
  if (policy == Policy::Even) {
    for (const Piece& chunk : chunks(size)) addPiece(result, chunk.offset, chunk.size, chunk.tile);
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
