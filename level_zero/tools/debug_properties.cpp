#include "level_zero/tools/debug_properties.h"

#include "level_zero/validation.h"

namespace loom::l0 {

ze_result_t zetDeviceGetDebugProperties(zet_device_handle_t hDevice, zet_device_debug_properties_t* pDebugProperties) {
  ZE_REQUIRE_HANDLE(hDevice);
  ZE_REQUIRE_POINTER(pDebugProperties);
  pDebugProperties->flags = 0;  // no ZET_DEVICE_DEBUG_PROPERTY_FLAG_ATTACH
  return ZE_RESULT_SUCCESS;
}

}  // namespace loom::l0
