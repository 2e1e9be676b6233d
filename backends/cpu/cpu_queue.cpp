#include "backends/cpu/cpu_queue.h"

#include <utility>

#include "backends/cpu/cpu_backend.h"
#include "loom/core/event.h"

namespace loom::backends::cpu {

void CpuQueue::fail() {
  // A fault of kernel code is the CPU's lost device: the status a GPU's fault gets.
  if (failure_ == 0) failure_ = core::kStatusOutOfResources;
}

void CpuQueue::launch(const core::KernelLaunch& launch, const uint8_t* arguments) {
  if (!backend_.runKernel(launch, arguments)) fail();
}

bool CpuQueue::startLaunch(const core::KernelLaunch& launch, const uint8_t* arguments) {
  if (launch.cooperative) return false;
  started_.push_back(backend_.startKernel(launch, arguments));
  return true;
}

void CpuQueue::finishLaunches() {
  for (auto& started : started_)
    if (!backend_.finishKernel(*started)) fail();
  started_.clear();
}

void CpuQueue::copy(void* destination, const void* source, size_t size) { backend_.copy(destination, source, size); }

void CpuQueue::copyRegion(const core::CopyRegionCommand& copy) {
  if (!backend_.copyRegionOnPool(copy)) BackendQueue::copyRegion(copy);
}

void CpuQueue::fill(void* destination, const void* pattern, size_t patternSize, size_t size) {
  backend_.fill(destination, pattern, patternSize, size);
}

int32_t CpuQueue::takeFailure() { return std::exchange(failure_, 0); }

}  // namespace loom::backends::cpu
