#pragma once
// Kinds of sysman components Loom manages none of: diagnostics, fabric ports, fans, LEDs,
// performance factors, power supplies, RAS error sets, schedulers and standby domains.
// The spec answers "how many are available" with a count, so each enumeration succeeds with
// zero handles; with no handle, the kind's other functions cannot be reached.
#include <level_zero/zes_api.h>

namespace loom::l0 {

ze_result_t zesDeviceEnumDiagnosticTestSuites(zes_device_handle_t hDevice, uint32_t* pCount, zes_diag_handle_t* phDiagnostics);
ze_result_t zesDeviceEnumFabricPorts(zes_device_handle_t hDevice, uint32_t* pCount, zes_fabric_port_handle_t* phPort);
ze_result_t zesDeviceEnumFans(zes_device_handle_t hDevice, uint32_t* pCount, zes_fan_handle_t* phFan);
ze_result_t zesDeviceEnumLeds(zes_device_handle_t hDevice, uint32_t* pCount, zes_led_handle_t* phLed);
ze_result_t zesDeviceEnumPerformanceFactorDomains(zes_device_handle_t hDevice, uint32_t* pCount, zes_perf_handle_t* phPerf);
ze_result_t zesDeviceEnumPsus(zes_device_handle_t hDevice, uint32_t* pCount, zes_psu_handle_t* phPsu);
ze_result_t zesDeviceEnumRasErrorSets(zes_device_handle_t hDevice, uint32_t* pCount, zes_ras_handle_t* phRas);
ze_result_t zesDeviceEnumSchedulers(zes_device_handle_t hDevice, uint32_t* pCount, zes_sched_handle_t* phScheduler);
ze_result_t zesDeviceEnumStandbyDomains(zes_device_handle_t hDevice, uint32_t* pCount, zes_standby_handle_t* phStandby);

}  // namespace loom::l0
