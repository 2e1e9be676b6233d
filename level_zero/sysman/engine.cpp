#include "level_zero/sysman/engine.h"

#include "level_zero/sysman/sysman_device.h"

namespace loom::l0 {

ze_result_t zesDeviceEnumEngineGroups(zes_device_handle_t hDevice, uint32_t* pCount, zes_engine_handle_t* phEngine) {
  ZES_REQUIRE_DEVICE(hDevice);
  ZE_REQUIRE_POINTER(pCount);
  return listHandles(sysmanOf(hDevice).engineGroups, pCount, phEngine);
}

ze_result_t zesEngineGetProperties(zes_engine_handle_t hEngine, zes_engine_properties_t* pProperties) {
  ZES_REQUIRE_OBJECT(EngineGroup, hEngine);
  ZE_REQUIRE_POINTER(pProperties);
  pProperties->type = object->description() == core::ActivityKind::Compute ? ZES_ENGINE_GROUP_COMPUTE_ALL : ZES_ENGINE_GROUP_ALL;
  pProperties->onSubdevice = false;
  pProperties->subdeviceId = 0;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zesEngineGetActivity(zes_engine_handle_t hEngine, zes_engine_stats_t* pStats) {
  ZES_REQUIRE_OBJECT(EngineGroup, hEngine);
  ZE_REQUIRE_POINTER(pStats);
  const auto activity = object->telemetry().engineActivity(object->index());
  if (!activity) return readingFailed(__func__);
  pStats->activeTime = activity->activeUs;
  pStats->timestamp = activity->timestampUs;
  return ZE_RESULT_SUCCESS;
}

}  // namespace loom::l0
