#pragma once
// Metric groups (zetMetricGroup*): no backend of Loom has hardware counters to give, so every
// device has none. The other metric functions take metric handles, which Loom never makes.
#include <level_zero/zet_api.h>

namespace loom::l0 {

ze_result_t zetMetricGroupGet(zet_device_handle_t hDevice, uint32_t* pCount, zet_metric_group_handle_t* phMetricGroups);

}  // namespace loom::l0
