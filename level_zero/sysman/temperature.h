#pragma once
// Temperature sensors of a sysman device.
#include <level_zero/zes_api.h>

namespace loom::l0 {

ze_result_t zesDeviceEnumTemperatureSensors(zes_device_handle_t hDevice, uint32_t* pCount, zes_temp_handle_t* phTemperature);
ze_result_t zesTemperatureGetProperties(zes_temp_handle_t hTemperature, zes_temp_properties_t* pProperties);
ze_result_t zesTemperatureGetState(zes_temp_handle_t hTemperature, double* pTemperature);

}  // namespace loom::l0
