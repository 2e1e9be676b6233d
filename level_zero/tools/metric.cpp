#include "level_zero/tools/metric.h"

#include "level_zero/tools/metric_group.h"
#include "level_zero/two_call.h"
#include "level_zero/validation.h"

namespace loom::l0 {
zet_typed_value_t Metric::typedValue(uint64_t word) const {
  zet_typed_value_t value{};
  value.type = definition_.valueType;
  if (value.type == ZET_VALUE_TYPE_UINT32)
    value.value.ui32 = static_cast<uint32_t>(word);
  else
    value.value.ui64 = word;
  return value;
}

ze_result_t zetMetricGet(zet_metric_group_handle_t hMetricGroup, uint32_t* pCount, zet_metric_handle_t* phMetrics) {
  ZE_REQUIRE_HANDLE(hMetricGroup);
  ZE_REQUIRE_POINTER(pCount);
  return fillArray(MetricGroup::fromHandle(hMetricGroup)->metrics(), pCount, phMetrics,
                   [](zet_metric_handle_t& out, const std::unique_ptr<Metric>& metric) { out = metric.get(); });
}

ze_result_t zetMetricGetProperties(zet_metric_handle_t hMetric, zet_metric_properties_t* pProperties) {
  ZE_REQUIRE_HANDLE(hMetric);
  ZE_REQUIRE_POINTER(pProperties);
  const MetricDefinition& definition = Metric::fromHandle(hMetric)->definition();
  copyFixedString(pProperties->name, definition.name);
  copyFixedString(pProperties->description, definition.description);
  copyFixedString(pProperties->component, "Loom");
  pProperties->tierNumber = 1;
  pProperties->metricType = definition.type;
  pProperties->resultType = definition.valueType;
  copyFixedString(pProperties->resultUnits, definition.units);
  return ZE_RESULT_SUCCESS;
}

}  // namespace loom::l0
