#include "level_zero/sysman/frequency.h"

#include "level_zero/sysman/sysman_device.h"

namespace loom::l0 {

// core's throttle reasons are Level Zero's bits, so they pass through unchanged.
static_assert(uint32_t(core::kThrottleAveragePower) == ZES_FREQ_THROTTLE_REASON_FLAG_AVE_PWR_CAP &&
              uint32_t(core::kThrottleBurstPower) == ZES_FREQ_THROTTLE_REASON_FLAG_BURST_PWR_CAP &&
              uint32_t(core::kThrottleCurrent) == ZES_FREQ_THROTTLE_REASON_FLAG_CURRENT_LIMIT &&
              uint32_t(core::kThrottleThermal) == ZES_FREQ_THROTTLE_REASON_FLAG_THERMAL_LIMIT &&
              uint32_t(core::kThrottlePowerSupply) == ZES_FREQ_THROTTLE_REASON_FLAG_PSU_ALERT &&
              uint32_t(core::kThrottleSoftwareRange) == ZES_FREQ_THROTTLE_REASON_FLAG_SW_RANGE &&
              uint32_t(core::kThrottleHardwareRange) == ZES_FREQ_THROTTLE_REASON_FLAG_HW_RANGE);

ze_result_t zesDeviceEnumFrequencyDomains(zes_device_handle_t hDevice, uint32_t* pCount, zes_freq_handle_t* phFrequency) {
  ZES_REQUIRE_DEVICE(hDevice);
  ZE_REQUIRE_POINTER(pCount);
  return listHandles(sysmanOf(hDevice).frequencyDomains, pCount, phFrequency);
}

ze_result_t zesFrequencyGetProperties(zes_freq_handle_t hFrequency, zes_freq_properties_t* pProperties) {
  ZES_REQUIRE_OBJECT(FrequencyDomain, hFrequency);
  ZE_REQUIRE_POINTER(pProperties);
  const core::FrequencyDomain& domain = object->description();
  pProperties->type = domain.kind == core::ClockKind::Memory ? ZES_FREQ_DOMAIN_MEMORY : ZES_FREQ_DOMAIN_GPU;
  pProperties->onSubdevice = false;
  pProperties->subdeviceId = 0;
  pProperties->canControl = false;
  pProperties->isThrottleEventSupported = false;
  pProperties->min = domain.minMHz;  // -1 where the system does not say (no cpufreq)
  pProperties->max = domain.maxMHz;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zesFrequencyGetAvailableClocks(zes_freq_handle_t hFrequency, uint32_t* pCount, double* phFrequency) {
  ZES_REQUIRE_OBJECT(FrequencyDomain, hFrequency);
  ZE_REQUIRE_POINTER(pCount);
  const std::vector<double> clocks = object->telemetry().availableClocksMHz(object->index());
  return fillArray(clocks, pCount, phFrequency, [](double& out, double clock) { out = clock; });
}

ze_result_t zesFrequencyGetRange(zes_freq_handle_t hFrequency, zes_freq_range_t* pLimits) {
  ZES_REQUIRE_OBJECT(FrequencyDomain, hFrequency);
  ZE_REQUIRE_POINTER(pLimits);
  const auto limits = object->telemetry().frequencyLimits(object->index());
  ZE_REQUIRE(limits.has_value(), ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, "the system does not say which frequency limits are in effect");
  pLimits->min = limits->minMHz;  // negative: no limit in effect, as the spec defines
  pLimits->max = limits->maxMHz;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zesFrequencyOcGetCapabilities(zes_freq_handle_t hFrequency, zes_oc_capabilities_t* pOcCapabilities) {
  ZES_REQUIRE_OBJECT(FrequencyDomain, hFrequency);
  ZE_REQUIRE_POINTER(pOcCapabilities);
  const zes_structure_type_t stype = pOcCapabilities->stype;
  const void* pNext = pOcCapabilities->pNext;
  *pOcCapabilities = {};  // every overclocking feature absent: Loom changes no clocks
  pOcCapabilities->stype = stype;
  pOcCapabilities->pNext = pNext;
  pOcCapabilities->isOcSupported = false;
  pOcCapabilities->maxFactoryDefaultFrequency = object->description().maxMHz;  // -1 where the system does not say
  pOcCapabilities->maxFactoryDefaultVoltage = -1;  // no source reports voltages
  return ZE_RESULT_SUCCESS;
}

ze_result_t zesFrequencyGetState(zes_freq_handle_t hFrequency, zes_freq_state_t* pState) {
  ZES_REQUIRE_OBJECT(FrequencyDomain, hFrequency);
  ZE_REQUIRE_POINTER(pState);
  const auto state = object->telemetry().frequencyState(object->index());
  if (!state) return readingFailed(__func__);
  pState->currentVoltage = -1;  // no source reports it
  pState->request = state->requestMHz;
  pState->tdp = state->tdpMHz;
  pState->efficient = state->efficientMHz;
  pState->actual = state->actualMHz;
  pState->throttleReasons = state->throttleReasons;
  return ZE_RESULT_SUCCESS;
}

}  // namespace loom::l0
