#include "level_zero/sysman/firmware.h"

#include "level_zero/sysman/sysman_device.h"

namespace loom::l0 {

ze_result_t zesDeviceEnumFirmwares(zes_device_handle_t hDevice, uint32_t* pCount, zes_firmware_handle_t* phFirmware) {
  ZES_REQUIRE_DEVICE(hDevice);
  ZE_REQUIRE_POINTER(pCount);
  return listHandles(sysmanOf(hDevice).firmwares, pCount, phFirmware);
}

// The version is read when asked: "unknown" when the system does not give it this time.
ze_result_t zesFirmwareGetProperties(zes_firmware_handle_t hFirmware, zes_firmware_properties_t* pProperties) {
  ZES_REQUIRE_OBJECT(Firmware, hFirmware);
  ZE_REQUIRE_POINTER(pProperties);
  pProperties->onSubdevice = false;
  pProperties->subdeviceId = 0;
  pProperties->canControl = false;
  copyProperty(pProperties->name, object->description().name);
  copyProperty(pProperties->version, object->telemetry().firmwareVersion(object->index()).value_or(""));
  return ZE_RESULT_SUCCESS;
}

ze_result_t zesFirmwareFlash(zes_firmware_handle_t hFirmware, void* pImage, uint32_t) {
  const ze_result_t enabledCheck = checkSysmanEnabled(__func__);
  if (enabledCheck != ZE_RESULT_SUCCESS) return enabledCheck;
  ZE_REQUIRE_HANDLE(hFirmware);
  ZE_REQUIRE_POINTER(pImage);
  return reportError(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, __func__, "Loom never flashes firmware (canControl is false)");
}

}  // namespace loom::l0
