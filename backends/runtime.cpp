// The process-wide Runtime over the devices of every backend: GPUs first, then the CPU.
#include "loom/core/runtime.h"

#include "backends/cpu/cpu_backend.h"
#include "backends/cuda/cuda_backend.h"
#include "loom/core/debug_keys.h"
#include "loom/core/log.h"

namespace loom::core {

namespace {
// ForceBackend exposes one backend's devices: the others are not even opened.
bool backendWanted(const char* name) {
  const std::string& forced = debugKeys().ForceBackend;
  return forced.empty() || forced == name;
}

std::vector<DiscoveredDevice> discoverDevices() {
  std::vector<DiscoveredDevice> devices;
  // GPUs are listed on request (LOOM_EnableCudaDevices=1): docs/status.md says what they run.
  if (backendWanted("cuda") && debugKeys().EnableCudaDevices) {
    std::string whyNone;
    devices = backends::cuda::discoverCudaDevices(backends::cuda::kDriverLibrary, whyNone);
    if (devices.empty()) debugMessage("no NVIDIA GPU: %s", whyNone.c_str());
  }
  if (backendWanted("cpu")) devices.push_back(backends::cpu::discoverCpuDevice());
  return devices;
}
}  // namespace

Runtime& Runtime::get() {
  // Never destroyed: engines and allocations may still be referenced while the process exits.
  static Runtime* runtime = new Runtime(discoverDevices());
  return *runtime;
}

}  // namespace loom::core
