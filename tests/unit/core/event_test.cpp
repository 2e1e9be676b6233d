#include "loom/core/event.h"

#include <gtest/gtest.h>

#include <thread>

#include "loom/core/futex.h"
#include "loom/core/spin_wait.h"

namespace loom::core {
namespace {

TEST(Event, StartsUnsignaledAndQueryDoesNotBlock) {
  EventStorage storage;
  Event event(&storage);
  EXPECT_FALSE(event.isSignaled());
  EXPECT_FALSE(event.hostSynchronize(0));
}

// One rule for how long host waiters spin: longer for a GPU's work, which keeps no core busy.
TEST(Event, WaitersForAGpusWorkSpinLongerThanForTheCpus) {
  EXPECT_GT(waitSpinNanoseconds(DeviceType::Gpu), waitSpinNanoseconds(DeviceType::Cpu));
  EventStorage storage;
  EXPECT_EQ(Event(&storage).work(), DeviceType::Cpu);
  EXPECT_EQ(Event(&storage, false, DeviceType::Gpu).work(), DeviceType::Gpu);
}

TEST(Event, HostSynchronizeTimesOutAfterRoughlyTheTimeout) {
  EventStorage storage;
  Event event(&storage);
  const uint64_t start = monotonicNanoseconds();
  EXPECT_FALSE(event.hostSynchronize(20'000'000));
  EXPECT_GE(monotonicNanoseconds() - start, 20'000'000u);
}

TEST(Event, SignalFromAnotherThreadWakesTheWaiter) {
  EventStorage storage;
  Event event(&storage);
  std::thread signaler([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    event.signal(1234);
  });
  EXPECT_TRUE(event.hostSynchronize(UINT64_MAX));
  signaler.join();
  EXPECT_EQ(event.timestamps().globalEnd, 1234u);
}

TEST(Event, ResetClearsStateAndTimestamps) {
  EventStorage storage;
  Event event(&storage);
  event.markStart(5);
  event.signal(9);
  event.reset();
  EXPECT_FALSE(event.isSignaled());
  EXPECT_EQ(event.timestamps().globalStart, 0u);
  EXPECT_EQ(event.timestamps().contextEnd, 0u);
}

}  // namespace
}  // namespace loom::core
