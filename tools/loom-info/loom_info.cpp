// loom-info: prints the devices Loom finds and its debug keys (defaults and current values).
#include <cstdio>
#include <cstring>

#include "loom/core/debug_keys.h"
#include "loom/core/runtime.h"

namespace {

void printUsage() {
  std::puts(
      "usage: loom-info [--devices] [--keys] [--help]\n"
      "  --devices  the devices Loom exposes, with their sub-devices (default)\n"
      "  --keys     every debug key: name, type, default, current value, description\n"
      "Debug keys are set as environment variables LOOM_<Name>, e.g. LOOM_PrintDebugMessages=1.");
}

void printDevice(const loom::core::Device& device, const char* indent) {
  const loom::core::DeviceInfo& info = device.info();
  std::printf("%s%s [%s] compute units %u, SIMD %u, %u MHz, memory %.1f GiB, engines:", indent, info.name.c_str(),
              info.backendName.c_str(), info.computeUnits, info.simdWidth, info.coreClockMHz,
              double(info.globalMemorySize) / (1u << 30));
  for (const auto& group : device.engineGroups())
    std::printf(" %u %s", group.count, group.type == loom::core::EngineType::Compute ? "compute" : "copy");
  std::printf("\n");
  for (const auto& subDevice : device.subDevices()) printDevice(*subDevice, "    sub-device: ");
}

void printDevices() {
  const auto& devices = loom::core::Runtime::get().devices();
  std::printf("%zu device(s)\n", devices.size());
  for (const auto* device : devices) printDevice(*device, "  ");
}

void printKeys() {
  for (const auto& key : loom::core::debugKeys().list())
    std::printf("LOOM_%-24s %-12s default=%-6s current=%-6s %s\n", key.name, key.type, key.defaultValue.c_str(),
                key.currentValue.c_str(), key.description);
}

}  // namespace

int main(int argc, char** argv) {
  bool devices = argc == 1, keys = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--devices")) {
      devices = true;
    } else if (!std::strcmp(argv[i], "--keys")) {
      keys = true;
    } else if (!std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h")) {
      printUsage();
      return 0;
    } else {
      std::fprintf(stderr, "loom-info: unknown option '%s'\n", argv[i]);
      printUsage();
      return 2;
    }
  }
  if (devices) printDevices();
  if (keys) printKeys();
  return 0;
}
