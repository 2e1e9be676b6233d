#include "backends/cuda/cuda_kernel_parameters.h"

#include <algorithm>
#include <cstring>

namespace loom::backends::cuda {

using compiler::ArgumentKind;

namespace {
// The most padding before a parameter: OpenCL C's widest alignment is 128 bytes (long16).
constexpr size_t kMaxPadding = 128;

uint32_t alignUp(uint32_t value, uint32_t alignment) { return (value + alignment - 1) / alignment * alignment; }

void append(PackedParameters& packed, const void* bytes, uint32_t size, uint32_t alignment) {
  const uint32_t offset = alignUp(static_cast<uint32_t>(packed.buffer.size()), std::max(alignment, 1u));
  packed.buffer.resize(offset + size);
  std::memcpy(packed.buffer.data() + offset, bytes, size);
  packed.offsets.push_back(offset);
  packed.sizes.push_back(size);
}

// The runtime writes a local argument's arena offset as a 64-bit value; PTX takes 32 bits.
uint32_t localOffset(const compiler::KernelArgument& argument, const uint8_t* arguments) {
  uint64_t offset = 0;
  std::memcpy(&offset, arguments + argument.offset, std::min<size_t>(argument.size, sizeof(offset)));
  return static_cast<uint32_t>(offset);
}
}  // namespace

ImplicitLaunchParameters implicitParameters(const core::KernelLaunch& launch) {
  ImplicitLaunchParameters implicit{};
  for (int d = 0; d < 3; ++d) {
    implicit.globalOffset[d] = launch.globalOffset[d];
    implicit.globalSize[d] = launch.globalSize[d];
  }
  implicit.workDim = launch.workDim;
  return implicit;
}

bool runsOnWholeGroupsEntry(const core::KernelLaunch& launch) {
  for (int d = 0; d < 3; ++d)
    if (uint64_t(launch.groupCount[d]) * launch.groupSize[d] != launch.globalSize[d] || launch.globalOffset[d] != 0)
      return false;
  return true;
}

PackedParameters packParameters(const compiler::KernelDescriptor& descriptor, const uint8_t* arguments,
                                const ImplicitLaunchParameters& implicit) {
  // One allocation for each part, not one per parameter: packing is on every launch's path.
  const size_t count = descriptor.arguments.size() + 1;
  PackedParameters packed;
  packed.buffer.reserve(descriptor.argumentBufferSize + sizeof(ImplicitLaunchParameters) + count * kMaxPadding);
  packed.offsets.reserve(count);
  packed.sizes.reserve(count);
  packed.pointers.reserve(count);
  for (const compiler::KernelArgument& argument : descriptor.arguments) {
    switch (argument.kind) {
      case ArgumentKind::GlobalPointer:
      case ArgumentKind::ConstantPointer: append(packed, arguments + argument.offset, sizeof(uint64_t), sizeof(uint64_t)); break;
      case ArgumentKind::LocalPointer: {
        const uint32_t offset = localOffset(argument, arguments);
        append(packed, &offset, kLocalPointerParameterSize, kLocalPointerParameterSize);
        break;
      }
      case ArgumentKind::Value:
      case ArgumentKind::Sampler:  // never produced yet: the compiler rejects images and samplers
      case ArgumentKind::Image: append(packed, arguments + argument.offset, argument.size, argument.alignment); break;
    }
  }
  append(packed, &implicit, sizeof(implicit), alignof(ImplicitLaunchParameters));
  // Pointers only once the buffer has its final size.
  for (uint32_t offset : packed.offsets) packed.pointers.push_back(packed.buffer.data() + offset);
  return packed;
}

}  // namespace loom::backends::cuda
