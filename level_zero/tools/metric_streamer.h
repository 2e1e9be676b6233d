#pragma once
// A metric streamer of the "EngineActivity" group (metric_group.h): a thread of its own samples
// the device's work counters at the sampling period and keeps the reports until they are read,
// the oldest dropped when more than kCapacity wait (the next read then warns of it). Once
// notifyEveryNReports unread reports wait, it signals the notification event, once until the
// next read.
#include <level_zero/zet_api.h>

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "level_zero/handle/handle.h"
#include "loom/core/work_counters.h"

namespace loom::l0 {

class Device;
class MetricGroup;

class MetricStreamer : public _zet_metric_streamer_handle_t {
 public:
  static constexpr uint32_t kCapacity = 1u << 16;         // reports kept unread
  static constexpr uint32_t kMinimumPeriodNs = 100'000;  // 10 kHz: the thread's wake-ups stay cheap

  MetricStreamer(Device& device, const MetricGroup& group, uint32_t notifyEveryNReports, uint32_t periodNs,
                 ze_event_handle_t notification);
  ~MetricStreamer();
  static MetricStreamer* fromHandle(zet_metric_streamer_handle_t handle) { return static_cast<MetricStreamer*>(handle); }

  Device& device() const { return device_; }
  // zetMetricStreamerReadData: with no buffer, the size of the most that reading `maxReports`
  // can give (as the model runtime answers, so that one buffer of that size always suffices);
  // else up to `maxReports` of the waiting reports, oldest first, that fit in *size bytes.
  ze_result_t read(uint32_t maxReports, size_t* size, uint8_t* raw);

 private:
  void sampleUntilClosed();
  void sample();

  Device& device_;
  const MetricGroup& group_;
  const uint32_t notifyEvery_;
  const uint32_t periodNs_;
  const ze_event_handle_t notification_;
  std::mutex mutex_;
  std::condition_variable closing_;
  bool closed_ = false;
  std::deque<std::vector<uint64_t>> reports_;  // each report's words, one per metric
  bool dropped_ = false;
  bool notified_ = false;
  uint64_t lastTime_;
  core::WorkCounts lastCounts_;
  std::thread sampler_;
};

ze_result_t zetMetricStreamerOpen(zet_context_handle_t hContext, zet_device_handle_t hDevice, zet_metric_group_handle_t hMetricGroup,
                                  zet_metric_streamer_desc_t* desc, ze_event_handle_t hNotificationEvent,
                                  zet_metric_streamer_handle_t* phMetricStreamer);
ze_result_t zetMetricStreamerClose(zet_metric_streamer_handle_t hMetricStreamer);
ze_result_t zetMetricStreamerReadData(zet_metric_streamer_handle_t hMetricStreamer, uint32_t maxReportCount, size_t* pRawDataSize,
                                      uint8_t* pRawData);
ze_result_t zetCommandListAppendMetricStreamerMarker(zet_command_list_handle_t hCommandList,
                                                     zet_metric_streamer_handle_t hMetricStreamer, uint32_t value);

}  // namespace loom::l0
