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

ze_result_t zesDeviceEnumDiagnosticTestSuites(zes_device_handle_t hDevice, uint32_t* pCount, zes_diag_handle_t*) {
  return listNoComponents(hDevice, pCount, __func__);
}

ze_result_t zesDeviceEnumFabricPorts(zes_device_handle_t hDevice, uint32_t* pCount, zes_fabric_port_handle_t*) {
  return listNoComponents(hDevice, pCount, __func__);
}

ze_result_t zesDeviceEnumFans(zes_device_handle_t hDevice, uint32_t* pCount, zes_fan_handle_t*) {
  return listNoComponents(hDevice, pCount, __func__);
}

ze_result_t zesDeviceEnumFirmwares(zes_device_handle_t hDevice, uint32_t* pCount, zes_firmware_handle_t*) {
  return listNoComponents(hDevice, pCount, __func__);
}

ze_result_t zesDeviceEnumLeds(zes_device_handle_t hDevice, uint32_t* pCount, zes_led_handle_t*) {
  return listNoComponents(hDevice, pCount, __func__);
}

ze_result_t zesDeviceEnumPerformanceFactorDomains(zes_device_handle_t hDevice, uint32_t* pCount, zes_perf_handle_t*) {
  return listNoComponents(hDevice, pCount, __func__);
}

ze_result_t zesDeviceEnumPsus(zes_device_handle_t hDevice, uint32_t* pCount, zes_psu_handle_t*) {
  return listNoComponents(hDevice, pCount, __func__);
}

ze_result_t zesDeviceEnumRasErrorSets(zes_device_handle_t hDevice, uint32_t* pCount, zes_ras_handle_t*) {
  return listNoComponents(hDevice, pCount, __func__);
}

ze_result_t zesDeviceEnumSchedulers(zes_device_handle_t hDevice, uint32_t* pCount, zes_sched_handle_t*) {
  return listNoComponents(hDevice, pCount, __func__);
}

ze_result_t zesDeviceEnumStandbyDomains(zes_device_handle_t hDevice, uint32_t* pCount, zes_standby_handle_t*) {
  return listNoComponents(hDevice, pCount, __func__);
}

}  // namespace loom::l0
