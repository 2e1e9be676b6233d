#include "level_zero/sysman/memory_module.h"

#include "level_zero/sysman/sysman_device.h"

namespace loom::l0 {

ze_result_t zesDeviceEnumMemoryModules(zes_device_handle_t hDevice, uint32_t* pCount, zes_mem_handle_t* phMemory) {
  ZES_REQUIRE_DEVICE(hDevice);
  ZE_REQUIRE_POINTER(pCount);
  return listHandles(sysmanOf(hDevice).memoryModules, pCount, phMemory);
}

ze_result_t zesMemoryGetProperties(zes_mem_handle_t hMemory, zes_mem_properties_t* pProperties) {
  ZES_REQUIRE_OBJECT(MemoryModule, hMemory);
  ZE_REQUIRE_POINTER(pProperties);
  const core::MemoryModule& module = object->description();
  pProperties->type = module.kind == core::MemoryKind::Hbm ? ZES_MEM_TYPE_HBM : ZES_MEM_TYPE_DDR;
  pProperties->onSubdevice = false;
  pProperties->subdeviceId = 0;
  pProperties->location = module.onDevice ? ZES_MEM_LOC_DEVICE : ZES_MEM_LOC_SYSTEM;
  pProperties->physicalSize = module.physicalSize;
  pProperties->busWidth = module.busWidth;
  pProperties->numChannels = module.channels;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zesMemoryGetState(zes_mem_handle_t hMemory, zes_mem_state_t* pState) {
  ZES_REQUIRE_OBJECT(MemoryModule, hMemory);
  ZE_REQUIRE_POINTER(pState);
  const auto state = object->telemetry().memoryState(object->index());
  if (!state) return readingFailed(__func__);
  pState->health = ZES_MEM_HEALTH_UNKNOWN;  // no source reports it
  pState->free = state->free;
  pState->size = state->size;
  return ZE_RESULT_SUCCESS;
}

}  // namespace loom::l0
