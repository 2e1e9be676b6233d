#pragma once
// A kernel's launch state, shared by both APIs: argument values, local sizes, group size.
// Launches copy its argument bytes into the command stream, so later changes do not affect
// recorded commands.
#include <array>
#include <cstdint>
#include <vector>

#include "loom/compiler/kernel_descriptor.h"
#include "loom/core/backend.h"
#include "loom/core/command_stream.h"
#include "loom/core/device_info.h"

namespace loom::core {

enum class ArgumentError { None, InvalidIndex, InvalidSize, InvalidValue };
// What keeps the kernel's current state from launching on a device; each API answers it with its
// own error code.
enum class LaunchError { None, ArgumentsMissing, TooManyGroups, TooManyCooperativeGroups, TooMuchLocalMemory };

class Kernel {
 public:
  Kernel(const compiler::KernelDescriptor& descriptor, BackendKernel* loaded);

  const compiler::KernelDescriptor& descriptor() const { return descriptor_; }

  // Level Zero and OpenCL rules: pointers are 8 bytes (null value means a null pointer), local
  // pointers take their size with a null value, by-value arguments match their size exactly,
  // images and samplers take the 8 bytes the kernel receives (compiler/image_abi.h).
  ArgumentError setArgument(uint32_t index, size_t size, const void* value);
  bool allArgumentsSet() const;

  void setGroupSize(uint32_t x, uint32_t y, uint32_t z) { groupSize_ = {x, y, z}; }
  const std::array<uint32_t, 3>& groupSize() const { return groupSize_; }
  // Level Zero's global offset (ZE_experimental_global_offset), kept for the kernel's later launches.
  void setGlobalOffset(uint32_t x, uint32_t y, uint32_t z) { globalOffset_ = {x, y, z}; }
  const std::array<uint64_t, 3>& globalOffset() const { return globalOffset_; }
  // The most work-items in one group: the device's limit, or the kernel's own where lower.
  uint32_t maxGroupSize(uint32_t deviceLimit) const;

  // Bytes of local memory a work-group needs: static __local variables plus the local pointer
  // arguments set so far, each at compiler::kLocalArgumentAlignment (UINT64_MAX when the sum overflows).
  uint64_t localMemorySize() const { return localMemorySize_; }

  // The group size both APIs suggest when the application gives none: the kernel's required
  // size; else up to kPreferredGroupSize work-items (fewer where the kernel or the device allows
  // fewer), growing along x first, each size dividing its global size, or, where `partialGroups`
  // are allowed and the best divisor is small, as large as the limit. Along x the size is a
  // multiple of the device's preferredGroupSizeMultiple() (a GPU's warp, the CPU's vector lanes)
  // wherever one divides the global size. Dimensions from `dimensions` on are 1.
  std::array<uint32_t, 3> suggestGroupSize(const DeviceInfo& info, const std::array<uint64_t, 3>& global, uint32_t dimensions,
                                           bool partialGroups) const;

  // The most groups of a cooperative launch of the current group size and local memory: as many
  // as the device keeps resident at once.
  uint32_t maxCooperativeGroupCount(const DeviceInfo& info) const;

  // The one check of both APIs before a launch on a device described by `info`: every argument
  // set, `groupCount` within the device's limits (null when the counts are read from memory as the
  // launch runs), and for a `cooperative` launch within maxCooperativeGroupCount, the local memory
  // within the device's.
  LaunchError checkLaunch(const DeviceInfo& info, const uint32_t* groupCount, bool cooperative = false) const;

  // Appends the launch of the kernel as it is set now (checkLaunch accepted it) over `range` to
  // `stream`, with its argument bytes: later changes to the kernel do not alter it.
  void appendLaunch(CommandStream& stream, const LaunchRange& range, const IndirectLaunch& indirect = {}) const;

 private:
  // Writes the local pointer arguments' offsets in the local arena into the argument buffer, so
  // that it is always ready to launch, and sums the arena's size.
  void layOutLocalArguments();

  const compiler::KernelDescriptor& descriptor_;
  BackendKernel* loaded_;
  std::vector<uint8_t> argumentBuffer_;
  std::vector<uint64_t> localArgumentSizes_;  // per argument; zero for other kinds
  std::vector<bool> argumentSet_;
  uint64_t localMemorySize_ = 0;
  std::array<uint32_t, 3> groupSize_{1, 1, 1};
  std::array<uint64_t, 3> globalOffset_{0, 0, 0};
};

// Work-items of a suggested group: enough for the CPU to vectorize across them, and a multiple of
// a GPU's warp.
constexpr uint32_t kPreferredGroupSize = 256;

}  // namespace loom::core
