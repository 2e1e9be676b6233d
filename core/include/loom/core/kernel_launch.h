#pragma once
// One kernel launch, described once: core::Kernel builds it from what an API says of the launch
// (a LaunchRange), the command stream carries it with the argument bytes after it, and the
// engine's BackendQueue runs it.
#include <array>
#include <cstdint>

#include "loom/compiler/kernel_descriptor.h"

namespace loom::core {

class BackendKernel;

// Where a launch's work-items are, as an API gives them.
struct LaunchRange {
  uint32_t workDim = 3;
  std::array<uint32_t, 3> groupCount{1, 1, 1};
  std::array<uint32_t, 3> groupSize{1, 1, 1};  // the enqueued local size
  std::array<uint64_t, 3> globalOffset{0, 0, 0};
  // Where the work-items end along each dimension: inside the last group for OpenCL's
  // non-uniform work-groups. 0: at the end of the last group (whole groups, as in Level Zero).
  std::array<uint64_t, 3> globalSize{0, 0, 0};
  // All groups run at once, so that they may wait for each other (zeCommandListAppendLaunchCooperativeKernel).
  bool cooperative = false;
};

struct KernelLaunch {
  BackendKernel* kernel = nullptr;
  const compiler::KernelDescriptor* descriptor = nullptr;
  uint32_t argumentSize = 0;     // bytes of the argument buffer that goes with the launch
  uint32_t localMemorySize = 0;  // static __local variables plus local pointer arguments
  uint32_t workDim = 3;
  uint32_t groupCount[3] = {1, 1, 1};
  uint32_t groupSize[3] = {1, 1, 1};   // the enqueued local size
  uint64_t globalSize[3] = {1, 1, 1};  // may end inside the last group (OpenCL non-uniform groups)
  uint64_t globalOffset[3] = {0, 0, 0};
  bool cooperative = false;  // LaunchRange::cooperative
  // A part of a launch split among the tiles of a root device (implicit scaling) runs only the box
  // of partGroupCount groups from partFirstGroup on; groupCount, globalSize and globalOffset stay
  // those of the whole launch, so that its work-items see the ids of the unsplit launch. A launch
  // that is no part runs all of groupCount, whatever the part fields hold.
  bool isPart = false;
  uint32_t partFirstGroup[3] = {0, 0, 0};
  uint32_t partGroupCount[3] = {1, 1, 1};

  // Places the launch's work-items where `range` says.
  void setRange(const LaunchRange& range);
  // The same launch over `groupCount` whole groups (Level Zero's indirect launches read their
  // counts from memory as they run).
  KernelLaunch withGroupCount(const uint32_t groupCount[3]) const;
  // The part of this launch (or of this part) that runs groups [first, first + count) of its own
  // along `dimension`, and all of its groups along the others.
  KernelLaunch part(int dimension, uint32_t first, uint32_t count) const;
  // The groups this launch runs along `dimension`: where they start, how many.
  uint32_t firstGroupToRun(int dimension) const { return isPart ? partFirstGroup[dimension] : 0; }
  uint32_t groupsToRun(int dimension) const { return isPart ? partGroupCount[dimension] : groupCount[dimension]; }
  uint64_t groupsToRun() const { return uint64_t(groupsToRun(0)) * groupsToRun(1) * groupsToRun(2); }
};

}  // namespace loom::core
