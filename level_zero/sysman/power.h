#pragma once
// Power domains of a sysman device: energy counters and the limits the device reports. Loom reads
// the limits and never sets them.
#include <level_zero/zes_api.h>

namespace loom::l0 {

ze_result_t zesDeviceEnumPowerDomains(zes_device_handle_t hDevice, uint32_t* pCount, zes_pwr_handle_t* phPower);
ze_result_t zesPowerGetProperties(zes_pwr_handle_t hPower, zes_power_properties_t* pProperties);
ze_result_t zesPowerGetEnergyCounter(zes_pwr_handle_t hPower, zes_power_energy_counter_t* pEnergy);
ze_result_t zesPowerGetLimits(zes_pwr_handle_t hPower, zes_power_sustained_limit_t* pSustained, zes_power_burst_limit_t* pBurst,
                              zes_power_peak_limit_t* pPeak);
ze_result_t zesPowerGetLimitsExt(zes_pwr_handle_t hPower, uint32_t* pCount, zes_power_limit_ext_desc_t* pSustained);

}  // namespace loom::l0
