#pragma once
// A device's metric groups, which of them are active (zetContextActivateMetricGroups), and
// whether a streamer is open on it: one at a time, as a device has one sampling unit.
#include <memory>
#include <mutex>
#include <vector>

#include "level_zero/tools/metric_group.h"

namespace loom::l0 {

class DeviceMetrics {
 public:
  explicit DeviceMetrics(Device& device) : groups_(MetricGroup::makeAll(device)) {}

  const std::vector<std::unique_ptr<MetricGroup>>& groups() const { return groups_; }
  // The groups active from now on, in place of those before (none: every group inactive).
  void activate(std::vector<const MetricGroup*> groups);
  bool isActive(const MetricGroup& group) const;
  // False while another streamer is open on the device.
  bool claimStreamer();
  void releaseStreamer();

 private:
  const std::vector<std::unique_ptr<MetricGroup>> groups_;
  mutable std::mutex mutex_;
  std::vector<const MetricGroup*> active_;
  bool streamerOpen_ = false;
};

}  // namespace loom::l0
