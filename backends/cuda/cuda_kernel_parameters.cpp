#include "backends/cuda/cuda_kernel_parameters.h"

#include <bit>

namespace loom::backends::cuda {

// Core writes a local pointer argument's arena offset as 64 bits; its PTX parameter takes the
// low 32, which on a little-endian host start where the 64 do.
static_assert(std::endian::native == std::endian::little);

compiler::nvptx::ImplicitLaunchParameters implicitParameters(const core::KernelLaunch& launch) {
  compiler::nvptx::ImplicitLaunchParameters implicit{};
  for (int d = 0; d < 3; ++d) {
    implicit.globalOffset[d] = launch.globalOffset[d];
    implicit.globalSize[d] = launch.globalSize[d];
    implicit.groupIdBase[d] = launch.firstGroupToRun(d);
    implicit.numGroups[d] = launch.groupCount[d];
  }
  implicit.workDim = launch.workDim;
  return implicit;
}

Grid gridOf(const core::KernelLaunch& launch) { return {launch.groupsToRun(0), launch.groupsToRun(1), launch.groupsToRun(2)}; }

bool runsOnWholeGroupsEntry(const core::KernelLaunch& launch) {
  for (int d = 0; d < 3; ++d)
    if (uint64_t(launch.groupCount[d]) * launch.groupSize[d] != launch.globalSize[d] || launch.globalOffset[d] != 0)
      return false;
  return true;
}

KernelParameters::KernelParameters(const core::KernelLaunch& launch, const uint8_t* arguments)
    : implicit(implicitParameters(launch)) {
  const auto& described = launch.descriptor->arguments;
  pointers.reserve(described.size() + 1);
  // The driver only reads through these pointers.
  auto* bytes = const_cast<uint8_t*>(arguments);
  for (const compiler::KernelArgument& argument : described) pointers.push_back(bytes + argument.offset);
  pointers.push_back(&implicit);
}

}  // namespace loom::backends::cuda
