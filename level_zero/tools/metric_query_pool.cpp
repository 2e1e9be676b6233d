#include "level_zero/tools/metric_query_pool.h"

#include "level_zero/context/context.h"
#include "level_zero/device/device.h"
#include "level_zero/tools/metric_group.h"
#include "level_zero/tools/metric_query.h"
#include "level_zero/validation.h"
#include "loom/core/runtime.h"

namespace loom::l0 {

MetricQueryPool::~MetricQueryPool() = default;

ze_result_t zetMetricQueryPoolCreate(zet_context_handle_t hContext, zet_device_handle_t hDevice, zet_metric_group_handle_t hMetricGroup,
                                     const zet_metric_query_pool_desc_t* desc, zet_metric_query_pool_handle_t* phMetricQueryPool) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_HANDLE(hDevice);
  ZE_REQUIRE_HANDLE(hMetricGroup);
  ZE_REQUIRE_POINTER(desc);
  ZE_REQUIRE_POINTER(phMetricQueryPool);
  ZE_REQUIRE_DESCRIPTOR(desc, static_cast<ze_structure_type_t>(ZET_STRUCTURE_TYPE_METRIC_QUERY_POOL_DESC));
  ZE_REQUIRE(desc->type <= ZET_METRIC_QUERY_POOL_TYPE_EXECUTION, ZE_RESULT_ERROR_INVALID_ENUMERATION, "unknown query pool type");
  ZE_REQUIRE(desc->type == ZET_METRIC_QUERY_POOL_TYPE_PERFORMANCE, ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION,
             "execution query pools (Intel's pipeline-statistics queries) are not supported; performance pools are");
  ZE_REQUIRE(desc->count > 0, ZE_RESULT_ERROR_INVALID_SIZE, "desc->count is 0");
  Device& device = *Device::fromHandle(hDevice);
  const MetricGroup& group = *MetricGroup::fromHandle(hMetricGroup);
  ZE_REQUIRE(Context::fromHandle(hContext)->contains(device), ZE_RESULT_ERROR_INVALID_ARGUMENT, "the context does not hold hDevice");
  ZE_REQUIRE(&group.device() == &device, ZE_RESULT_ERROR_INVALID_ARGUMENT, "the metric group belongs to another device");
  ZE_REQUIRE(!group.timeBased(), ZE_RESULT_ERROR_INVALID_ARGUMENT, "queries take an event-based metric group; this one is time-based");
  *phMetricQueryPool = new MetricQueryPool(device, group, desc->count);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zetMetricQueryPoolDestroy(zet_metric_query_pool_handle_t hMetricQueryPool) {
  ZE_REQUIRE_HANDLE(hMetricQueryPool);
  MetricQueryPool* pool = MetricQueryPool::fromHandle(hMetricQueryPool);
  pool->retireHandle();
  pool->queries().retireAll();
  // Command lists in flight may still write the pool's queries: they go with the pool.
  core::Runtime::get().releaseAfterSubmittedWork([pool] { delete pool; });
  return ZE_RESULT_SUCCESS;
}

}  // namespace loom::l0
