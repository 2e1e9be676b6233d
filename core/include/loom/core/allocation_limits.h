#pragma once
// The one rule of both APIs for how large a single allocation may be.
#include <cstdint>
#include <span>

#include "loom/core/device_info.h"

namespace loom::core {

// The largest allocation for one device: its maxAllocationSize (CL_DEVICE_MAX_MEM_ALLOC_SIZE,
// maxMemAllocSize), or with `relaxed` limits (ZE_experimental_relaxed_allocation_limits) all of
// its memory.
uint64_t allocationLimit(const DeviceInfo& device, bool relaxed = false);

// The largest allocation that several devices use: one of a context rather than of one device
// (an OpenCL buffer or SVM allocation, host memory, shared memory without a device) may be used
// by every device of the context, so it must fit each of them. 0 without devices.
uint64_t allocationLimit(std::span<const DeviceInfo* const> devices, bool relaxed = false);

}  // namespace loom::core
