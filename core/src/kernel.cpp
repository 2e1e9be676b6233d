#include "loom/core/kernel.h"

#include <algorithm>
#include <cstring>

#include "loom/compiler/local_arguments.h"

namespace loom::core {

using compiler::ArgumentKind;

namespace {

// The largest divisor of `value` up to `limit` that is a multiple of `multiple`; the largest
// divisor at all where none is.
uint64_t largestDivisorUpTo(uint64_t value, uint64_t limit, uint64_t multiple) {
  uint64_t largest = 0;
  for (uint64_t candidate = std::min(value, limit); candidate > 1; --candidate) {
    if (value % candidate != 0) continue;
    if (candidate % multiple == 0) return candidate;
    if (largest == 0) largest = candidate;
  }
  return std::max<uint64_t>(largest, 1);
}

// At most `value`, and a multiple of `multiple` where `value` holds one.
uint64_t roundDownTo(uint64_t value, uint64_t multiple) { return value >= multiple ? value / multiple * multiple : value; }

}  // namespace

Kernel::Kernel(const compiler::KernelDescriptor& descriptor, BackendKernel* loaded)
    : descriptor_(descriptor),
      loaded_(loaded),
      argumentBuffer_(descriptor.argumentBufferSize, 0),
      localArgumentSizes_(descriptor.arguments.size(), 0),
      argumentSet_(descriptor.arguments.size(), false) {
  const auto& required = descriptor.requiredWorkGroupSize;
  if (required[0] != 0) groupSize_ = required;
  layOutLocalArguments();
}

uint32_t Kernel::maxGroupSize(uint32_t deviceLimit) const {
  const uint32_t kernelLimit = loaded_ ? loaded_->groupSizeLimit() : 0;
  return kernelLimit ? std::min(kernelLimit, deviceLimit) : deviceLimit;
}

ArgumentError Kernel::setArgument(uint32_t index, size_t size, const void* value) {
  if (index >= descriptor_.arguments.size()) return ArgumentError::InvalidIndex;
  const compiler::KernelArgument& argument = descriptor_.arguments[index];
  uint8_t* slot = argumentBuffer_.data() + argument.offset;
  switch (argument.kind) {
    case ArgumentKind::GlobalPointer:
    case ArgumentKind::ConstantPointer:
      if (size != sizeof(void*)) return ArgumentError::InvalidSize;
      if (value)
        std::memcpy(slot, value, sizeof(void*));
      else
        std::memset(slot, 0, sizeof(void*));
      break;
    case ArgumentKind::LocalPointer:
      if (size == 0) return ArgumentError::InvalidSize;
      if (value) return ArgumentError::InvalidValue;
      localArgumentSizes_[index] = size;
      layOutLocalArguments();
      break;
    case ArgumentKind::Value:
      if (size != argument.size) return ArgumentError::InvalidSize;
      if (!value) return ArgumentError::InvalidValue;
      std::memcpy(slot, value, size);
      break;
    // The frontends pass what the argument holds: an image's descriptor address, a sampler's bits.
    case ArgumentKind::Sampler:
    case ArgumentKind::Image:
      if (size != sizeof(uint64_t)) return ArgumentError::InvalidSize;
      if (!value) return ArgumentError::InvalidValue;
      std::memcpy(slot, value, sizeof(uint64_t));
      break;
  }
  argumentSet_[index] = true;
  return ArgumentError::None;
}

bool Kernel::allArgumentsSet() const {
  for (bool set : argumentSet_)
    if (!set) return false;
  return true;
}

void Kernel::layOutLocalArguments() {
  localMemorySize_ = compiler::layOutLocalArguments(descriptor_, localArgumentSizes_, argumentBuffer_.data());
}

std::array<uint32_t, 3> Kernel::suggestGroupSize(const DeviceInfo& info, const std::array<uint64_t, 3>& global, uint32_t dimensions,
                                                 bool partialGroups) const {
  if (descriptor_.requiredWorkGroupSize[0] != 0) return descriptor_.requiredWorkGroupSize;
  std::array<uint32_t, 3> size{1, 1, 1};
  uint64_t budget = std::min<uint64_t>(kPreferredGroupSize, maxGroupSize(info.maxWorkGroupSize));
  for (uint32_t d = 0; d < std::min(dimensions, 3u); ++d) {
    const uint64_t limit = std::min<uint64_t>(budget, info.maxGroupSize[d]);
    // x is the dimension a GPU packs into warps and the CPU vectorizes.
    const uint64_t multiple = d == 0 ? preferredGroupSizeMultiple(info) : 1;
    uint64_t chosen = largestDivisorUpTo(global[d], limit, multiple);
    // A small divisor (a prime global size, say) makes many tiny groups: partial groups are better.
    if (partialGroups && chosen * 4 < std::min(limit, global[d])) chosen = roundDownTo(std::min(limit, global[d]), multiple);
    size[d] = static_cast<uint32_t>(std::max<uint64_t>(chosen, 1));
    budget = std::max<uint64_t>(budget / size[d], 1);
  }
  return size;
}

uint32_t Kernel::maxCooperativeGroupCount(const DeviceInfo& info) const {
  const uint32_t groupItems = groupSize_[0] * groupSize_[1] * groupSize_[2];
  const uint64_t localBytes = std::min<uint64_t>(localMemorySize(), UINT32_MAX);
  const uint32_t perUnit = loaded_ ? loaded_->residentGroupsPerComputeUnit(groupItems, static_cast<uint32_t>(localBytes)) : 1;
  const uint32_t fewerUnits = loaded_ ? loaded_->cooperativeComputeUnits() : 0;
  const uint32_t units = fewerUnits != 0 ? fewerUnits : info.computeUnits;
  return static_cast<uint32_t>(std::min<uint64_t>(uint64_t(perUnit) * units, UINT32_MAX));
}

LaunchError Kernel::checkLaunch(const DeviceInfo& info, const uint32_t* groupCount, bool cooperative) const {
  if (!allArgumentsSet()) return LaunchError::ArgumentsMissing;
  for (int d = 0; groupCount && d < 3; ++d)
    if (groupCount[d] > info.maxGroupCount[d]) return LaunchError::TooManyGroups;
  if (cooperative && groupCount &&
      uint64_t(groupCount[0]) * groupCount[1] * groupCount[2] > maxCooperativeGroupCount(info))
    return LaunchError::TooManyCooperativeGroups;
  if (localMemorySize() > info.maxSharedLocalMemory) return LaunchError::TooMuchLocalMemory;
  return LaunchError::None;
}

void Kernel::appendLaunch(CommandStream& stream, const LaunchRange& range, const IndirectLaunch& indirect) const {
  LaunchKernelCommand command{};
  KernelLaunch& launch = command.launch;
  launch.kernel = loaded_;
  launch.descriptor = &descriptor_;
  launch.argumentSize = static_cast<uint32_t>(argumentBuffer_.size());
  launch.localMemorySize = static_cast<uint32_t>(localMemorySize_);
  launch.setRange(range);
  command.indirect = indirect;
  stream.appendLaunchKernel(command, argumentBuffer_.data());
}

}  // namespace loom::core
