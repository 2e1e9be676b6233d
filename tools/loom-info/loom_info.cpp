// loom-info: prints the devices Loom finds and its debug keys (defaults and current values).
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "backends/device_discovery.h"
#include "loader_discovery.h"
#include "loom/core/debug_keys.h"
#include "loom/core/runtime.h"

namespace {

void printUsage() {
  std::puts(
      "usage: loom-info [--devices] [--loaders] [--keys] [--help]\n"
      "  --devices  the devices Loom exposes, with their sub-devices, as ZE_FLAT_DEVICE_HIERARCHY\n"
      "             and ZE_AFFINITY_MASK arrange them, and why a backend lists none\n"
      "  --loaders  how the Level Zero loader and the OpenCL ICD loader find Loom\n"
      "             (ZE_ENABLE_ALT_DRIVERS; OCL_ICD_VENDORS or /etc/OpenCL/vendors)\n"
      "  --keys     every debug key: name, type, default, current value, description\n"
      "Without an option, loom-info prints the devices and the loaders.\n"
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
  for (const auto& subDevice : device.subDevices()) {
    char label[64];
    std::snprintf(label, sizeof(label), "    sub-device %d: ", subDevice->subDeviceIndex());
    printDevice(*subDevice, label);
  }
}

void printDevices() {
  const loom::core::Runtime& runtime = loom::core::Runtime::get();
  const char* mask = std::getenv("ZE_AFFINITY_MASK");
  std::printf("%zu device(s), ZE_FLAT_DEVICE_HIERARCHY %s, ZE_AFFINITY_MASK %s\n", runtime.devices().size(),
              loom::core::deviceHierarchyName(runtime.hierarchy()), mask && *mask ? mask : "unset");
  for (size_t i = 0; i < runtime.devices().size(); ++i) {
    const loom::core::Device& device = *runtime.devices()[i];
    char label[64];
    // A tile the affinity mask exposes alone names its position in its root.
    if (device.subDeviceIndex() >= 0)
      std::snprintf(label, sizeof(label), "  device %zu (tile %d): ", i, device.subDeviceIndex());
    else
      std::snprintf(label, sizeof(label), "  device %zu: ", i);
    printDevice(device, label);
  }
  for (const std::string& note : loom::backends::discoveryNotes()) std::printf("%s\n", note.c_str());
}

void printLoaders() {
  std::printf("Level Zero loader: %s\n", loom::tools::levelZeroDiscovery().c_str());
  std::printf("OpenCL ICD loader: %s\n", loom::tools::openClDiscovery().c_str());
}

void printKeys() {
  for (const auto& key : loom::core::debugKeys().list())
    std::printf("LOOM_%-24s %-12s default=%-6s current=%-6s %s\n", key.name, key.type, key.defaultValue.c_str(),
                key.currentValue.c_str(), key.description);
}

}  // namespace

int main(int argc, char** argv) {
  bool devices = argc == 1, loaders = argc == 1, keys = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--devices")) {
      devices = true;
    } else if (!std::strcmp(argv[i], "--loaders")) {
      loaders = true;
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
  if (loaders) printLoaders();
  if (keys) printKeys();
  return 0;
}
