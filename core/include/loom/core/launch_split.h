#pragma once
// How implicit scaling divides one launch among the tiles of a root device: statically, along one
// dimension of the group range, one part per tile.
#include <cstdint>
#include <vector>

#include "loom/core/kernel_launch.h"

namespace loom::core {

// The dimension to divide `groups` along among `tiles`, as the model runtime chooses it: the
// outermost one (z, then y) that has more than one group and divides with less than 5% of its
// groups left over, else x when it divides exactly, else the largest.
int splitDimension(const uint32_t groups[3], unsigned tiles);

// `launch` divided along `dimension` into one part per tile, in tile order: consecutive ranges of
// groups, the first tiles one group more where the count does not divide. A tile with no group
// gets a part of none (groupsToRun() == 0).
std::vector<KernelLaunch> splitLaunch(const KernelLaunch& launch, int dimension, unsigned tiles);

}  // namespace loom::core
