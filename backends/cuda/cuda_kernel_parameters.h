#pragma once
// Packs a launch's argument buffer into the parameters of the kernel's PTX entry
// (cuda_launch_parameters.h): what cuLaunchKernel's `kernelParams` points to.
#include <cstdint>
#include <vector>

#include "backends/cuda/cuda_launch_parameters.h"
#include "loom/compiler/kernel_descriptor.h"
#include "loom/core/backend.h"

namespace loom::backends::cuda {

// The parameters, each at its natural alignment in one buffer, the implicit struct last.
// Not copyable: `pointers` point into `buffer`.
struct PackedParameters {
  PackedParameters() = default;
  PackedParameters(PackedParameters&&) = default;
  PackedParameters& operator=(PackedParameters&&) = default;
  PackedParameters(const PackedParameters&) = delete;
  PackedParameters& operator=(const PackedParameters&) = delete;

  std::vector<uint8_t> buffer;
  std::vector<uint32_t> offsets;  // of each parameter in `buffer`
  std::vector<uint32_t> sizes;    // of each parameter
  std::vector<void*> pointers;    // one per parameter, into `buffer`
};

ImplicitLaunchParameters implicitParameters(const core::KernelLaunch& launch);

// Whether every group of the launch is whole and the global offset 0, so that the kernel's entry
// for whole groups (no range check, no offset) may run it.
bool runsOnWholeGroupsEntry(const core::KernelLaunch& launch);

// `arguments` is the argument buffer laid out by `descriptor` (local pointer arguments already
// hold their offsets in the local arena).
PackedParameters packParameters(const compiler::KernelDescriptor& descriptor, const uint8_t* arguments,
                                const ImplicitLaunchParameters& implicit);

}  // namespace loom::backends::cuda
