// The process-wide Runtime over the devices of every backend: GPUs first, then the CPU.
#include "loom/core/runtime.h"

#include "backends/cpu/cpu_backend.h"

namespace loom::core {

namespace {
std::vector<DiscoveredDevice> discoverDevices() {
  std::vector<DiscoveredDevice> devices;
  devices.push_back(backends::cpu::discoverCpuDevice());
  return devices;
}
}  // namespace

Runtime& Runtime::get() {
  // Never destroyed: engines and allocations may still be referenced while the process exits.
  static Runtime* runtime = new Runtime(discoverDevices());
  return *runtime;
}

}  // namespace loom::core
