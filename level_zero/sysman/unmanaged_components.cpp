#include "level_zero/sysman/unmanaged_components.h"

#include "level_zero/sysman/sysman_device.h"

namespace loom::l0 {

namespace {

// The enumeration of a kind with no components: the device's and pCount's checks, then zero.
ze_result_t listNoComponents(zes_device_handle_t hDevice, uint32_t* pCount, const char* function) {
  const ze_result_t deviceCheck = checkSysmanDevice(hDevice, function);
  if (deviceCheck != ZE_RESULT_SUCCESS) return deviceCheck;
  if (!pCount) return reportError(ZE_RESULT_ERROR_INVALID_NULL_POINTER, function, "pCount is null");
  *pCount = 0;
  return ZE_RESULT_SUCCESS;
}

}  // namespace

// One enumeration of a kind with no components.
#define LOOM_NO_COMPONENTS(function, Handle) \
  ze_result_t function(zes_device_handle_t hDevice, uint32_t* pCount, Handle*) { return listNoComponents(hDevice, pCount, #function); }

LOOM_NO_COMPONENTS(zesDeviceEnumDiagnosticTestSuites, zes_diag_handle_t)
LOOM_NO_COMPONENTS(zesDeviceEnumFabricPorts, zes_fabric_port_handle_t)
LOOM_NO_COMPONENTS(zesDeviceEnumFans, zes_fan_handle_t)
LOOM_NO_COMPONENTS(zesDeviceEnumLeds, zes_led_handle_t)
LOOM_NO_COMPONENTS(zesDeviceEnumPerformanceFactorDomains, zes_perf_handle_t)
LOOM_NO_COMPONENTS(zesDeviceEnumPsus, zes_psu_handle_t)
LOOM_NO_COMPONENTS(zesDeviceEnumRasErrorSets, zes_ras_handle_t)
LOOM_NO_COMPONENTS(zesDeviceEnumSchedulers, zes_sched_handle_t)
LOOM_NO_COMPONENTS(zesDeviceEnumStandbyDomains, zes_standby_handle_t)

#undef LOOM_NO_COMPONENTS

}  // namespace loom::l0
