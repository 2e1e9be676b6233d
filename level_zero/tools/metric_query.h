#pragma once
// A metric query of the "EngineWork" group (metric_group.h). Its begin marks the start of an
// event of its own and samples the device's work counters as the command is issued; its end
// samples them again and signals the event, whose timestamps time the commands in between as
// kernel timestamps are timed (on a GPU by the stream's own events). Its report is ready once
// the event is signaled.
#include <level_zero/zet_api.h>

#include <cstdint>

#include "level_zero/handle/handle.h"
#include "loom/core/command_stream.h"
#include "loom/core/event.h"
#include "loom/core/work_counters.h"

namespace loom::l0 {

class MetricQueryPool;

class MetricQuery : public _zet_metric_query_handle_t {
 public:
  explicit MetricQuery(MetricQueryPool& pool);
  static MetricQuery* fromHandle(zet_metric_query_handle_t handle) { return static_cast<MetricQuery*>(handle); }

  MetricQueryPool& pool() const { return pool_; }
  void encodeBegin(core::CommandStream& stream);
  void encodeEnd(core::CommandStream& stream);
  void reset() { event_.reset(); }
  // zetMetricQueryGetData: the report's size, or the report; ZE_RESULT_NOT_READY before the end ran.
  ze_result_t data(const char* function, size_t* size, uint8_t* raw) const;

 private:
  MetricQueryPool& pool_;
  core::EventStorage storage_;
  core::Event event_;
  core::WorkCounts begin_, end_;
};

ze_result_t zetMetricQueryCreate(zet_metric_query_pool_handle_t hMetricQueryPool, uint32_t index,
                                 zet_metric_query_handle_t* phMetricQuery);
ze_result_t zetMetricQueryDestroy(zet_metric_query_handle_t hMetricQuery);
ze_result_t zetMetricQueryReset(zet_metric_query_handle_t hMetricQuery);
ze_result_t zetMetricQueryGetData(zet_metric_query_handle_t hMetricQuery, size_t* pRawDataSize, uint8_t* pRawData);
ze_result_t zetCommandListAppendMetricQueryBegin(zet_command_list_handle_t hCommandList, zet_metric_query_handle_t hMetricQuery);
ze_result_t zetCommandListAppendMetricQueryEnd(zet_command_list_handle_t hCommandList, zet_metric_query_handle_t hMetricQuery,
                                               ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
                                               ze_event_handle_t* phWaitEvents);
ze_result_t zetCommandListAppendMetricMemoryBarrier(zet_command_list_handle_t hCommandList);

}  // namespace loom::l0
