#pragma once
// How a fill of `size` bytes with a repeated pattern runs on the GPU: one cuMemsetD8/D16/D32
// where the pattern is a repeated 1-, 2- or 4-byte value that fits the destination's alignment
// and size, otherwise one upload of a pattern tile followed by copies that double the filled part.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace loom::backends::cuda {

struct FillPlan {
  enum class Method : uint8_t { Memset8, Memset16, Memset32, Doubling };
  Method method = Method::Doubling;
  uint32_t value = 0;  // the memset element, for the Memset methods
  size_t count = 0;    // memset elements
};

FillPlan planFill(const uint8_t* pattern, size_t patternSize, uintptr_t destination, size_t size);

// The bytes uploaded first by a Doubling fill: whole patterns, at most about `maxTile` bytes, at most `size`.
std::vector<uint8_t> fillTile(const uint8_t* pattern, size_t patternSize, size_t size, size_t maxTile);

// The device-to-device copies of a Doubling fill once `tileSize` bytes are in place: each copies
// the start of the destination to `offset`. Offsets stay multiples of the tile, so of the pattern.
struct FillCopy {
  size_t offset;
  size_t size;
};
std::vector<FillCopy> doublingCopies(size_t tileSize, size_t size);

}  // namespace loom::backends::cuda
