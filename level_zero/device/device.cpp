#include "level_zero/device/device.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "level_zero/driver/driver.h"
#include "level_zero/image/image.h"
#include "level_zero/sysman/sysman_device.h"
#include "level_zero/tools/device_metrics.h"
#include "level_zero/two_call.h"
#include "level_zero/validation.h"
#include "loom/compiler/compiler.h"
#include "loom/core/futex.h"
#include "loom/core/image_format.h"

namespace loom::l0 {

namespace {

ze_result_t listDevices(const std::vector<Device*>& devices, uint32_t* pCount, ze_device_handle_t* out) {
  return fillArray(devices, pCount, out, [](ze_device_handle_t& handle, Device* device) { handle = device; });
}

uint32_t encodeVersion(uint32_t major, uint32_t minor) { return ZE_MAKE_VERSION(major, minor); }

// Both engine kinds fill with any power-of-two pattern up to this size.
constexpr size_t kMaxFillPatternSize = 128;

// ZE_extension_float_atomics: load, store, exchange, add, sub, min and max, global and local.
constexpr ze_device_fp_atomic_ext_flags_t kFpAtomicFlags =
    ZE_DEVICE_FP_ATOMIC_EXT_FLAG_GLOBAL_LOAD_STORE | ZE_DEVICE_FP_ATOMIC_EXT_FLAG_GLOBAL_ADD |
    ZE_DEVICE_FP_ATOMIC_EXT_FLAG_GLOBAL_MIN_MAX | ZE_DEVICE_FP_ATOMIC_EXT_FLAG_LOCAL_LOAD_STORE |
    ZE_DEVICE_FP_ATOMIC_EXT_FLAG_LOCAL_ADD | ZE_DEVICE_FP_ATOMIC_EXT_FLAG_LOCAL_MIN_MAX;

// The extension structures chained to zeDeviceGetModuleProperties' output that Loom knows; others
// are left as the application gave them.
void fillModulePropertiesChain(const core::DeviceInfo& info, void* next) {
  fillChained<ze_float_atomic_ext_properties_t>(next, ZE_STRUCTURE_TYPE_FLOAT_ATOMIC_EXT_PROPERTIES, [&](auto& atomics) {
    // Half atomics become compare-and-swap loops on the 32-bit word that holds the half
    // (compiler/src/half_atomics.h): OpAtomicFAddEXT (SPV_EXT_shader_atomic_float16_add),
    // OpAtomicFMinEXT and OpAtomicFMaxEXT (AtomicFloat16MinMaxEXT), loads, stores and exchanges.
    atomics.fp16Flags = info.supportsFp16 ? kFpAtomicFlags : 0;
    atomics.fp32Flags = kFpAtomicFlags;
    atomics.fp64Flags = info.supportsFp64 ? kFpAtomicFlags : 0;
  });
}

// For a feature Loom lacks: every field zero, the structure's type and chain kept.
template <typename Properties>
void clearProperties(Properties& properties) {
  properties = Properties{properties.stype, properties.pNext};
}

}  // namespace

bool Device::isRelated(const Device& other) const {
  if (&other == this) return true;
  const core::Device* mine = device_.parent() ? device_.parent() : &device_;
  const core::Device* theirs = other.device_.parent() ? other.device_.parent() : &other.device_;
  return mine == theirs;
}

core::PeerAccess Device::peerAccess(const Device& peer) const {
  // Tiles of one device share its memory: access and atomics work between them.
  if (isRelated(peer)) return {true, true};
  // Devices whose memory is host memory (the CPU's tiles as FLAT devices) reach each other's.
  if (device_.info().unifiedMemory && peer.device_.info().unifiedMemory) return {true, true};
  return device_.backend().peerAccess(peer.device_.backend());
}

// A sub-device reports its root device's telemetry: core keeps one per root device.
SysmanDevice& Device::sysman() {
  std::call_once(sysmanOnce_, [this] {
    core::Device& root = device_.parent() ? *device_.parent() : device_;
    sysman_ = std::make_shared<SysmanDevice>(root.telemetry());
  });
  return *sysman_;
}

DeviceMetrics& Device::metrics() {
  std::call_once(metricsOnce_, [this] { metrics_ = std::make_shared<DeviceMetrics>(*this); });
  return *metrics_;
}

// A root of tiles is one PCI function only where its tiles all are that same function (tiles of
// one GPU); tiles that are several GPUs each have their own.
std::optional<core::PciDescription> Device::pciFunction() const {
  std::optional<core::PciDescription> pci = device_.telemetry().pci();
  if (!pci) return std::nullopt;
  const core::PciAddress& address = pci->address;
  for (const Device* subDevice : subDevices_) {
    const std::optional<core::PciDescription> tile = subDevice->device_.telemetry().pci();
    if (!tile || tile->address.domain != address.domain || tile->address.bus != address.bus ||
        tile->address.device != address.device || tile->address.function != address.function)
      return std::nullopt;
  }
  return pci;
}

ze_result_t zeDeviceGet(ze_driver_handle_t hDriver, uint32_t* pCount, ze_device_handle_t* phDevices) {
  ZE_REQUIRE_HANDLE(hDriver);
  ZE_REQUIRE_POINTER(pCount);
  return listDevices(Driver::fromHandle(hDriver)->devices(), pCount, phDevices);
}

ze_result_t zeDeviceGetSubDevices(ze_device_handle_t hDevice, uint32_t* pCount, ze_device_handle_t* phSubdevices) {
  ZE_REQUIRE_HANDLE(hDevice);
  ZE_REQUIRE_POINTER(pCount);
  return listDevices(Device::fromHandle(hDevice)->subDevices(), pCount, phSubdevices);
}

ze_result_t zeDeviceGetProperties(ze_device_handle_t hDevice, ze_device_properties_t* pDeviceProperties) {
  ZE_REQUIRE_HANDLE(hDevice);
  ZE_REQUIRE_POINTER(pDeviceProperties);
  const core::Device& device = Device::fromHandle(hDevice)->core();
  const core::DeviceInfo& info = device.info();
  ze_device_properties_t& p = *pDeviceProperties;
  p.type = info.type == core::DeviceType::Gpu ? ZE_DEVICE_TYPE_GPU : ZE_DEVICE_TYPE_CPU;
  p.vendorId = info.vendorId;
  p.deviceId = info.deviceId;
  p.flags = ZE_DEVICE_PROPERTY_FLAG_ONDEMANDPAGING;
  if (info.type == core::DeviceType::Cpu) p.flags |= ZE_DEVICE_PROPERTY_FLAG_INTEGRATED;
  // A tile keeps its flag and id where the affinity mask exposes it alone; FLAT tiles have neither.
  if (device.subDeviceIndex() >= 0) p.flags |= ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE;
  p.subdeviceId = device.subDeviceIndex() >= 0 ? static_cast<uint32_t>(device.subDeviceIndex()) : 0;
  p.coreClockRate = info.coreClockMHz;
  p.maxMemAllocSize = info.maxAllocationSize;
  p.maxHardwareContexts = 1024;
  p.maxCommandQueuePriority = 0;  // priorities are accepted but not distinguished
  p.numThreadsPerEU = info.numThreadsPerEu;
  p.physicalEUSimdWidth = info.simdWidth;
  p.numEUsPerSubslice = info.numEusPerSubslice;
  p.numSubslicesPerSlice = info.numSubslicesPerSlice;
  p.numSlices = info.numSlices;
  // Nanoseconds per tick, or ticks per second when the caller asks for the 1.2 structure.
  p.timerResolution = p.stype == ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES_1_2 ? 1000000000ull / info.timerResolutionNs
                                                                        : info.timerResolutionNs;
  p.timestampValidBits = info.timestampValidBits;
  p.kernelTimestampValidBits = info.kernelTimestampValidBits;
  std::memcpy(p.uuid.id, info.uuid.data(), ZE_MAX_DEVICE_UUID_SIZE);
  std::memset(p.name, 0, sizeof(p.name));
  std::strncpy(p.name, info.name.c_str(), sizeof(p.name) - 1);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeDeviceGetComputeProperties(ze_device_handle_t hDevice, ze_device_compute_properties_t* pComputeProperties) {
  ZE_REQUIRE_HANDLE(hDevice);
  ZE_REQUIRE_POINTER(pComputeProperties);
  const core::DeviceInfo& info = Device::fromHandle(hDevice)->core().info();
  ze_device_compute_properties_t& p = *pComputeProperties;
  p.maxTotalGroupSize = info.maxWorkGroupSize;
  p.maxGroupSizeX = info.maxGroupSize[0];
  p.maxGroupSizeY = info.maxGroupSize[1];
  p.maxGroupSizeZ = info.maxGroupSize[2];
  p.maxGroupCountX = info.maxGroupCount[0];
  p.maxGroupCountY = info.maxGroupCount[1];
  p.maxGroupCountZ = info.maxGroupCount[2];
  p.maxSharedLocalMemory = info.maxSharedLocalMemory;
  p.numSubGroupSizes = static_cast<uint32_t>(std::min<size_t>(info.subGroupSizes.size(), ZE_SUBGROUPSIZE_COUNT));
  std::fill(std::begin(p.subGroupSizes), std::end(p.subGroupSizes), 0u);
  std::copy_n(info.subGroupSizes.begin(), p.numSubGroupSizes, p.subGroupSizes);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeDeviceGetModuleProperties(ze_device_handle_t hDevice, ze_device_module_properties_t* pModuleProperties) {
  ZE_REQUIRE_HANDLE(hDevice);
  ZE_REQUIRE_POINTER(pModuleProperties);
  if (ze_result_t result = checkChain(__func__, pModuleProperties->pNext); result != ZE_RESULT_SUCCESS) return result;
  core::Device& device = Device::fromHandle(hDevice)->core();
  const core::DeviceInfo& info = device.info();
  ze_device_module_properties_t& p = *pModuleProperties;
  p.spirvVersionSupported = encodeVersion(1, 4);
  p.flags = 0;
  if (info.supportsFp16) p.flags |= ZE_DEVICE_MODULE_FLAG_FP16;
  if (info.supportsFp64) p.flags |= ZE_DEVICE_MODULE_FLAG_FP64;
  if (info.supportsInt64Atomics) p.flags |= ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS;
  const ze_device_fp_flags_t ieee = ZE_DEVICE_FP_FLAG_DENORM | ZE_DEVICE_FP_FLAG_INF_NAN | ZE_DEVICE_FP_FLAG_ROUND_TO_NEAREST |
                                    ZE_DEVICE_FP_FLAG_ROUND_TO_ZERO | ZE_DEVICE_FP_FLAG_ROUND_TO_INF | ZE_DEVICE_FP_FLAG_FMA;
  p.fp16flags = info.supportsFp16 ? ieee : 0;
  p.fp32flags = ieee;
  p.fp64flags = info.supportsFp64 ? ieee : 0;
  p.maxArgumentsSize = info.maxArgumentsSize;
  p.printfBufferSize = static_cast<uint32_t>(info.printfBufferSize);
  // Binary compatibility, not the device: every device of one target takes the others' binaries.
  const std::array<uint8_t, 16> binaries = compiler::nativeBinaryUuid(device.backend().compilerTarget());
  static_assert(sizeof(p.nativeKernelSupported.id) == binaries.size());
  std::memcpy(p.nativeKernelSupported.id, binaries.data(), binaries.size());
  fillModulePropertiesChain(info, p.pNext);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeDeviceGetCommandQueueGroupProperties(ze_device_handle_t hDevice, uint32_t* pCount,
                                                   ze_command_queue_group_properties_t* pCommandQueueGroupProperties) {
  ZE_REQUIRE_HANDLE(hDevice);
  ZE_REQUIRE_POINTER(pCount);
  return fillArray(Device::fromHandle(hDevice)->core().engineGroups(), pCount, pCommandQueueGroupProperties,
                   [](ze_command_queue_group_properties_t& p, const core::EngineGroup& group) {
                     p.flags = ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY;
                     if (group.type == core::EngineType::Compute)
                       p.flags |= ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE |
                                  ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COOPERATIVE_KERNELS;
                     p.maxMemoryFillPatternSize = kMaxFillPatternSize;
                     p.numQueues = group.count;
                   });
}

ze_result_t zeDeviceGetMemoryProperties(ze_device_handle_t hDevice, uint32_t* pCount,
                                        ze_device_memory_properties_t* pMemProperties) {
  ZE_REQUIRE_HANDLE(hDevice);
  ZE_REQUIRE_POINTER(pCount);
  const core::DeviceInfo* memories[] = {&Device::fromHandle(hDevice)->core().info()};  // one memory per device
  return fillArray(memories, pCount, pMemProperties, [](ze_device_memory_properties_t& p, const core::DeviceInfo* info) {
    p.flags = 0;
    p.maxClockRate = info->memoryClockMHz;
    p.maxBusWidth = info->memoryBusWidth;
    p.totalSize = info->globalMemorySize;
    std::memset(p.name, 0, sizeof(p.name));
    std::strncpy(p.name, info->type == core::DeviceType::Cpu ? "DDR" : "HBM", sizeof(p.name) - 1);
  });
}

ze_result_t zeDeviceGetMemoryAccessProperties(ze_device_handle_t hDevice,
                                              ze_device_memory_access_properties_t* pMemAccessProperties) {
  ZE_REQUIRE_HANDLE(hDevice);
  ZE_REQUIRE_POINTER(pMemAccessProperties);
  const ze_memory_access_cap_flags_t full = ZE_MEMORY_ACCESS_CAP_FLAG_RW | ZE_MEMORY_ACCESS_CAP_FLAG_ATOMIC |
                                            ZE_MEMORY_ACCESS_CAP_FLAG_CONCURRENT | ZE_MEMORY_ACCESS_CAP_FLAG_CONCURRENT_ATOMIC;
  pMemAccessProperties->hostAllocCapabilities = full;
  pMemAccessProperties->deviceAllocCapabilities = full;
  pMemAccessProperties->sharedSingleDeviceAllocCapabilities = full;
  pMemAccessProperties->sharedCrossDeviceAllocCapabilities = full;
  pMemAccessProperties->sharedSystemAllocCapabilities = Device::fromHandle(hDevice)->core().info().accessesSystemAllocations ? full : 0;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeDeviceGetCacheProperties(ze_device_handle_t hDevice, uint32_t* pCount,
                                       ze_device_cache_properties_t* pCacheProperties) {
  ZE_REQUIRE_HANDLE(hDevice);
  ZE_REQUIRE_POINTER(pCount);
  const core::DeviceInfo& info = Device::fromHandle(hDevice)->core().info();
  // Only the caches whose size the device reports (the CUDA driver gives no L1 size); the last
  // level's reservable part goes to a chained ze_cache_reservation_ext_desc_t (0 for the others).
  struct Cache {
    size_t size;
    size_t reservable;
  };
  std::vector<Cache> caches;
  if (info.l1CacheSize > 0) caches.push_back({info.l1CacheSize, 0});
  if (info.lastLevelCacheSize > 0) caches.push_back({info.lastLevelCacheSize, info.maxCacheReservationSize});
  for (size_t i = 0; pCacheProperties && i < std::min<size_t>(*pCount, caches.size()); ++i)
    if (ze_result_t result = checkChain(__func__, pCacheProperties[i].pNext); result != ZE_RESULT_SUCCESS) return result;
  return fillArray(caches, pCount, pCacheProperties, [](ze_device_cache_properties_t& p, const Cache& cache) {
    p.flags = 0;  // no user control of cache partitioning
    p.cacheSize = cache.size;
    fillChained<ze_cache_reservation_ext_desc_t>(p.pNext, ZE_STRUCTURE_TYPE_CACHE_RESERVATION_EXT_DESC,
                                                 [&](auto& reservation) { reservation.maxCacheReservationSize = cache.reservable; });
  });
}

ze_result_t zeDeviceGetImageProperties(ze_device_handle_t hDevice, ze_device_image_properties_t* pImageProperties) {
  ZE_REQUIRE_HANDLE(hDevice);
  ZE_REQUIRE_POINTER(pImageProperties);
  clearProperties(*pImageProperties);
  const core::ImageLimits& images = Device::fromHandle(hDevice)->core().info().images;
  if (!images.supported) return ZE_RESULT_SUCCESS;  // every limit zero: no images
  pImageProperties->maxImageDims1D = static_cast<uint32_t>(images.max2dWidth);
  pImageProperties->maxImageDims2D = static_cast<uint32_t>(std::min(images.max2dWidth, images.max2dHeight));
  pImageProperties->maxImageDims3D = static_cast<uint32_t>(std::min({images.max3dWidth, images.max3dHeight, images.max3dDepth}));
  pImageProperties->maxImageBufferSize = maxBufferImageBytes(images);
  pImageProperties->maxImageArraySlices = static_cast<uint32_t>(images.maxArraySize);
  pImageProperties->maxSamplers = images.maxSamplers;
  pImageProperties->maxReadImageArgs = images.maxReadArguments;
  pImageProperties->maxWriteImageArgs = images.maxWriteArguments;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeDeviceGetExternalMemoryProperties(ze_device_handle_t hDevice,
                                                ze_device_external_memory_properties_t* pExternalMemoryProperties) {
  ZE_REQUIRE_HANDLE(hDevice);
  ZE_REQUIRE_POINTER(pExternalMemoryProperties);
  // External memory import/export (dma-buf, fd) is not supported yet: no types.
  clearProperties(*pExternalMemoryProperties);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeDeviceGetP2PProperties(ze_device_handle_t hDevice, ze_device_handle_t hPeerDevice,
                                     ze_device_p2p_properties_t* pP2PProperties) {
  ZE_REQUIRE_HANDLE(hDevice);
  ZE_REQUIRE_HANDLE(hPeerDevice);
  ZE_REQUIRE_POINTER(pP2PProperties);
  const core::PeerAccess peer = Device::fromHandle(hDevice)->peerAccess(*Device::fromHandle(hPeerDevice));
  pP2PProperties->flags =
      (peer.access ? ZE_DEVICE_P2P_PROPERTY_FLAG_ACCESS : 0) | (peer.atomics ? ZE_DEVICE_P2P_PROPERTY_FLAG_ATOMICS : 0);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeDeviceCanAccessPeer(ze_device_handle_t hDevice, ze_device_handle_t hPeerDevice, ze_bool_t* value) {
  ZE_REQUIRE_HANDLE(hDevice);
  ZE_REQUIRE_HANDLE(hPeerDevice);
  ZE_REQUIRE_POINTER(value);
  *value = Device::fromHandle(hDevice)->peerAccess(*Device::fromHandle(hPeerDevice)).access;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeDeviceGetStatus(ze_device_handle_t hDevice) {
  ZE_REQUIRE_HANDLE(hDevice);
  return ZE_RESULT_SUCCESS;
}

// ZE_extension_pci_properties: the address and fastest link of the PCI function, the same figures
// sysman reports (zesDevicePciGetProperties); -1 for those the telemetry does not know.
ze_result_t zeDevicePciGetPropertiesExt(ze_device_handle_t hDevice, ze_pci_ext_properties_t* pPciProperties) {
  ZE_REQUIRE_HANDLE(hDevice);
  ZE_REQUIRE_POINTER(pPciProperties);
  const std::optional<core::PciDescription> pci = Device::fromHandle(hDevice)->pciFunction();
  ZE_REQUIRE(pci.has_value(), ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, "the device is not one PCI function");
  pPciProperties->address = {pci->address.domain, pci->address.bus, pci->address.device, pci->address.function};
  pPciProperties->maxSpeed = {pci->maxSpeed.generation, pci->maxSpeed.width, pci->maxSpeed.bandwidth};
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeDeviceGetGlobalTimestamps(ze_device_handle_t hDevice, uint64_t* hostTimestamp, uint64_t* deviceTimestamp) {
  ZE_REQUIRE_HANDLE(hDevice);
  ZE_REQUIRE_POINTER(hostTimestamp);
  ZE_REQUIRE_POINTER(deviceTimestamp);
  *hostTimestamp = core::monotonicNanoseconds();
  *deviceTimestamp = Device::fromHandle(hDevice)->core().backend().timestamp();
  return ZE_RESULT_SUCCESS;
}

}  // namespace loom::l0
