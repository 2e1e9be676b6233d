#pragma once
// The Level Zero driver object: one per process, created by zeInit, owning the device handles.
#include <level_zero/ze_api.h>

#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "level_zero/handle/handle.h"

namespace loom::core {
class Device;
}

namespace loom::l0 {

class Device;
class Fabric;

class Driver : public _ze_driver_handle_t {
 public:
  // nullptr before a successful zeInit.
  static Driver* instance();
  static Driver* fromHandle(ze_driver_handle_t handle) { return static_cast<Driver*>(handle); }
  // Loom's version: major (bits 31-24), minor (23-16) and patch (15-0).
  static constexpr uint32_t kVersion = (0u << 24) | (1u << 16) | 0u;

  // True when `handle` is one of this driver's devices (roots and sub-devices).
  bool owns(ze_device_handle_t handle) const;
  // ZES_ENABLE_SYSMAN=1 when zeInit first ran.
  bool sysmanEnabled() const { return sysmanEnabled_; }

  const std::vector<Device*>& devices() const { return rootDevices_; }
  // The API object of a core device (root or sub-device).
  Device* device(core::Device* coreDevice) const;
  // The fabric graph of the devices (fabric/fabric.h), made on the first fabric query.
  const Fabric& fabric();

 private:
  friend ze_result_t zeInit(ze_init_flags_t flags);
  Driver();
  Device* expose(core::Device& coreDevice);
  std::vector<std::unique_ptr<Device>> allDevices_;
  std::vector<Device*> rootDevices_;
  std::map<core::Device*, Device*> byCoreDevice_;
  bool sysmanEnabled_ = false;
  std::once_flag fabricOnce_;
  std::shared_ptr<const Fabric> fabric_;  // shared_ptr: Fabric is incomplete here
};

ze_result_t zeInit(ze_init_flags_t flags);
ze_result_t zeDriverGet(uint32_t* pCount, ze_driver_handle_t* phDrivers);
ze_result_t zeDriverGetApiVersion(ze_driver_handle_t hDriver, ze_api_version_t* version);
ze_result_t zeDriverGetProperties(ze_driver_handle_t hDriver, ze_driver_properties_t* pDriverProperties);
ze_result_t zeDriverGetIpcProperties(ze_driver_handle_t hDriver, ze_driver_ipc_properties_t* pIpcProperties);
ze_result_t zeDriverGetExtensionProperties(ze_driver_handle_t hDriver, uint32_t* pCount,
                                           ze_driver_extension_properties_t* pExtensionProperties);
ze_result_t zeDriverGetExtensionFunctionAddress(ze_driver_handle_t hDriver, const char* name, void** ppFunctionAddress);

}  // namespace loom::l0
