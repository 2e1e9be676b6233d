#pragma once
// The parameters of a kernel's PTX entry for one launch (loom/compiler/nvptx_launch_abi.h): what
// cuLaunchKernel's `kernelParams` points to.
#include <cstdint>
#include <vector>

#include "loom/compiler/nvptx_launch_abi.h"
#include "loom/core/kernel_launch.h"

namespace loom::backends::cuda {

// The whole launch's range, and for a part of a split launch where its groups start.
compiler::nvptx::ImplicitLaunchParameters implicitParameters(const core::KernelLaunch& launch);

// The grid a launch runs: its part's groups (all of the launch's when it is no part).
struct Grid {
  uint32_t x, y, z;
};
Grid gridOf(const core::KernelLaunch& launch);

// Whether every group of the launch is whole and the global offset 0, so that the kernel's entry
// for whole groups (no range check, no offset) may run it, or any part of it.
bool runsOnWholeGroupsEntry(const core::KernelLaunch& launch);

// One pointer per parameter, in the entry's order: each argument's bytes where they lie in the
// launch's argument buffer (laid out by the descriptor, local pointer arguments holding their
// arena offsets), then the implicit struct. The driver copies the parameters when the launch is
// issued, so the argument buffer need last only until then. Not copyable: the last pointer
// points at `implicit`.
struct KernelParameters {
  KernelParameters(const core::KernelLaunch& launch, const uint8_t* arguments);
  KernelParameters(const KernelParameters&) = delete;
  KernelParameters& operator=(const KernelParameters&) = delete;

  compiler::nvptx::ImplicitLaunchParameters implicit;
  std::vector<void*> pointers;
};

}  // namespace loom::backends::cuda
