#include "backends/cuda/cuda_fill.h"

#include <algorithm>
#include <cstring>

namespace loom::backends::cuda {

namespace {
// Whether the pattern is its first `period` bytes repeated.
bool hasPeriod(const uint8_t* pattern, size_t patternSize, size_t period) {
  if (patternSize % period != 0) return false;
  for (size_t i = period; i < patternSize; ++i)
    if (pattern[i] != pattern[i % period]) return false;
  return true;
}

uint32_t element(const uint8_t* pattern, size_t period) {
  uint32_t value = 0;
  std::memcpy(&value, pattern, period);  // little-endian, as the GPU stores it
  return value;
}
}  // namespace

FillPlan planFill(const uint8_t* pattern, size_t patternSize, uintptr_t destination, size_t size) {
  using Method = FillPlan::Method;
  for (auto [period, method] : {std::pair{size_t(1), Method::Memset8}, {size_t(2), Method::Memset16}, {size_t(4), Method::Memset32}}) {
    if (!hasPeriod(pattern, patternSize, period)) continue;
    if (destination % period != 0 || size % period != 0) break;
    return FillPlan{method, element(pattern, period), size / period};
  }
  return FillPlan{};
}

std::vector<uint8_t> fillTile(const uint8_t* pattern, size_t patternSize, size_t size, size_t maxTile) {
  const size_t tileSize = std::min(size, patternSize * std::max<size_t>(1, maxTile / patternSize));
  std::vector<uint8_t> tile(tileSize);
  for (size_t i = 0; i < tileSize; ++i) tile[i] = pattern[i % patternSize];
  return tile;
}

std::vector<FillCopy> doublingCopies(size_t tileSize, size_t size) {
  std::vector<FillCopy> copies;
  if (tileSize == 0) return copies;
  for (size_t filled = tileSize; filled < size; filled *= 2) copies.push_back({filled, std::min(filled, size - filled)});
  return copies;
}

}  // namespace loom::backends::cuda
