#pragma once
// Memory modules of a sysman device: system memory for the CPU, the GPU's own memory.
#include <level_zero/zes_api.h>

namespace loom::l0 {

ze_result_t zesDeviceEnumMemoryModules(zes_device_handle_t hDevice, uint32_t* pCount, zes_mem_handle_t* phMemory);
ze_result_t zesMemoryGetProperties(zes_mem_handle_t hMemory, zes_mem_properties_t* pProperties);
ze_result_t zesMemoryGetState(zes_mem_handle_t hMemory, zes_mem_state_t* pState);

}  // namespace loom::l0
