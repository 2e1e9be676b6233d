#pragma once
// Frequency domains of a sysman device: the compute clock (a CPU's cores, a GPU's graphics clock)
// and, where the device reports it, the memory clock. Read-only: Loom changes no clocks.
#include <level_zero/zes_api.h>

namespace loom::l0 {

ze_result_t zesDeviceEnumFrequencyDomains(zes_device_handle_t hDevice, uint32_t* pCount, zes_freq_handle_t* phFrequency);
ze_result_t zesFrequencyGetProperties(zes_freq_handle_t hFrequency, zes_freq_properties_t* pProperties);
ze_result_t zesFrequencyGetAvailableClocks(zes_freq_handle_t hFrequency, uint32_t* pCount, double* phFrequency);
ze_result_t zesFrequencyGetRange(zes_freq_handle_t hFrequency, zes_freq_range_t* pLimits);
// Overclocking: the capabilities say none is supported, so the other zesFrequencyOc* functions
// return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, as the spec names for that case.
ze_result_t zesFrequencyOcGetCapabilities(zes_freq_handle_t hFrequency, zes_oc_capabilities_t* pOcCapabilities);
ze_result_t zesFrequencyGetState(zes_freq_handle_t hFrequency, zes_freq_state_t* pState);

}  // namespace loom::l0
