#pragma once
// A kernel of a root device over tiles (composite_backend.h): the same kernel loaded on each tile.
#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include "loom/core/backend.h"

namespace loom::core {

class CompositeKernel final : public BackendKernel {
 public:
  // One kernel per tile, in tile order (the same one where the tiles share their programs);
  // `tileZeroComputeUnits` are those of tile 0, where cooperative launches run. `splits`: its
  // launches may run in parts on every tile; false where each tile has a program of its own with
  // global variables, whose copies the host sees only on tile 0 and which the parts would not share.
  CompositeKernel(std::vector<BackendKernel*> tileKernels, uint32_t tileZeroComputeUnits, bool splits = true)
      : tileKernels_(std::move(tileKernels)), tileZeroComputeUnits_(tileZeroComputeUnits), splits_(splits) {}

  BackendKernel* onTile(size_t tile) const { return tileKernels_[tile]; }
  bool splits() const { return splits_; }
  // A group must fit every tile it may run on.
  uint32_t groupSizeLimit() const override {
    uint32_t limit = 0;
    for (BackendKernel* kernel : tileKernels_)
      if (uint32_t tileLimit = kernel->groupSizeLimit(); tileLimit != 0) limit = limit ? std::min(limit, tileLimit) : tileLimit;
    return limit;
  }
  // Cooperative launches run on tile 0.
  uint32_t residentGroupsPerComputeUnit(uint32_t groupItems, uint32_t localMemorySize) const override {
    return tileKernels_[0]->residentGroupsPerComputeUnit(groupItems, localMemorySize);
  }
  uint32_t cooperativeComputeUnits() const override { return tileZeroComputeUnits_; }

 private:
  std::vector<BackendKernel*> tileKernels_;
  uint32_t tileZeroComputeUnits_;
  bool splits_;
};

}  // namespace loom::core
