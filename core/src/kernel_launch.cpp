#include "loom/core/kernel_launch.h"

namespace loom::core {

void KernelLaunch::setRange(const LaunchRange& range) {
  workDim = range.workDim;
  cooperative = range.cooperative;
  for (int d = 0; d < 3; ++d) {
    groupCount[d] = range.groupCount[d];
    groupSize[d] = range.groupSize[d];
    globalOffset[d] = range.globalOffset[d];
    const uint64_t wholeGroups = uint64_t(groupCount[d]) * groupSize[d];
    globalSize[d] = range.globalSize[d] ? range.globalSize[d] : wholeGroups;
  }
  isPart = false;
}

KernelLaunch KernelLaunch::withGroupCount(const uint32_t counts[3]) const {
  KernelLaunch launch = *this;
  launch.setRange({workDim,
                   {counts[0], counts[1], counts[2]},
                   {groupSize[0], groupSize[1], groupSize[2]},
                   {globalOffset[0], globalOffset[1], globalOffset[2]},
                   {},
                   cooperative});
  return launch;
}

KernelLaunch KernelLaunch::part(int dimension, uint32_t first, uint32_t count) const {
  KernelLaunch launch = *this;
  for (int d = 0; d < 3; ++d) {
    launch.partFirstGroup[d] = firstGroupToRun(d);
    launch.partGroupCount[d] = groupsToRun(d);
  }
  launch.partFirstGroup[dimension] += first;
  launch.partGroupCount[dimension] = count;
  launch.isPart = true;
  return launch;
}

}  // namespace loom::core
