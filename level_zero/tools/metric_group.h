#pragma once
// Metric groups (zetMetricGroup*): what Loom measures of a device's work, the same on every
// backend since the command executors count it as they issue commands (core/work_counters.h).
//
// - "EngineWork" (event-based, domain 0): a metric query's begin and end bracket commands of a
//   command list; its report gives the device time between them (the query's timed event, as
//   kernel timestamps are timed) and the launches, work-groups, work-items, copied and filled
//   bytes that the device's queues issued in between.
// - "EngineActivity" (time-based, domain 1): a streamer samples the same counts at its period,
//   with the time of each sample, the interval before it and the last streamer marker passed.
//
// Raw data is a run of reports: a tag naming the group, then one 64-bit word per metric.
#include <level_zero/zet_api.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "level_zero/handle/handle.h"
#include "level_zero/tools/metric.h"
#include "loom/core/work_counters.h"

namespace loom::l0 {

class Device;

struct MetricGroupDefinition {
  const char* name;
  const char* description;
  zet_metric_group_sampling_type_flags_t samplingType;
  uint32_t domain;
  std::vector<MetricDefinition> metrics;
};

class MetricGroup : public _zet_metric_group_handle_t {
 public:
  MetricGroup(Device& device, const MetricGroupDefinition& definition);
  static MetricGroup* fromHandle(zet_metric_group_handle_t handle) { return static_cast<MetricGroup*>(handle); }
  // The groups every device has, in the order zetMetricGroupGet lists them.
  static std::vector<std::unique_ptr<MetricGroup>> makeAll(Device& device);

  Device& device() const { return device_; }
  const MetricGroupDefinition& definition() const { return definition_; }
  const std::vector<std::unique_ptr<Metric>>& metrics() const { return metrics_; }
  bool timeBased() const { return definition_.samplingType == ZET_METRIC_GROUP_SAMPLING_TYPE_FLAG_TIME_BASED; }

  size_t reportSize() const { return (1 + metrics_.size()) * sizeof(uint64_t); }
  // Writes one report of `words` (one per metric, in order) at `out`, which holds reportSize().
  void writeReport(const uint64_t* words, uint8_t* out) const;
  // How many whole reports of this group `raw` starts with: a buffer may be longer than the
  // reports a read put in it (zetMetricStreamerReadData sizes buffers for the most it can give).
  size_t reportsIn(const uint8_t* raw, size_t size) const;
  // zetMetricGroupCalculateMetricValues over the reports `raw` starts with.
  ze_result_t calculate(const char* function, zet_metric_group_calculation_type_t type, size_t size, const uint8_t* raw,
                        uint32_t* pCount, zet_typed_value_t* values) const;

 private:
  uint64_t reportTag() const;

  Device& device_;
  const MetricGroupDefinition& definition_;
  std::vector<std::unique_ptr<Metric>> metrics_;
};

// The words of the work counts in the groups' metric order.
constexpr size_t kWorkWords = 5;
void writeWorkWords(const core::WorkCounts& counts, uint64_t* words);

ze_result_t zetMetricGroupGet(zet_device_handle_t hDevice, uint32_t* pCount, zet_metric_group_handle_t* phMetricGroups);
ze_result_t zetMetricGroupGetProperties(zet_metric_group_handle_t hMetricGroup, zet_metric_group_properties_t* pProperties);
ze_result_t zetMetricGroupCalculateMetricValues(zet_metric_group_handle_t hMetricGroup, zet_metric_group_calculation_type_t type,
                                                size_t rawDataSize, const uint8_t* pRawData, uint32_t* pMetricValueCount,
                                                zet_typed_value_t* pMetricValues);
ze_result_t zetMetricGroupCalculateMultipleMetricValuesExp(zet_metric_group_handle_t hMetricGroup,
                                                           zet_metric_group_calculation_type_t type, size_t rawDataSize,
                                                           const uint8_t* pRawData, uint32_t* pSetCount,
                                                           uint32_t* pTotalMetricValueCount, uint32_t* pMetricCounts,
                                                           zet_typed_value_t* pMetricValues);
ze_result_t zetContextActivateMetricGroups(zet_context_handle_t hContext, zet_device_handle_t hDevice, uint32_t count,
                                           zet_metric_group_handle_t* phMetricGroups);

}  // namespace loom::l0
