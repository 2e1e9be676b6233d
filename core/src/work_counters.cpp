#include "loom/core/work_counters.h"

#include "loom/core/kernel_launch.h"

namespace loom::core {

// A launch runs every work-item of its global size (OpenCL's last groups may be partial).
void WorkCounters::countLaunch(const KernelLaunch& launch) {
  kernelLaunches_.fetch_add(1, std::memory_order_relaxed);
  workGroups_.fetch_add(launch.groupsToRun(), std::memory_order_relaxed);
  workItems_.fetch_add(launch.globalSize[0] * launch.globalSize[1] * launch.globalSize[2], std::memory_order_relaxed);
}

WorkCounts WorkCounters::sample() const {
  return {kernelLaunches_.load(std::memory_order_relaxed), workGroups_.load(std::memory_order_relaxed),
          workItems_.load(std::memory_order_relaxed), copiedBytes_.load(std::memory_order_relaxed),
          filledBytes_.load(std::memory_order_relaxed)};
}

}  // namespace loom::core
