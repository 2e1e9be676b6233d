#include "level_zero/sysman/power.h"

#include "level_zero/sysman/sysman_device.h"

namespace loom::l0 {

ze_result_t zesDeviceEnumPowerDomains(zes_device_handle_t hDevice, uint32_t* pCount, zes_pwr_handle_t* phPower) {
  ZES_REQUIRE_DEVICE(hDevice);
  ZE_REQUIRE_POINTER(pCount);
  return listHandles(sysmanOf(hDevice).powerDomains, pCount, phPower);
}

ze_result_t zesPowerGetProperties(zes_pwr_handle_t hPower, zes_power_properties_t* pProperties) {
  ZES_REQUIRE_OBJECT(PowerDomain, hPower);
  ZE_REQUIRE_POINTER(pProperties);
  const core::PowerDomain& domain = object->description();
  pProperties->onSubdevice = false;
  pProperties->subdeviceId = 0;
  pProperties->canControl = false;
  pProperties->isEnergyThresholdSupported = false;
  pProperties->defaultLimit = domain.defaultLimitMilliwatts;
  pProperties->minLimit = domain.minLimitMilliwatts;
  pProperties->maxLimit = domain.maxLimitMilliwatts;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zesPowerGetEnergyCounter(zes_pwr_handle_t hPower, zes_power_energy_counter_t* pEnergy) {
  ZES_REQUIRE_OBJECT(PowerDomain, hPower);
  ZE_REQUIRE_POINTER(pEnergy);
  const auto energy = object->telemetry().energy(object->index());
  if (!energy) return readingFailed(__func__);
  pEnergy->energy = energy->microjoules;
  pEnergy->timestamp = energy->timestampUs;
  return ZE_RESULT_SUCCESS;
}

}  // namespace loom::l0
