#include "level_zero/tools/metric_group.h"

#include "level_zero/validation.h"

namespace loom::l0 {

ze_result_t zetMetricGroupGet(zet_device_handle_t hDevice, uint32_t* pCount, zet_metric_group_handle_t* phMetricGroups) {
  ZE_REQUIRE_HANDLE(hDevice);
  ZE_REQUIRE_POINTER(pCount);
  *pCount = 0;
  return ZE_RESULT_SUCCESS;
}

}  // namespace loom::l0
