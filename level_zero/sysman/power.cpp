#include "level_zero/sysman/power.h"

#include <array>

#include "level_zero/sysman/sysman_device.h"

namespace loom::l0 {

namespace {

// The averaging window of the sustained limit: unknown, as NVML does not say it (the field is signed).
constexpr int32_t kUnknownInterval = -1;

constexpr const char* kNoLimit = "the device does not report the power limit in effect";

// The sustained limit in effect, the only one the telemetry reports: nullopt when it cannot say.
std::optional<int32_t> sustainedLimit(const PowerDomain& domain) {
  return domain.telemetry().sustainedPowerLimitMilliwatts(domain.index());
}

}  // namespace

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

// No burst or peak limit is known (NVIDIA GPUs have neither): the burst limit reads as ignored and
// the peak limits as -1.
ze_result_t zesPowerGetLimits(zes_pwr_handle_t hPower, zes_power_sustained_limit_t* pSustained, zes_power_burst_limit_t* pBurst,
                              zes_power_peak_limit_t* pPeak) {
  ZES_REQUIRE_OBJECT(PowerDomain, hPower);
  const std::optional<int32_t> limit = sustainedLimit(*object);
  ZE_REQUIRE(limit.has_value(), ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, kNoLimit);
  if (pSustained) *pSustained = {true, *limit, kUnknownInterval};
  if (pBurst) *pBurst = {false, -1};
  if (pPeak) *pPeak = {-1, -1};
  return ZE_RESULT_SUCCESS;
}

// One descriptor, the sustained limit's, locked in every part: Loom changes none of them.
ze_result_t zesPowerGetLimitsExt(zes_pwr_handle_t hPower, uint32_t* pCount, zes_power_limit_ext_desc_t* pSustained) {
  ZES_REQUIRE_OBJECT(PowerDomain, hPower);
  ZE_REQUIRE_POINTER(pCount);
  const std::optional<int32_t> limit = sustainedLimit(*object);
  ZE_REQUIRE(limit.has_value(), ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, kNoLimit);
  return fillArray(std::array{*limit}, pCount, pSustained, [](zes_power_limit_ext_desc_t& descriptor, int32_t milliwatts) {
    descriptor.level = ZES_POWER_LEVEL_SUSTAINED;
    descriptor.source = ZES_POWER_SOURCE_ANY;
    descriptor.limitUnit = ZES_LIMIT_UNIT_POWER;
    descriptor.enabledStateLocked = true;
    descriptor.enabled = true;
    descriptor.intervalValueLocked = true;
    descriptor.interval = kUnknownInterval;
    descriptor.limitValueLocked = true;
    descriptor.limit = milliwatts;
  });
}

}  // namespace loom::l0
