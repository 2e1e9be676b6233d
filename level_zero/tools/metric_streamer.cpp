#include "level_zero/tools/metric_streamer.h"

#include <algorithm>
#include <chrono>

#include "level_zero/cmdlist/command_list.h"
#include "level_zero/context/context.h"
#include "level_zero/device/device.h"
#include "level_zero/event/event_pool.h"
#include "level_zero/tools/device_metrics.h"
#include "level_zero/tools/metric_group.h"
#include "level_zero/validation.h"

namespace loom::l0 {
namespace {

core::Backend& backendOf(Device& device) { return device.core().backend(); }

}  // namespace

MetricStreamer::MetricStreamer(Device& device, const MetricGroup& group, uint32_t notifyEveryNReports, uint32_t periodNs,
                               ze_event_handle_t notification)
    : device_(device),
      group_(group),
      notifyEvery_(notifyEveryNReports),
      periodNs_(periodNs),
      notification_(notification),
      lastTime_(backendOf(device).timestamp()),
      lastCounts_(backendOf(device).workCounters().sample()),
      sampler_([this] { sampleUntilClosed(); }) {}

MetricStreamer::~MetricStreamer() {
  {
    std::lock_guard lock(mutex_);
    closed_ = true;
  }
  closing_.notify_all();
  sampler_.join();
}

void MetricStreamer::sampleUntilClosed() {
  std::unique_lock lock(mutex_);
  auto next = std::chrono::steady_clock::now();
  while (!closed_) {
    next += std::chrono::nanoseconds(periodNs_);
    if (closing_.wait_until(lock, next, [this] { return closed_; })) return;
    sample();
  }
}

// Words in the group's order: the time, the interval, the work counts in it, the last marker.
void MetricStreamer::sample() {
  core::Backend& backend = backendOf(device_);
  const uint64_t now = backend.timestamp();
  const core::WorkCounts counts = backend.workCounters().sample();
  std::vector<uint64_t> words(3 + kWorkWords);
  words[0] = now;
  words[1] = now - lastTime_;
  writeWorkWords(counts - lastCounts_, words.data() + 2);
  words[2 + kWorkWords] = backend.workCounters().lastMarker();
  lastTime_ = now;
  lastCounts_ = counts;
  if (reports_.size() == kCapacity) {
    reports_.pop_front();
    dropped_ = true;
  }
  reports_.push_back(std::move(words));
  if (reports_.size() < notifyEvery_ || notified_ || notification_ == nullptr) return;
  notified_ = true;
  // The application may have destroyed the event (it must not): then nobody waits for it.
  if (HandleObject::isLive(notification_, HandleKind::Event)) l0::zeEventHostSignal(notification_);
}

ze_result_t MetricStreamer::read(uint32_t maxReports, size_t* size, uint8_t* raw) {
  const size_t reportSize = group_.reportSize();
  if (*size == 0 || raw == nullptr) {
    *size = std::min(maxReports, kCapacity) * reportSize;
    return ZE_RESULT_SUCCESS;
  }
  std::lock_guard lock(mutex_);
  const size_t count = std::min({size_t(maxReports), *size / reportSize, reports_.size()});
  for (size_t i = 0; i < count; ++i) {
    group_.writeReport(reports_.front().data(), raw + i * reportSize);
    reports_.pop_front();
  }
  *size = count * reportSize;
  notified_ = reports_.size() >= notifyEvery_ && notified_;
  return std::exchange(dropped_, false) ? ZE_RESULT_WARNING_DROPPED_DATA : ZE_RESULT_SUCCESS;
}

ze_result_t zetMetricStreamerOpen(zet_context_handle_t hContext, zet_device_handle_t hDevice, zet_metric_group_handle_t hMetricGroup,
                                  zet_metric_streamer_desc_t* desc, ze_event_handle_t hNotificationEvent,
                                  zet_metric_streamer_handle_t* phMetricStreamer) {
  ZE_REQUIRE_HANDLE(hContext);
  ZE_REQUIRE_HANDLE(hDevice);
  ZE_REQUIRE_HANDLE(hMetricGroup);
  ZE_REQUIRE_POINTER(desc);
  ZE_REQUIRE_POINTER(phMetricStreamer);
  ZE_REQUIRE_DESCRIPTOR(desc, static_cast<ze_structure_type_t>(ZET_STRUCTURE_TYPE_METRIC_STREAMER_DESC));
  Device& device = *Device::fromHandle(hDevice);
  const MetricGroup& group = *MetricGroup::fromHandle(hMetricGroup);
  ZE_REQUIRE(Context::fromHandle(hContext)->contains(device), ZE_RESULT_ERROR_INVALID_ARGUMENT, "the context does not hold hDevice");
  ZE_REQUIRE(&group.device() == &device, ZE_RESULT_ERROR_INVALID_ARGUMENT, "the metric group belongs to another device");
  ZE_REQUIRE(group.timeBased(), ZE_RESULT_ERROR_INVALID_ARGUMENT, "streamers take a time-based metric group; this one is event-based");
  ZE_REQUIRE(device.metrics().isActive(group), ZE_RESULT_ERROR_INVALID_ARGUMENT,
             "the metric group is not active on the device (zetContextActivateMetricGroups)");
  ZE_REQUIRE(device.metrics().claimStreamer(), ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE, "a streamer is open on the device already");
  // Both are [in,out]: the values the streamer works with go back.
  desc->notifyEveryNReports = std::clamp(desc->notifyEveryNReports, 1u, MetricStreamer::kCapacity);
  desc->samplingPeriod = std::max(desc->samplingPeriod, MetricStreamer::kMinimumPeriodNs);
  *phMetricStreamer = new MetricStreamer(device, group, desc->notifyEveryNReports, desc->samplingPeriod, hNotificationEvent);
  return ZE_RESULT_SUCCESS;
}

ze_result_t zetMetricStreamerClose(zet_metric_streamer_handle_t hMetricStreamer) {
  ZE_REQUIRE_HANDLE(hMetricStreamer);
  MetricStreamer* streamer = MetricStreamer::fromHandle(hMetricStreamer);
  Device& device = streamer->device();
  delete streamer;
  device.metrics().releaseStreamer();
  return ZE_RESULT_SUCCESS;
}

ze_result_t zetMetricStreamerReadData(zet_metric_streamer_handle_t hMetricStreamer, uint32_t maxReportCount, size_t* pRawDataSize,
                                      uint8_t* pRawData) {
  ZE_REQUIRE_HANDLE(hMetricStreamer);
  ZE_REQUIRE_POINTER(pRawDataSize);
  return MetricStreamer::fromHandle(hMetricStreamer)->read(maxReportCount, pRawDataSize, pRawData);
}

// The marker passes once the work before it is done; reports sampled after carry it.
ze_result_t zetCommandListAppendMetricStreamerMarker(zet_command_list_handle_t hCommandList,
                                                     zet_metric_streamer_handle_t hMetricStreamer, uint32_t value) {
  ZE_REQUIRE_HANDLE(hCommandList);
  ZE_REQUIRE_HANDLE(hMetricStreamer);
  CommandList& list = *CommandList::fromHandle(hCommandList);
  ZE_REQUIRE(&MetricStreamer::fromHandle(hMetricStreamer)->device() == &list.device(), ZE_RESULT_ERROR_INVALID_ARGUMENT,
             "the streamer is open on another device than the command list");
  return list.append(__func__, nullptr, 0, nullptr, [&](core::CommandStream& stream) { stream.appendPassStreamerMarker(value); });
}

}  // namespace loom::l0
