#include "loom/core/colored_allocations.h"

#include <algorithm>
#include <mutex>

namespace loom::core {

ColoredAllocations& ColoredAllocations::instance() {
  static auto* allocations = new ColoredAllocations;  // never destroyed: memory may be freed at exit
  return *allocations;
}

void ColoredAllocations::add(const void* address, size_t size, unsigned tiles, std::vector<MemoryChunk> chunks) {
  std::unique_lock lock(mutex_);
  byAddress_[reinterpret_cast<uintptr_t>(address)] = {size, tiles, std::move(chunks)};
}

void ColoredAllocations::remove(const void* address) {
  std::unique_lock lock(mutex_);
  byAddress_.erase(reinterpret_cast<uintptr_t>(address));
}

std::vector<MemoryChunk> ColoredAllocations::chunksOf(const void* address) const {
  std::shared_lock lock(mutex_);
  auto found = byAddress_.find(reinterpret_cast<uintptr_t>(address));
  return found == byAddress_.end() ? std::vector<MemoryChunk>{} : found->second.chunks;
}

std::optional<std::vector<MemoryChunk>> ColoredAllocations::owners(uintptr_t address, size_t size, unsigned tiles) const {
  std::shared_lock lock(mutex_);
  auto next = byAddress_.upper_bound(address);
  if (next == byAddress_.begin()) return std::nullopt;
  const auto& [base, record] = *std::prev(next);
  const size_t start = address - base;
  if (record.tiles != tiles || start >= record.size || size > record.size - start) return std::nullopt;
  std::vector<MemoryChunk> pieces;
  for (const MemoryChunk& chunk : record.chunks) {
    const size_t from = std::max(chunk.offset, start);
    const size_t to = std::min(chunk.offset + chunk.size, start + size);
    if (from >= to) continue;
    if (!pieces.empty() && pieces.back().tile == chunk.tile) {
      pieces.back().size += to - from;
      continue;
    }
    pieces.push_back({from - start, to - from, chunk.tile});
  }
  if (pieces.empty()) pieces.push_back({0, size, record.chunks.empty() ? 0u : record.chunks.front().tile});
  return pieces;
}

}  // namespace loom::core
