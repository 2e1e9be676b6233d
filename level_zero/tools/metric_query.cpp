#include "level_zero/tools/metric_query.h"

#include <array>

#include "level_zero/cmdlist/command_list.h"
#include "level_zero/device/device.h"
#include "level_zero/tools/metric_group.h"
#include "level_zero/tools/metric_query_pool.h"
#include "level_zero/validation.h"

namespace loom::l0 {

MetricQuery::MetricQuery(MetricQueryPool& pool)
    : pool_(pool), event_(&storage_, false, pool.device().core().info().type) {}

void MetricQuery::encodeBegin(core::CommandStream& stream) {
  stream.appendMarkEventStart(&event_);
  stream.appendSampleWorkCounters(&begin_);
}

void MetricQuery::encodeEnd(core::CommandStream& stream) {
  stream.appendSampleWorkCounters(&end_);
  stream.appendSignalEvent(&event_);
}

ze_result_t MetricQuery::data(const char* function, size_t* size, uint8_t* raw) const {
  const MetricGroup& group = pool_.group();
  if (*size == 0 || raw == nullptr) {
    *size = group.reportSize();
    return ZE_RESULT_SUCCESS;
  }
  if (!event_.isSignaled()) return ZE_RESULT_NOT_READY;
  if (ze_result_t failed = deviceFailureResult(event_.error(), function); failed != ZE_RESULT_SUCCESS) return failed;
  if (*size < group.reportSize()) return reportError(ZE_RESULT_ERROR_INVALID_SIZE, function, "pRawDataSize is smaller than a report");
  const core::EventTimestamps times = event_.timestamps();
  std::array<uint64_t, 1 + kWorkWords> words{};
  words[0] = times.globalEnd > times.globalStart ? times.globalEnd - times.globalStart : 0;
  writeWorkWords(end_ - begin_, words.data() + 1);
  group.writeReport(words.data(), raw);
  *size = group.reportSize();
  return ZE_RESULT_SUCCESS;
}

ze_result_t zetMetricQueryCreate(zet_metric_query_pool_handle_t hMetricQueryPool, uint32_t index,
                                 zet_metric_query_handle_t* phMetricQuery) {
  ZE_REQUIRE_HANDLE(hMetricQueryPool);
  ZE_REQUIRE_POINTER(phMetricQuery);
  MetricQueryPool& pool = *MetricQueryPool::fromHandle(hMetricQueryPool);
  ZE_REQUIRE(index < pool.count(), ZE_RESULT_ERROR_INVALID_ARGUMENT, "index is not below the pool's count");
  auto* query = new MetricQuery(pool);
  pool.queries().add(query);
  *phMetricQuery = query;
  return ZE_RESULT_SUCCESS;
}

ze_result_t zetMetricQueryDestroy(zet_metric_query_handle_t hMetricQuery) {
  ZE_REQUIRE_HANDLE(hMetricQuery);
  MetricQuery* query = MetricQuery::fromHandle(hMetricQuery);
  query->pool().queries().destroyAfterSubmittedWork(query);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zetMetricQueryReset(zet_metric_query_handle_t hMetricQuery) {
  ZE_REQUIRE_HANDLE(hMetricQuery);
  MetricQuery::fromHandle(hMetricQuery)->reset();
  return ZE_RESULT_SUCCESS;
}

ze_result_t zetMetricQueryGetData(zet_metric_query_handle_t hMetricQuery, size_t* pRawDataSize, uint8_t* pRawData) {
  ZE_REQUIRE_HANDLE(hMetricQuery);
  ZE_REQUIRE_POINTER(pRawDataSize);
  return MetricQuery::fromHandle(hMetricQuery)->data(__func__, pRawDataSize, pRawData);
}

namespace {

ze_result_t checkQueryOnList(const char* function, const CommandList& list, const MetricQuery& query) {
  if (&query.pool().device() == &list.device()) return ZE_RESULT_SUCCESS;
  return reportError(ZE_RESULT_ERROR_INVALID_ARGUMENT, function, "the query's pool belongs to another device than the command list");
}

}  // namespace

ze_result_t zetCommandListAppendMetricQueryBegin(zet_command_list_handle_t hCommandList, zet_metric_query_handle_t hMetricQuery) {
  ZE_REQUIRE_HANDLE(hCommandList);
  ZE_REQUIRE_HANDLE(hMetricQuery);
  CommandList& list = *CommandList::fromHandle(hCommandList);
  MetricQuery& query = *MetricQuery::fromHandle(hMetricQuery);
  if (ze_result_t result = checkQueryOnList(__func__, list, query); result != ZE_RESULT_SUCCESS) return result;
  return list.append(__func__, nullptr, 0, nullptr, [&](core::CommandStream& stream) { query.encodeBegin(stream); });
}

ze_result_t zetCommandListAppendMetricQueryEnd(zet_command_list_handle_t hCommandList, zet_metric_query_handle_t hMetricQuery,
                                               ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
                                               ze_event_handle_t* phWaitEvents) {
  ZE_REQUIRE_HANDLE(hCommandList);
  ZE_REQUIRE_HANDLE(hMetricQuery);
  CommandList& list = *CommandList::fromHandle(hCommandList);
  MetricQuery& query = *MetricQuery::fromHandle(hMetricQuery);
  if (ze_result_t result = checkQueryOnList(__func__, list, query); result != ZE_RESULT_SUCCESS) return result;
  return list.append(__func__, hSignalEvent, numWaitEvents, phWaitEvents,
                     [&](core::CommandStream& stream) { query.encodeEnd(stream); });
}

// Loom's queues keep memory coherent in order (zeCommandListAppendBarrier's reasoning): what
// the commands before wrote is visible to those after.
ze_result_t zetCommandListAppendMetricMemoryBarrier(zet_command_list_handle_t hCommandList) {
  ZE_REQUIRE_HANDLE(hCommandList);
  return CommandList::fromHandle(hCommandList)
      ->append(__func__, nullptr, 0, nullptr, [](core::CommandStream& stream) { stream.appendBarrier(); });
}

}  // namespace loom::l0
