#include "level_zero/sysman/sysman_device.h"

#include <cstdio>

#include "level_zero/device/device.h"
#include "level_zero/driver/driver.h"

namespace loom::l0 {

namespace {

// Vendor names as the PCI ID registry spells them.
std::string vendorName(uint32_t vendorId) {
  switch (vendorId) {
    case 0x8086:
      return "Intel Corporation";
    case 0x1022:
      return "Advanced Micro Devices, Inc. [AMD]";
    case 0x10de:
      return "NVIDIA Corporation";
    default:
      return {};
  }
}

std::string driverVersion() {
  char text[32];
  std::snprintf(text, sizeof(text), "%u.%u.%u", Driver::kVersion >> 24, (Driver::kVersion >> 16) & 0xff, Driver::kVersion & 0xffff);
  return text;
}

// One object per domain the telemetry lists, in its order.
template <typename Object, typename Description>
std::vector<std::unique_ptr<Object>> makeObjects(core::Telemetry& telemetry, const std::vector<Description>& domains) {
  std::vector<std::unique_ptr<Object>> objects;
  for (uint32_t i = 0; i < domains.size(); ++i) objects.push_back(std::make_unique<Object>(telemetry, i, domains[i]));
  return objects;
}

}  // namespace

SysmanDevice::SysmanDevice(core::Telemetry& telemetry)
    : frequencyDomains(makeObjects<FrequencyDomain>(telemetry, telemetry.frequencyDomains())),
      powerDomains(makeObjects<PowerDomain>(telemetry, telemetry.powerDomains())),
      temperatureSensors(makeObjects<TemperatureSensor>(telemetry, telemetry.temperatureSensors())),
      memoryModules(makeObjects<MemoryModule>(telemetry, telemetry.memoryModules())),
      engineGroups(makeObjects<EngineGroup>(telemetry, telemetry.engineGroups())),
      firmwares(makeObjects<Firmware>(telemetry, telemetry.firmwares())),
      telemetry_(telemetry) {}

ze_result_t checkSysmanEnabled(const char* function) {
  const Driver* driver = Driver::instance();
  if (!driver) return reportError(ZE_RESULT_ERROR_UNINITIALIZED, function, "zeInit was not called");
  if (!driver->sysmanEnabled())
    return reportError(ZE_RESULT_ERROR_UNINITIALIZED, function, "sysman needs ZES_ENABLE_SYSMAN=1 before zeInit");
  return ZE_RESULT_SUCCESS;
}

ze_result_t checkSysmanDevice(zes_device_handle_t hDevice, const char* function) {
  const ze_result_t enabled = checkSysmanEnabled(function);
  if (enabled != ZE_RESULT_SUCCESS) return enabled;
  if (!hDevice) return reportError(ZE_RESULT_ERROR_INVALID_NULL_HANDLE, function, "hDevice is null");
  if (!Driver::instance()->owns(hDevice)) return reportError(ZE_RESULT_ERROR_INVALID_ARGUMENT, function, "hDevice is not a device");
  return ZE_RESULT_SUCCESS;
}

SysmanDevice& sysmanOf(zes_device_handle_t hDevice) { return Device::fromHandle(hDevice)->sysman(); }

ze_result_t readingFailed(const char* function) {
  return reportError(ZE_RESULT_ERROR_UNKNOWN, function, "the system gave no reading");
}

ze_result_t zesDeviceGetProperties(zes_device_handle_t hDevice, zes_device_properties_t* pProperties) {
  ZES_REQUIRE_DEVICE(hDevice);
  ZE_REQUIRE_POINTER(pProperties);
  const ze_result_t coreResult = l0::zeDeviceGetProperties(hDevice, &pProperties->core);
  if (coreResult != ZE_RESULT_SUCCESS) return coreResult;
  Device& device = *Device::fromHandle(hDevice);
  const core::DeviceInfo& info = device.core().info();
  const core::ProductStrings product = device.sysman().telemetry().productStrings();
  pProperties->numSubdevices = static_cast<uint32_t>(device.subDevices().size());
  copyProperty(pProperties->serialNumber, product.serialNumber);
  copyProperty(pProperties->boardNumber, product.boardNumber);
  copyProperty(pProperties->brandName, product.brandName);
  copyProperty(pProperties->modelName, info.name);
  copyProperty(pProperties->vendorName, vendorName(info.vendorId));
  copyProperty(pProperties->driverVersion, driverVersion());
  return ZE_RESULT_SUCCESS;
}

ze_result_t zesDeviceGetState(zes_device_handle_t hDevice, zes_device_state_t* pState) {
  ZES_REQUIRE_DEVICE(hDevice);
  ZE_REQUIRE_POINTER(pState);
  const std::optional<bool> resetPending = sysmanOf(hDevice).telemetry().resetPending();
  ZE_REQUIRE(resetPending.has_value(), ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, "the device does not say whether it needs a reset");
  pState->reset = *resetPending ? ZES_RESET_REASON_FLAG_REPAIR : 0;
  pState->repaired = ZES_REPAIR_STATUS_UNSUPPORTED;  // Loom performs no in-field repairs
  return ZE_RESULT_SUCCESS;
}

ze_result_t zesDeviceEccAvailable(zes_device_handle_t hDevice, ze_bool_t* pAvailable) {
  ZES_REQUIRE_DEVICE(hDevice);
  ZE_REQUIRE_POINTER(pAvailable);
  *pAvailable = sysmanOf(hDevice).telemetry().eccState().has_value();
  return ZE_RESULT_SUCCESS;
}

// Loom reads the mode and never changes it: on NVIDIA GPUs that is nvidia-smi's (as root, taking
// effect at the next reset), and the host's memory controller is the firmware's.
ze_result_t zesDeviceEccConfigurable(zes_device_handle_t hDevice, ze_bool_t* pConfigurable) {
  ZES_REQUIRE_DEVICE(hDevice);
  ZE_REQUIRE_POINTER(pConfigurable);
  *pConfigurable = false;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zesDeviceGetEccState(zes_device_handle_t hDevice, zes_device_ecc_properties_t* pState) {
  ZES_REQUIRE_DEVICE(hDevice);
  ZE_REQUIRE_POINTER(pState);
  const std::optional<core::EccState> ecc = sysmanOf(hDevice).telemetry().eccState();
  ZE_REQUIRE(ecc.has_value(), ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, "the device reports no error correction of its memory");
  auto state = [](bool enabled) { return enabled ? ZES_DEVICE_ECC_STATE_ENABLED : ZES_DEVICE_ECC_STATE_DISABLED; };
  pState->currentState = state(ecc->enabled);
  pState->pendingState = state(ecc->enabledAfterReset);
  pState->pendingAction = ecc->enabled == ecc->enabledAfterReset ? ZES_DEVICE_ACTION_NONE : ZES_DEVICE_ACTION_WARM_CARD_RESET;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zesDeviceSetEccState(zes_device_handle_t hDevice, const zes_device_ecc_desc_t* newState, zes_device_ecc_properties_t* pState) {
  ZES_REQUIRE_DEVICE(hDevice);
  ZE_REQUIRE_POINTER(newState);
  ZE_REQUIRE_POINTER(pState);
  ZE_REQUIRE(newState->state == ZES_DEVICE_ECC_STATE_ENABLED || newState->state == ZES_DEVICE_ECC_STATE_DISABLED,
             ZE_RESULT_ERROR_INVALID_ENUMERATION, "newState->state is neither enabled nor disabled");
  ZE_REQUIRE(sysmanOf(hDevice).telemetry().eccState().has_value(), ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
             "the device reports no error correction of its memory");
  return reportError(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, __func__,
                     "Loom does not change ECC modes (zesDeviceEccConfigurable says false; nvidia-smi -e does, as root)");
}

// The telemetry lists the processes running kernels (NVML's compute processes), with the device
// memory they allocated; what they map of shared memory is not known. Processes come and go between
// the idiom's two calls: an array too small gets what fits and ZE_RESULT_ERROR_INVALID_SIZE.
ze_result_t zesDeviceProcessesGetState(zes_device_handle_t hDevice, uint32_t* pCount, zes_process_state_t* pProcesses) {
  ZES_REQUIRE_DEVICE(hDevice);
  ZE_REQUIRE_POINTER(pCount);
  const std::optional<std::vector<core::ProcessUsage>> processes = sysmanOf(hDevice).telemetry().processes();
  ZE_REQUIRE(processes.has_value(), ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, "the device does not say which processes use it");
  const bool tooSmall = pProcesses && *pCount != 0 && *pCount < processes->size();
  fillArray(*processes, pCount, pProcesses, [](zes_process_state_t& state, const core::ProcessUsage& process) {
    state.processId = process.processId;
    state.memSize = process.memoryBytes;
    state.sharedSize = 0;
    state.engines = ZES_ENGINE_TYPE_FLAG_COMPUTE;
  });
  ZE_REQUIRE(!tooSmall, ZE_RESULT_ERROR_INVALID_SIZE, "pProcesses holds fewer entries than there are processes");
  return ZE_RESULT_SUCCESS;
}

}  // namespace loom::l0
