#pragma once
// Program debugging (zetDebug*): no backend of Loom lets a debugger attach to its kernels, so
// every device says so, and a debugger that reads the flag leaves it alone.
#include <level_zero/zet_api.h>

namespace loom::l0 {

ze_result_t zetDeviceGetDebugProperties(zet_device_handle_t hDevice, zet_device_debug_properties_t* pDebugProperties);

}  // namespace loom::l0
