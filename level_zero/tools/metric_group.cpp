#include "level_zero/tools/metric_group.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "level_zero/context/context.h"
#include "level_zero/device/device.h"
#include "level_zero/tools/device_metrics.h"
#include "level_zero/two_call.h"
#include "level_zero/validation.h"

namespace loom::l0 {
namespace {

// The work counts, in writeWorkWords' order.
const MetricDefinition kWorkMetrics[kWorkWords] = {
    {"KernelLaunches", "Kernel launches the device's queues issued", "launches", ZET_METRIC_TYPE_EVENT, ZET_VALUE_TYPE_UINT64},
    {"WorkGroups", "Work-groups of those launches", "groups", ZET_METRIC_TYPE_EVENT, ZET_VALUE_TYPE_UINT64},
    {"WorkItems", "Work-items of those launches", "work-items", ZET_METRIC_TYPE_EVENT, ZET_VALUE_TYPE_UINT64},
    {"CopiedBytes", "Bytes of the copies the device's queues issued", "bytes", ZET_METRIC_TYPE_EVENT, ZET_VALUE_TYPE_UINT64},
    {"FilledBytes", "Bytes of the fills the device's queues issued", "bytes", ZET_METRIC_TYPE_EVENT, ZET_VALUE_TYPE_UINT64},
};

std::vector<MetricDefinition> withWorkMetrics(std::vector<MetricDefinition> before, std::vector<MetricDefinition> after) {
  before.insert(before.end(), std::begin(kWorkMetrics), std::end(kWorkMetrics));
  before.insert(before.end(), after.begin(), after.end());
  return before;
}

const MetricGroupDefinition& engineWork() {
  static const MetricGroupDefinition group{
      "EngineWork", "The device's work between a metric query's begin and end", ZET_METRIC_GROUP_SAMPLING_TYPE_FLAG_EVENT_BASED, 0,
      withWorkMetrics({{"Time", "Device time from the query's begin to its end", "ns", ZET_METRIC_TYPE_DURATION,
                        ZET_VALUE_TYPE_UINT64}},
                      {})};
  return group;
}

const MetricGroupDefinition& engineActivity() {
  static const MetricGroupDefinition group{
      "EngineActivity", "The device's work in each sampling period of a metric streamer",
      ZET_METRIC_GROUP_SAMPLING_TYPE_FLAG_TIME_BASED, 1,
      withWorkMetrics({{"Timestamp", "Device time of the sample", "ns", ZET_METRIC_TYPE_TIMESTAMP, ZET_VALUE_TYPE_UINT64},
                       {"Interval", "Device time since the sample before", "ns", ZET_METRIC_TYPE_DURATION, ZET_VALUE_TYPE_UINT64}},
                      {{"StreamerMarker", "The last streamer marker the device's work passed", "marker", ZET_METRIC_TYPE_RAW,
                        ZET_VALUE_TYPE_UINT32}})};
  return group;
}

// "loomrp" and the group's domain: raw data of one group never passes for another's.
constexpr uint64_t kReportTagBase = 0x6c6f6f6d72700000;

}  // namespace

void writeWorkWords(const core::WorkCounts& counts, uint64_t* words) {
  const uint64_t values[kWorkWords] = {counts.kernelLaunches, counts.workGroups, counts.workItems, counts.copiedBytes,
                                       counts.filledBytes};
  std::copy(std::begin(values), std::end(values), words);
}

MetricGroup::MetricGroup(Device& device, const MetricGroupDefinition& definition) : device_(device), definition_(definition) {
  for (const MetricDefinition& metric : definition.metrics) metrics_.push_back(std::make_unique<Metric>(metric));
}

std::vector<std::unique_ptr<MetricGroup>> MetricGroup::makeAll(Device& device) {
  std::vector<std::unique_ptr<MetricGroup>> groups;
  groups.push_back(std::make_unique<MetricGroup>(device, engineWork()));
  groups.push_back(std::make_unique<MetricGroup>(device, engineActivity()));
  return groups;
}

uint64_t MetricGroup::reportTag() const { return kReportTagBase | definition_.domain; }

void MetricGroup::writeReport(const uint64_t* words, uint8_t* out) const {
  const uint64_t tag = reportTag();
  std::memcpy(out, &tag, sizeof(tag));
  std::memcpy(out + sizeof(tag), words, metrics_.size() * sizeof(uint64_t));
}

size_t MetricGroup::reportsIn(const uint8_t* raw, size_t size) const {
  size_t reports = 0;
  for (; (reports + 1) * reportSize() <= size; ++reports) {
    uint64_t tag;
    std::memcpy(&tag, raw + reports * reportSize(), sizeof(tag));
    if (tag != reportTag()) break;
  }
  return reports;
}

ze_result_t MetricGroup::calculate(const char* function, zet_metric_group_calculation_type_t type, size_t size,
                                   const uint8_t* raw, uint32_t* pCount, zet_typed_value_t* values) const {
  if (type > ZET_METRIC_GROUP_CALCULATION_TYPE_MAX_METRIC_VALUES)
    return reportError(ZE_RESULT_ERROR_INVALID_ENUMERATION, function, "unknown calculation type");
  const size_t reports = reportsIn(raw, size);
  if (reports == 0)
    return reportError(ZE_RESULT_ERROR_INVALID_ARGUMENT, function,
                       ("the raw data holds no report of metric group " + std::string(definition_.name)).c_str());
  // Each report's words after its tag; for the maximum, one set of each metric's largest.
  std::vector<uint64_t> words;
  for (size_t report = 0; report < reports; ++report) {
    const uint8_t* at = raw + report * reportSize() + sizeof(uint64_t);
    for (size_t metric = 0; metric < metrics_.size(); ++metric) {
      uint64_t word;
      std::memcpy(&word, at + metric * sizeof(uint64_t), sizeof(word));
      if (type == ZET_METRIC_GROUP_CALCULATION_TYPE_MAX_METRIC_VALUES && report > 0)
        words[metric] = std::max(words[metric], word);
      else
        words.push_back(word);
    }
  }
  const uint32_t available = static_cast<uint32_t>(words.size());
  if (*pCount == 0 || values == nullptr) {
    *pCount = available;
    return ZE_RESULT_SUCCESS;
  }
  *pCount = std::min(*pCount, available);
  for (uint32_t i = 0; i < *pCount; ++i) values[i] = metrics_[i % metrics_.size()]->typedValue(words[i]);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zetMetricGroupGet(zet_device_handle_t hDevice, uint32_t* pCount, zet_metric_group_handle_t* phMetricGroups) {
  ZE_REQUIRE_HANDLE(hDevice);
  ZE_REQUIRE_POINTER(pCount);
  return fillArray(Device::fromHandle(hDevice)->metrics().groups(), pCount, phMetricGroups,
                   [](zet_metric_group_handle_t& out, const std::unique_ptr<MetricGroup>& group) { out = group.get(); });
}

ze_result_t zetMetricGroupGetProperties(zet_metric_group_handle_t hMetricGroup, zet_metric_group_properties_t* pProperties) {
  ZE_REQUIRE_HANDLE(hMetricGroup);
  ZE_REQUIRE_POINTER(pProperties);
  const MetricGroup& group = *MetricGroup::fromHandle(hMetricGroup);
  copyFixedString(pProperties->name, group.definition().name);
  copyFixedString(pProperties->description, group.definition().description);
  pProperties->samplingType = group.definition().samplingType;
  pProperties->domain = group.definition().domain;
  pProperties->metricCount = static_cast<uint32_t>(group.metrics().size());
  return ZE_RESULT_SUCCESS;
}

ze_result_t zetMetricGroupCalculateMetricValues(zet_metric_group_handle_t hMetricGroup, zet_metric_group_calculation_type_t type,
                                                size_t rawDataSize, const uint8_t* pRawData, uint32_t* pMetricValueCount,
                                                zet_typed_value_t* pMetricValues) {
  ZE_REQUIRE_HANDLE(hMetricGroup);
  ZE_REQUIRE_POINTER(pRawData);
  ZE_REQUIRE_POINTER(pMetricValueCount);
  return MetricGroup::fromHandle(hMetricGroup)->calculate(__func__, type, rawDataSize, pRawData, pMetricValueCount, pMetricValues);
}

// Loom's raw data holds one set: the device's own (a root's counts are those of its own queues).
ze_result_t zetMetricGroupCalculateMultipleMetricValuesExp(zet_metric_group_handle_t hMetricGroup,
                                                           zet_metric_group_calculation_type_t type, size_t rawDataSize,
                                                           const uint8_t* pRawData, uint32_t* pSetCount,
                                                           uint32_t* pTotalMetricValueCount, uint32_t* pMetricCounts,
                                                           zet_typed_value_t* pMetricValues) {
  ZE_REQUIRE_HANDLE(hMetricGroup);
  ZE_REQUIRE_POINTER(pRawData);
  ZE_REQUIRE_POINTER(pSetCount);
  ZE_REQUIRE_POINTER(pTotalMetricValueCount);
  const bool onlyCounting = *pSetCount == 0 || *pTotalMetricValueCount == 0 || pMetricCounts == nullptr || pMetricValues == nullptr;
  uint32_t count = onlyCounting ? 0 : *pTotalMetricValueCount;
  const ze_result_t result = MetricGroup::fromHandle(hMetricGroup)
                                 ->calculate(__func__, type, rawDataSize, pRawData, &count, onlyCounting ? nullptr : pMetricValues);
  if (result != ZE_RESULT_SUCCESS) return result;
  *pSetCount = 1;
  *pTotalMetricValueCount = count;
  if (!onlyCounting) pMetricCounts[0] = count;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zetContextActivateMetricGroups(zet_context_handle_t hContext, zet_device_handle_t hDevice, uint32_t count,
                                           zet_metric_group_handle_t* phMetricGroups) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_HANDLE(hDevice);
  ZE_REQUIRE(count == 0 || phMetricGroups != nullptr, ZE_RESULT_ERROR_INVALID_SIZE, "phMetricGroups is null and count is not 0");
  Device& device = *Device::fromHandle(hDevice);
  ZE_REQUIRE(Context::fromHandle(hContext)->contains(device), ZE_RESULT_ERROR_INVALID_ARGUMENT, "the context does not hold hDevice");
  ZE_REQUIRE_HANDLES(count, phMetricGroups);
  std::vector<const MetricGroup*> groups;
  for (uint32_t i = 0; i < count; ++i) {
    const MetricGroup* group = MetricGroup::fromHandle(phMetricGroups[i]);
    ZE_REQUIRE(&group->device() == &device, ZE_RESULT_ERROR_INVALID_ARGUMENT, "a metric group belongs to another device");
    const bool sharesDomain = std::any_of(groups.begin(), groups.end(), [&](const MetricGroup* other) {
      return other->definition().domain == group->definition().domain;
    });
    ZE_REQUIRE(!sharesDomain, ZE_RESULT_ERROR_INVALID_ARGUMENT, "two metric groups share a domain");
    groups.push_back(group);
  }
  device.metrics().activate(std::move(groups));
  return ZE_RESULT_SUCCESS;
}

}  // namespace loom::l0
