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

}  // namespace loom::core
