#include "backends/cuda/cuda_device_info.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "loom/compiler/nvptx_launch_abi.h"

namespace loom::backends::cuda {

namespace {
constexpr uint32_t kNvidiaVendorId = 0x10de;
// Kernel parameter space of a launch (CUDA's classic limit); the implicit struct takes its share.
constexpr uint32_t kKernelParameterBytes = 4096;
// NVIDIA's L1 and L2 line; not a device attribute.
constexpr uint32_t kCacheLineBytes = 128;
// Streams run concurrently on as many hardware work queues as the driver connects, 8 unless
// CUDA_DEVICE_MAX_CONNECTIONS says otherwise: more compute queues would share them.
constexpr uint32_t kComputeQueues = 8;

uint32_t unsignedAttribute(const AttributeLookup& attribute, DeviceAttribute which) {
  return static_cast<uint32_t>(std::max(attribute(which), 0));
}

DeviceFacts readFacts(const Driver& driver, CUdevice device) {
  DeviceFacts facts;
  char name[256] = {};
  if (driver.cuDeviceGetName(name, sizeof(name) - 1, device) == CUDA_SUCCESS) facts.name = name;
  size_t totalMemory = 0;
  if (driver.cuDeviceTotalMem(&totalMemory, device) == CUDA_SUCCESS) facts.totalMemory = totalMemory;
  CUuuid uuid{};
  if (driver.cuDeviceGetUuid(&uuid, device) == CUDA_SUCCESS) std::memcpy(facts.uuid.data(), uuid.bytes, 16);
  return facts;
}
}  // namespace

core::DeviceInfo translateDeviceInfo(const DeviceFacts& facts, const AttributeLookup& attribute) {
  auto get = [&](DeviceAttribute which) { return unsignedAttribute(attribute, which); };
  core::DeviceInfo info;
  info.type = core::DeviceType::Gpu;
  info.backendName = "cuda";
  info.name = facts.name;
  info.vendorId = kNvidiaVendorId;
  info.deviceId = facts.pciDeviceId;
  info.uuid = facts.uuid;
  info.coreClockMHz = get(DeviceAttribute::ClockRateKHz) / 1000;
  info.memoryClockMHz = get(DeviceAttribute::MemoryClockRateKHz) / 1000;
  info.memoryBusWidth = get(DeviceAttribute::GlobalMemoryBusWidth);
  info.globalMemorySize = facts.totalMemory;
  // A quarter of the memory, as NVIDIA's OpenCL reports (the OpenCL full profile's least):
  // programs size their buffers from this value, and one buffer of all the memory would leave
  // none for anything else. Level Zero allocates up to all of it with relaxed allocation limits.
  info.maxAllocationSize = facts.totalMemory / 4;
  // Level Zero topology: the SMs are the sub-slices; each holds this many resident warps
  // (hardware threads), one "EU" per SM since the driver does not report its partitions.
  const uint32_t multiprocessors = std::max(get(DeviceAttribute::MultiprocessorCount), 1u);
  const uint32_t warpSize = std::max(get(DeviceAttribute::WarpSize), 1u);
  info.numSlices = 1;
  info.numSubslicesPerSlice = multiprocessors;
  info.numEusPerSubslice = 1;
  info.numThreadsPerEu = std::max(get(DeviceAttribute::MaxThreadsPerMultiprocessor) / warpSize, 1u);
  info.simdWidth = warpSize;
  info.computeUnits = multiprocessors;
  info.maxWorkGroupSize = get(DeviceAttribute::MaxThreadsPerBlock);
  info.maxGroupSize = {get(DeviceAttribute::MaxBlockDimX), get(DeviceAttribute::MaxBlockDimY), get(DeviceAttribute::MaxBlockDimZ)};
  info.maxGroupCount = {get(DeviceAttribute::MaxGridDimX), get(DeviceAttribute::MaxGridDimY), get(DeviceAttribute::MaxGridDimZ)};
  // Above the default 48 KiB a kernel opts in (cuFuncSetAttribute), which launches do.
  const uint32_t optIn = get(DeviceAttribute::MaxSharedMemoryPerBlockOptin);
  info.maxSharedLocalMemory = optIn ? optIn : get(DeviceAttribute::MaxSharedMemoryPerBlock);
  info.subGroupSizes = {warpSize};
  info.computeQueues = kComputeQueues;
  // One copy queue per copy engine, which copies while kernels run.
  info.copyQueues = std::max(get(DeviceAttribute::AsyncEngineCount), 1u);
  info.maxArgumentsSize = kKernelParameterBytes - sizeof(compiler::nvptx::ImplicitLaunchParameters);
  // Timestamps are host CLOCK_MONOTONIC_RAW nanoseconds (CudaBackend::timestamp).
  info.timerResolutionNs = 1;
  info.l1CacheSize = 0;  // not reported by the driver
  info.lastLevelCacheSize = get(DeviceAttribute::L2CacheSize);
  // The persisting part of the L2, usable where streams have access-policy windows to fill it.
  if (get(DeviceAttribute::MaxAccessPolicyWindowSize) > 0) info.maxCacheReservationSize = get(DeviceAttribute::MaxPersistingL2CacheSize);
  info.cacheLineSize = kCacheLineBytes;
  info.supportsFp16 = true;  // native f16 arithmetic from sm_53; the PTX targets sm_80
  info.supportsFp64 = true;
  info.supportsInt64Atomics = true;
  info.supportsFloatAtomics = true;
  info.unifiedMemory = get(DeviceAttribute::Integrated) != 0;
  info.accessesSystemAllocations = get(DeviceAttribute::PageableMemoryAccess) != 0;
  info.images = core::linearImageLimits();
  return info;
}

uint32_t readPciDeviceId(int domain, int bus, int device, const std::string& sysfsDevices) {
  char address[32];
  std::snprintf(address, sizeof(address), "/%04x:%02x:%02x.0/device", domain, bus, device);
  std::ifstream file(sysfsDevices + address);
  std::string text;
  if (!(file >> text)) return 0;
  char* end = nullptr;
  const unsigned long id = std::strtoul(text.c_str(), &end, 16);
  return end != text.c_str() && *end == '\0' ? static_cast<uint32_t>(id) : 0;
}

AttributeLookup driverAttributes(const Driver& driver, CUdevice device) {
  return [&driver, device](DeviceAttribute which) {
    int value = 0;
    return driver.cuDeviceGetAttribute(&value, which, device) == CUDA_SUCCESS ? value : 0;
  };
}

core::PciAddress pciAddress(const AttributeLookup& attribute) {
  auto get = [&](DeviceAttribute which) { return unsignedAttribute(attribute, which); };
  return {get(DeviceAttribute::PciDomainId), get(DeviceAttribute::PciBusId), get(DeviceAttribute::PciDeviceId), 0};
}

core::DeviceInfo describeDevice(const Driver& driver, CUdevice device) {
  const AttributeLookup attribute = driverAttributes(driver, device);
  DeviceFacts facts = readFacts(driver, device);
  const core::PciAddress address = pciAddress(attribute);
  facts.pciDeviceId = readPciDeviceId(int(address.domain), int(address.bus), int(address.device));
  return translateDeviceInfo(facts, attribute);
}

}  // namespace loom::backends::cuda
