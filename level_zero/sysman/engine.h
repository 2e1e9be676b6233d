#pragma once
// Engine groups of a sysman device and how busy they are.
#include <level_zero/zes_api.h>

namespace loom::l0 {

ze_result_t zesDeviceEnumEngineGroups(zes_device_handle_t hDevice, uint32_t* pCount, zes_engine_handle_t* phEngine);
ze_result_t zesEngineGetProperties(zes_engine_handle_t hEngine, zes_engine_properties_t* pProperties);
ze_result_t zesEngineGetActivity(zes_engine_handle_t hEngine, zes_engine_stats_t* pStats);

}  // namespace loom::l0
