#include "backends/cuda/cuda_capabilities.h"

namespace loom::backends::cuda {

CudaCapabilities readCapabilities(int driverVersion, const AttributeLookup& attribute) {
  CudaCapabilities capabilities;
  capabilities.registersHostMemoryInPlace = attribute(kCanUseHostPointerForRegisteredMem) != 0;
  capabilities.streamValueOperations = driverVersion >= kStreamMemOpsV2DriverVersion || attribute(kCanUseStreamMemOpsV1) != 0;
  return capabilities;
}

}  // namespace loom::backends::cuda
