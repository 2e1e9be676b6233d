#pragma once
// Firmwares of a sysman device whose version the system reports (an NVIDIA GPU's VBIOS). Loom
// reads them and never flashes one.
#include <level_zero/zes_api.h>

namespace loom::l0 {

ze_result_t zesDeviceEnumFirmwares(zes_device_handle_t hDevice, uint32_t* pCount, zes_firmware_handle_t* phFirmware);
ze_result_t zesFirmwareGetProperties(zes_firmware_handle_t hFirmware, zes_firmware_properties_t* pProperties);
ze_result_t zesFirmwareFlash(zes_firmware_handle_t hFirmware, void* pImage, uint32_t size);

}  // namespace loom::l0
