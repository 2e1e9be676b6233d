#include "loom/core/allocation_limits.h"

#include <gtest/gtest.h>

#include <vector>

namespace loom::core {
namespace {

DeviceInfo deviceWith(uint64_t maxAllocationSize, uint64_t memory) {
  DeviceInfo info;
  info.maxAllocationSize = maxAllocationSize;
  info.globalMemorySize = memory;
  return info;
}

TEST(AllocationLimits, OneDevicesAllocationFitsItsMaximum) {
  const DeviceInfo gpu = deviceWith(20 << 20, 80 << 20);
  EXPECT_EQ(allocationLimit(gpu), uint64_t(20 << 20));
  EXPECT_EQ(allocationLimit(gpu, true), uint64_t(80 << 20)) << "relaxed limits: all of the device's memory";
}

TEST(AllocationLimits, AContextsAllocationFitsEachOfItsDevices) {
  const DeviceInfo cpu = deviceWith(64 << 20, 128 << 20), gpu = deviceWith(20 << 20, 80 << 20);
  const std::vector<const DeviceInfo*> both{&cpu, &gpu}, reversed{&gpu, &cpu};
  EXPECT_EQ(allocationLimit(both), uint64_t(20 << 20)) << "the smallest maximum, not the first device's nor the largest";
  EXPECT_EQ(allocationLimit(reversed), uint64_t(20 << 20));
  EXPECT_EQ(allocationLimit(both, true), uint64_t(80 << 20));
  EXPECT_EQ(allocationLimit(std::vector<const DeviceInfo*>{}), 0u);
}

}  // namespace
}  // namespace loom::core
