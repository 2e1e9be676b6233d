#pragma once
// A Level Zero device handle over a core device (root device or sub-device).
#include <level_zero/ze_api.h>

#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "level_zero/handle/handle.h"
#include "loom/core/device.h"
#include "loom/core/telemetry.h"

namespace loom::l0 {

class DeviceMetrics;
class Driver;
class SysmanDevice;

class Device : public _ze_device_handle_t {
 public:
  Device(Driver& driver, core::Device& device) : driver_(driver), device_(device) {}
  static Device* fromHandle(ze_device_handle_t handle) { return static_cast<Device*>(handle); }

  core::Device& core() const { return device_; }
  Driver& driver() const { return driver_; }
  const std::vector<Device*>& subDevices() const { return subDevices_; }
  void addSubDevice(Device* subDevice) { subDevices_.push_back(subDevice); }
  // True when `other` is this device or one of its sub-devices (or their parent).
  bool isRelated(const Device& other) const;
  // How this device reaches `peer`'s memory: fully when they are related, else as the backend says.
  core::PeerAccess peerAccess(const Device& peer) const;
  // The device's sysman view (sysman/sysman_device.h), made on first use.
  SysmanDevice& sysman();
  // The device's metric groups and their state (tools/device_metrics.h), made on first use.
  DeviceMetrics& metrics();
  // The PCI function this device is, as its telemetry describes it; none for a device that is
  // no PCI function (the CPU) or several (a root made of tiles that are several GPUs).
  std::optional<core::PciDescription> pciFunction() const;

 private:
  Driver& driver_;
  core::Device& device_;
  std::vector<Device*> subDevices_;
  std::once_flag sysmanOnce_;
  std::shared_ptr<SysmanDevice> sysman_;  // shared_ptr: SysmanDevice is incomplete here
  std::once_flag metricsOnce_;
  std::shared_ptr<DeviceMetrics> metrics_;
};

ze_result_t zeDeviceGet(ze_driver_handle_t hDriver, uint32_t* pCount, ze_device_handle_t* phDevices);
ze_result_t zeDeviceGetSubDevices(ze_device_handle_t hDevice, uint32_t* pCount, ze_device_handle_t* phSubdevices);
ze_result_t zeDeviceGetProperties(ze_device_handle_t hDevice, ze_device_properties_t* pDeviceProperties);
ze_result_t zeDeviceGetComputeProperties(ze_device_handle_t hDevice, ze_device_compute_properties_t* pComputeProperties);
ze_result_t zeDeviceGetModuleProperties(ze_device_handle_t hDevice, ze_device_module_properties_t* pModuleProperties);
ze_result_t zeDeviceGetCommandQueueGroupProperties(ze_device_handle_t hDevice, uint32_t* pCount,
                                                   ze_command_queue_group_properties_t* pCommandQueueGroupProperties);
ze_result_t zeDeviceGetMemoryProperties(ze_device_handle_t hDevice, uint32_t* pCount,
                                        ze_device_memory_properties_t* pMemProperties);
ze_result_t zeDeviceGetMemoryAccessProperties(ze_device_handle_t hDevice,
                                              ze_device_memory_access_properties_t* pMemAccessProperties);
ze_result_t zeDeviceGetCacheProperties(ze_device_handle_t hDevice, uint32_t* pCount,
                                       ze_device_cache_properties_t* pCacheProperties);
ze_result_t zeDeviceGetImageProperties(ze_device_handle_t hDevice, ze_device_image_properties_t* pImageProperties);
ze_result_t zeDeviceGetExternalMemoryProperties(ze_device_handle_t hDevice,
                                                ze_device_external_memory_properties_t* pExternalMemoryProperties);
ze_result_t zeDeviceGetP2PProperties(ze_device_handle_t hDevice, ze_device_handle_t hPeerDevice,
                                     ze_device_p2p_properties_t* pP2PProperties);
ze_result_t zeDeviceCanAccessPeer(ze_device_handle_t hDevice, ze_device_handle_t hPeerDevice, ze_bool_t* value);
ze_result_t zeDeviceGetStatus(ze_device_handle_t hDevice);
ze_result_t zeDevicePciGetPropertiesExt(ze_device_handle_t hDevice, ze_pci_ext_properties_t* pPciProperties);
ze_result_t zeDeviceGetGlobalTimestamps(ze_device_handle_t hDevice, uint64_t* hostTimestamp, uint64_t* deviceTimestamp);

}  // namespace loom::l0
