#pragma once
// What the driver and the GPU allow beyond kernels, copies and fills: host memory registered in
// place (core's shareable host memory, pinned for the GPU), stream memory operations (waits and
// writes on event words in the CUDA stream) and dependent launches. A pure function of what they
// report, so that it is tested without a GPU.
#include "backends/cuda/cuda_device_info.h"

namespace loom::backends::cuda {

struct CudaCapabilities {
  // cuMemHostRegister'ed memory is addressed on the GPU at its host address, as Loom's kernels
  // and copies address every allocation.
  bool registersHostMemoryInPlace = false;
  // cuStreamWaitValue32 and cuStreamWriteValue32 work: the v2 operations (driver 11.7 and
  // later) always do, the older ones where the driver was loaded with NVreg_EnableStreamMemOPs=1.
  // Loom uses 32-bit words and the GEQ condition only, so neither 64-bit operations nor NOR
  // waits are needed.
  bool streamValueOperations = false;
  // Programmatic dependent launch (cuda_dependent_launch.h): cuLaunchKernelEx with its attribute
  // (driver 12.0 and later) and griddepcontrol in PTX (compute capability 9.0 and later).
  bool dependentLaunches = false;
  // Texture objects over pitched linear memory (cuda_image_textures.h) need their start and row
  // pitch aligned to this many bytes; 0 when the driver does not say (no texture objects then).
  uint32_t texturePitchAlignment = 0;
  // The largest access-policy window of a stream (cuda_cache_reservation.h); 0 when the GPU has
  // none (before compute capability 8.0).
  size_t maxAccessPolicyWindow = 0;
};

CudaCapabilities readCapabilities(int driverVersion, const AttributeLookup& attribute);

}  // namespace loom::backends::cuda
