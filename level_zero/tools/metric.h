#pragma once
// One metric of a metric group (zetMetricGet, zetMetricGetProperties): what it counts and how
// its values read. Every value is one word of a group's report (metric_group.h).
#include <level_zero/zet_api.h>

#include <cstdint>

#include "level_zero/handle/handle.h"

namespace loom::l0 {

struct MetricDefinition {
  const char* name;
  const char* description;
  const char* units;
  zet_metric_type_t type;
  zet_value_type_t valueType;  // UINT32 or UINT64
};

class Metric : public _zet_metric_handle_t {
 public:
  explicit Metric(const MetricDefinition& definition) : definition_(definition) {}
  static Metric* fromHandle(zet_metric_handle_t handle) { return static_cast<Metric*>(handle); }

  const MetricDefinition& definition() const { return definition_; }
  // A report's word as the metric's value type.
  zet_typed_value_t typedValue(uint64_t word) const;

 private:
  const MetricDefinition& definition_;
};

ze_result_t zetMetricGet(zet_metric_group_handle_t hMetricGroup, uint32_t* pCount, zet_metric_handle_t* phMetrics);
ze_result_t zetMetricGetProperties(zet_metric_handle_t hMetric, zet_metric_properties_t* pProperties);

}  // namespace loom::l0
