#include "level_zero/driver/driver.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <utility>

#include "level_zero/device/device.h"
#include "level_zero/driver/external_pointer.h"
#include "level_zero/fabric/fabric.h"
#include "level_zero/two_call.h"
#include "level_zero/validation.h"
#include "loom/core/runtime.h"

namespace loom::l0 {

namespace {
std::once_flag driverOnce;
Driver* theDriver = nullptr;

// Identifies Loom's driver: "loom-driver" in ASCII, zero padded.
constexpr ze_driver_uuid_t kDriverUuid = {{'l', 'o', 'o', 'm', '-', 'd', 'r', 'i', 'v', 'e', 'r', 0, 0, 0, 0, 1}};
}  // namespace

Driver* Driver::instance() { return theDriver; }

Driver::Driver() {
  const char* sysman = std::getenv("ZES_ENABLE_SYSMAN");
  sysmanEnabled_ = sysman && std::strcmp(sysman, "1") == 0;
  // The runtime has arranged the devices by ZE_FLAT_DEVICE_HIERARCHY and ZE_AFFINITY_MASK.
  for (core::Device* device : core::Runtime::get().devices()) rootDevices_.push_back(expose(*device));
}

// Creates the API device of `coreDevice` and of its sub-devices.
Device* Driver::expose(core::Device& coreDevice) {
  auto root = std::make_unique<Device>(*this, coreDevice);
  Device* rootPointer = root.get();
  byCoreDevice_[&coreDevice] = rootPointer;
  allDevices_.push_back(std::move(root));
  for (const auto& subDevice : coreDevice.subDevices()) {
    auto sub = std::make_unique<Device>(*this, *subDevice);
    byCoreDevice_[subDevice.get()] = sub.get();
    rootPointer->addSubDevice(sub.get());
    allDevices_.push_back(std::move(sub));
  }
  return rootPointer;
}
bool Driver::owns(ze_device_handle_t handle) const {
  return std::any_of(allDevices_.begin(), allDevices_.end(), [&](const auto& device) { return device.get() == handle; });
}

Device* Driver::device(core::Device* coreDevice) const {
  auto it = byCoreDevice_.find(coreDevice);
  return it == byCoreDevice_.end() ? nullptr : it->second;
}

const Fabric& Driver::fabric() {
  std::call_once(fabricOnce_, [this] { fabric_ = std::make_shared<const Fabric>(rootDevices_); });
  return *fabric_;
}

ze_result_t zeInit(ze_init_flags_t flags) {
  ZE_REQUIRE_FLAGS(flags, ZE_INIT_FLAG_GPU_ONLY | ZE_INIT_FLAG_VPU_ONLY);
  std::call_once(driverOnce, [] { theDriver = new Driver(); });  // lives until the process ends
  bool hasGpu = false;
  for (Device* device : theDriver->devices()) hasGpu |= device->core().info().type == core::DeviceType::Gpu;
  // GPU_ONLY (or VPU_ONLY) on a machine with only the CPU device: decline, like a driver without devices.
  const bool available = flags == 0 ? !theDriver->devices().empty() : (flags & ZE_INIT_FLAG_GPU_ONLY) && hasGpu;
  ZE_REQUIRE(available, ZE_RESULT_ERROR_UNINITIALIZED, "no device of the requested kind");
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeDriverGet(uint32_t* pCount, ze_driver_handle_t* phDrivers) {
  ZE_REQUIRE(Driver::instance() != nullptr, ZE_RESULT_ERROR_UNINITIALIZED, "zeInit was not called");
  ZE_REQUIRE_POINTER(pCount);
  if (*pCount == 0) {
    *pCount = 1;
    return ZE_RESULT_SUCCESS;
  }
  ZE_REQUIRE_POINTER(phDrivers);
  *pCount = 1;
  phDrivers[0] = Driver::instance();
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeDriverGetApiVersion(ze_driver_handle_t hDriver, ze_api_version_t* version) {
  ZE_REQUIRE_HANDLE(hDriver);
  ZE_REQUIRE_POINTER(version);
  *version = ZE_API_VERSION_1_4;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeDriverGetProperties(ze_driver_handle_t hDriver, ze_driver_properties_t* pDriverProperties) {
  ZE_REQUIRE_HANDLE(hDriver);
  ZE_REQUIRE_POINTER(pDriverProperties);
  pDriverProperties->uuid = kDriverUuid;
  pDriverProperties->driverVersion = Driver::kVersion;
  if (ze_result_t result = checkChain(__func__, pDriverProperties->pNext); result != ZE_RESULT_SUCCESS) return result;
  fillChained<ze_driver_memory_free_ext_properties_t>(
      pDriverProperties->pNext, ZE_STRUCTURE_TYPE_DRIVER_MEMORY_FREE_EXT_PROPERTIES, [](auto& policies) {
        policies.freePolicies = ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_BLOCKING_FREE | ZE_DRIVER_MEMORY_FREE_POLICY_EXT_FLAG_DEFER_FREE;
      });
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeDriverGetIpcProperties(ze_driver_handle_t hDriver, ze_driver_ipc_properties_t* pIpcProperties) {
  ZE_REQUIRE_HANDLE(hDriver);
  ZE_REQUIRE_POINTER(pIpcProperties);
  pIpcProperties->flags = ZE_IPC_PROPERTY_FLAG_MEMORY | ZE_IPC_PROPERTY_FLAG_EVENT_POOL;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeDriverGetExtensionProperties(ze_driver_handle_t hDriver, uint32_t* pCount,
                                           ze_driver_extension_properties_t* pExtensionProperties) {
  ZE_REQUIRE_HANDLE(hDriver);
  ZE_REQUIRE_POINTER(pCount);
  // The extensions Loom implements on every device.
  static const std::pair<const char*, uint32_t> kExtensions[] = {
      {ZE_FLOAT_ATOMICS_EXT_NAME, ZE_FLOAT_ATOMICS_EXT_VERSION_CURRENT},
      {ZE_MEMORY_FREE_POLICIES_EXT_NAME, ZE_MEMORY_FREE_POLICIES_EXT_VERSION_CURRENT},
      {ZE_GLOBAL_OFFSET_EXP_NAME, ZE_GLOBAL_OFFSET_EXP_VERSION_CURRENT},
      {ZE_LINKAGE_INSPECTION_EXT_NAME, ZE_LINKAGE_INSPECTION_EXT_VERSION_CURRENT},
      {ZE_RELAXED_ALLOCATION_LIMITS_EXP_NAME, ZE_RELAXED_ALLOCATION_LIMITS_EXP_VERSION_CURRENT},
      {ZE_EVENT_QUERY_TIMESTAMPS_EXP_NAME, ZE_EVENT_QUERY_TIMESTAMPS_EXP_VERSION_CURRENT},
      {ZE_IMAGE_VIEW_EXP_NAME, ZE_IMAGE_VIEW_EXP_VERSION_CURRENT},
      {ZE_IMAGE_MEMORY_PROPERTIES_EXP_NAME, ZE_IMAGE_MEMORY_PROPERTIES_EXP_VERSION_CURRENT},
      {ZE_PCI_PROPERTIES_EXT_NAME, ZE_PCI_PROPERTIES_EXT_VERSION_CURRENT},
      // Devices without a reservable cache (the CPU) report a maximum of 0, as the extension provides.
      {ZE_CACHE_RESERVATION_EXT_NAME, ZE_CACHE_RESERVATION_EXT_VERSION_CURRENT},
      {ZE_FABRIC_EXP_NAME, ZE_MAKE_VERSION(1, 0)}};  // this header has no version enum for the fabric
  return fillArray(kExtensions, pCount, pExtensionProperties,
                   [](ze_driver_extension_properties_t& p, const std::pair<const char*, uint32_t>& extension) {
                     std::memset(p.name, 0, sizeof(p.name));
                     std::strncpy(p.name, extension.first, sizeof(p.name) - 1);
                     p.version = extension.second;
                   });
}

ze_result_t zeDriverGetExtensionFunctionAddress(ze_driver_handle_t hDriver, const char* name, void** ppFunctionAddress) {
  ZE_REQUIRE_HANDLE(hDriver);
  ZE_REQUIRE_POINTER(name);
  ZE_REQUIRE_POINTER(ppFunctionAddress);
  *ppFunctionAddress = externalPointerFunction(name);
  ZE_REQUIRE(*ppFunctionAddress != nullptr, ZE_RESULT_ERROR_INVALID_ARGUMENT, "no extension function of that name");
  return ZE_RESULT_SUCCESS;
}

}  // namespace loom::l0
