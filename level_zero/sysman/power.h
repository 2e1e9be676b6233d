#pragma once
// Power domains of a sysman device: energy counters and the limits the device reports.
#include <level_zero/zes_api.h>

namespace loom::l0 {

ze_result_t zesDeviceEnumPowerDomains(zes_device_handle_t hDevice, uint32_t* pCount, zes_pwr_handle_t* phPower);
ze_result_t zesPowerGetProperties(zes_pwr_handle_t hPower, zes_power_properties_t* pProperties);
ze_result_t zesPowerGetEnergyCounter(zes_pwr_handle_t hPower, zes_power_energy_counter_t* pEnergy);

}  // namespace loom::l0
