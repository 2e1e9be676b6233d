#pragma once
// A pool of metric queries of one event-based metric group (zetMetricQueryPoolCreate). Destroying
// the pool destroys the queries the application left, once the work in flight is done with them.
#include <level_zero/zet_api.h>

#include <cstdint>

#include "level_zero/handle/handle.h"

namespace loom::l0 {

class Device;
class MetricGroup;
class MetricQuery;

class MetricQueryPool : public _zet_metric_query_pool_handle_t {
 public:
  MetricQueryPool(Device& device, const MetricGroup& group, uint32_t count) : device_(device), group_(group), count_(count) {}
  ~MetricQueryPool();
  static MetricQueryPool* fromHandle(zet_metric_query_pool_handle_t handle) { return static_cast<MetricQueryPool*>(handle); }

  Device& device() const { return device_; }
  const MetricGroup& group() const { return group_; }
  uint32_t count() const { return count_; }
  ChildHandles<MetricQuery>& queries() { return queries_; }

 private:
  Device& device_;
  const MetricGroup& group_;
  const uint32_t count_;
  ChildHandles<MetricQuery> queries_;
};

ze_result_t zetMetricQueryPoolCreate(zet_context_handle_t hContext, zet_device_handle_t hDevice, zet_metric_group_handle_t hMetricGroup,
                                     const zet_metric_query_pool_desc_t* desc, zet_metric_query_pool_handle_t* phMetricQueryPool);
ze_result_t zetMetricQueryPoolDestroy(zet_metric_query_pool_handle_t hMetricQueryPool);

}  // namespace loom::l0
