// Cooperative launches on the CPU backend: every group runs at once, however few threads the
// pool has, so that groups may wait for each other.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>

#include "backends/cpu/cpu_backend.h"
#include "backends/cpu/cpu_program.h"

namespace loom::backends::cpu {
namespace {

struct GridBarrierArguments {
  std::atomic<uint32_t>* arrived;
  uint32_t groups;
};

// A kernel written by hand in the work-group function ABI: each group arrives at a grid barrier
// and waits there for all the others.
void waitForEveryGroup(const void* argumentBuffer, const compiler::WorkGroupContext* context) {
  const auto* arguments = static_cast<const GridBarrierArguments*>(argumentBuffer);
  for (uint32_t run = 0; run < context->groupRun; ++run) {
    arguments->arrived->fetch_add(1);
    while (arguments->arrived->load() < arguments->groups) {
    }
  }
}

// Launches `groups` groups of waitForEveryGroup on a backend whose pool has one thread; exits 0
// when every group passed the barrier. A launch still running after `seconds` ends in SIGALRM.
void launchAGridBarrierOnOneThread(uint32_t groups, bool cooperative, unsigned seconds) {
  alarm(seconds);
  CpuBackend backend(describeHostCpu(), 1);
  CpuKernel kernel{waitForEveryGroup, nullptr};
  compiler::KernelDescriptor descriptor;
  std::atomic<uint32_t> arrived{0};
  GridBarrierArguments arguments{&arrived, groups};
  core::KernelLaunch launch;
  launch.kernel = &kernel;
  launch.descriptor = &descriptor;
  launch.argumentSize = sizeof(arguments);
  launch.workDim = 1;
  launch.groupCount[0] = groups;
  launch.globalSize[0] = groups;
  launch.cooperative = cooperative;
  const bool ran = backend.runKernel(launch, reinterpret_cast<const uint8_t*>(&arguments));
  _exit(ran && arrived.load() == groups ? 0 : 1);
}

TEST(CpuCooperativeLaunch, EveryGroupRunsAtOnceOnAPoolOfOneThread) {
  EXPECT_EXIT(launchAGridBarrierOnOneThread(16, true, 10), ::testing::ExitedWithCode(0), "");
}

TEST(CpuCooperativeLaunch, ALaunchOfNoGroupsRunsNothing) {
  EXPECT_EXIT(launchAGridBarrierOnOneThread(0, true, 10), ::testing::ExitedWithCode(0), "");
}

// What the cooperative flag changes: without it, the pool's one thread runs the groups one after
// another, and the first waits forever.
TEST(CpuCooperativeLaunch, AnOrdinaryLaunchRunsItsGroupsOneAfterAnother) {
  EXPECT_EXIT(launchAGridBarrierOnOneThread(16, false, 2), ::testing::KilledBySignal(SIGALRM), "");
}

}  // namespace
}  // namespace loom::backends::cpu
