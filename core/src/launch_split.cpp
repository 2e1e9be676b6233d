#include "loom/core/launch_split.h"

namespace loom::core {

namespace {
// Part of the groups along a dimension that may be left over for it still to count as even.
constexpr double kAcceptedImbalance = 0.05;

bool splitsEvenlyEnough(uint32_t groups, unsigned tiles) {
  return groups > 1 && double(groups % tiles) / groups < kAcceptedImbalance;
}
}  // namespace

int splitDimension(const uint32_t groups[3], unsigned tiles) {
  if (splitsEvenlyEnough(groups[2], tiles)) return 2;
  if (splitsEvenlyEnough(groups[1], tiles)) return 1;
  if (groups[0] % tiles == 0) return 0;
  int largest = 0;
  for (int d = 1; d < 3; ++d)
    if (groups[d] > groups[largest]) largest = d;
  return largest;
}

std::vector<KernelLaunch> splitLaunch(const KernelLaunch& launch, int dimension, unsigned tiles) {
  const uint32_t groups = launch.groupsToRun(dimension);
  const uint32_t each = groups / tiles, extra = groups % tiles;
  std::vector<KernelLaunch> parts;
  uint32_t first = 0;
  for (unsigned tile = 0; tile < tiles; ++tile) {
    const uint32_t count = each + (tile < extra ? 1 : 0);
    parts.push_back(launch.part(dimension, first, count));
    first += count;
  }
  return parts;
}

}  // namespace loom::core
