#include "level_zero/tools/device_metrics.h"

#include <algorithm>
#include <utility>

namespace loom::l0 {

void DeviceMetrics::activate(std::vector<const MetricGroup*> groups) {
  std::lock_guard lock(mutex_);
  active_ = std::move(groups);
}

bool DeviceMetrics::isActive(const MetricGroup& group) const {
  std::lock_guard lock(mutex_);
  return std::find(active_.begin(), active_.end(), &group) != active_.end();
}

bool DeviceMetrics::claimStreamer() {
  std::lock_guard lock(mutex_);
  return !std::exchange(streamerOpen_, true);
}

void DeviceMetrics::releaseStreamer() {
  std::lock_guard lock(mutex_);
  streamerOpen_ = false;
}

}  // namespace loom::l0
