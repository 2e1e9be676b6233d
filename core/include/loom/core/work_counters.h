#pragma once
// What a device's queues issued in this process: kernel launches, their work-groups and
// work-items, bytes copied and filled, counted by the command executors as they issue each
// command, and the last streamer marker the device's work passed. Level Zero's metric groups
// (level_zero/tools) read them: a query compares two samples taken in its command list, a
// streamer samples them at its period.
#include <atomic>
#include <cstdint>

namespace loom::core {

struct KernelLaunch;

// One sample of the counters, or the difference of two.
struct WorkCounts {
  uint64_t kernelLaunches = 0;
  uint64_t workGroups = 0;
  uint64_t workItems = 0;
  uint64_t copiedBytes = 0;
  uint64_t filledBytes = 0;

  WorkCounts operator-(const WorkCounts& earlier) const {
    return {kernelLaunches - earlier.kernelLaunches, workGroups - earlier.workGroups, workItems - earlier.workItems,
            copiedBytes - earlier.copiedBytes, filledBytes - earlier.filledBytes};
  }
};

class WorkCounters {
 public:
  void countLaunch(const KernelLaunch& launch);
  void countCopy(uint64_t bytes) { copiedBytes_.fetch_add(bytes, std::memory_order_relaxed); }
  void countFill(uint64_t bytes) { filledBytes_.fetch_add(bytes, std::memory_order_relaxed); }
  WorkCounts sample() const;

  // zetCommandListAppendMetricStreamerMarker's value, written when the work before it is done.
  void passMarker(uint32_t value) { marker_.store(value, std::memory_order_release); }
  uint32_t lastMarker() const { return marker_.load(std::memory_order_acquire); }

 private:
  std::atomic<uint64_t> kernelLaunches_{0}, workGroups_{0}, workItems_{0}, copiedBytes_{0}, filledBytes_{0};
  std::atomic<uint32_t> marker_{0};
};

}  // namespace loom::core
