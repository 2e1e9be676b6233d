// The process-wide Runtime over the devices of every backend: GPUs first, then the CPU.
#include "loom/core/runtime.h"

#include "backends/cpu/cpu_backend.h"
#include "backends/cuda/cuda_backend.h"
#include "backends/device_discovery.h"
#include "loom/compiler/compiler.h"
#include "loom/core/debug_keys.h"
#include "loom/core/log.h"

namespace loom::backends {

namespace {
std::vector<std::string>& notes() {
  static std::vector<std::string> list;
  return list;
}

void note(const std::string& line) {
  core::debugMessage("%s", line.c_str());
  notes().push_back(line);
}

// ForceBackend exposes one backend's devices: the others are not even opened.
bool backendWanted(const char* name) {
  const std::string& forced = core::debugKeys().ForceBackend;
  return forced.empty() || forced == name;
}

// NVIDIA GPUs, wherever libcuda.so.1 loads and reports some, unless LOOM_EnableCudaDevices=0.
std::vector<core::DiscoveredDevice> discoverGpus() {
  if (!core::debugKeys().EnableCudaDevices) {
    note("NVIDIA GPUs: hidden by LOOM_EnableCudaDevices=0");
    return {};
  }
  std::string whyNone;
  std::vector<core::DiscoveredDevice> gpus = cuda::discoverCudaDevices(cuda::kDriverLibrary, whyNone);
  if (gpus.empty()) {
    note("NVIDIA GPUs: none (" + whyNone + ")");
    return gpus;
  }
  // Kernels without math still build and run, so the GPUs stay listed.
  if (compiler::libdevicePath().empty())
    note("NVIDIA GPUs: libdevice.10.bc not found (LOOM_LibdevicePath, $CUDA_HOME, $CUDA_PATH, /usr/local/cuda, "
         "/usr/lib/cuda): GPU kernels that use math functions fail to build");
  return gpus;
}

std::vector<core::DiscoveredDevice> discoverDevices() {
  std::vector<core::DiscoveredDevice> devices;
  if (backendWanted("cuda")) devices = discoverGpus();
  if (backendWanted("cpu")) devices.push_back(cpu::discoverCpuDevice());
  return devices;
}
}  // namespace

const std::vector<std::string>& discoveryNotes() { return notes(); }

}  // namespace loom::backends

namespace loom::core {

Runtime& Runtime::get() {
  // Never destroyed: engines and allocations may still be referenced while the process exits.
  static Runtime* runtime = new Runtime(backends::discoverDevices());
  return *runtime;
}

}  // namespace loom::core
