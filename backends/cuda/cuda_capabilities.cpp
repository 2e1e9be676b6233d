#include "backends/cuda/cuda_capabilities.h"

#include <algorithm>

#include "backends/cuda/cuda_dependent_launch.h"

namespace loom::backends::cuda {

CudaCapabilities readCapabilities(int driverVersion, const AttributeLookup& attribute) {
  CudaCapabilities capabilities;
  capabilities.registersHostMemoryInPlace = attribute(kCanUseHostPointerForRegisteredMem) != 0;
  capabilities.streamValueOperations = driverVersion >= kStreamMemOpsV2DriverVersion || attribute(kCanUseStreamMemOpsV1) != 0;
  capabilities.dependentLaunches = driverVersion >= kLaunchKernelExDriverVersion &&
                                   attribute(DeviceAttribute::ComputeCapabilityMajor) >= kDependentLaunchComputeCapabilityMajor;
  capabilities.texturePitchAlignment = static_cast<uint32_t>(std::max(attribute(kTexturePitchAlignment), 0));
  capabilities.maxAccessPolicyWindow = static_cast<size_t>(std::max(attribute(DeviceAttribute::MaxAccessPolicyWindowSize), 0));
  return capabilities;
}

}  // namespace loom::backends::cuda
