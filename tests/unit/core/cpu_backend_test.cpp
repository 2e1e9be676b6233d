#include "backends/cpu/cpu_backend.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <numeric>

#include "backends/cpu/cpu_program.h"
#include "loom/core/event.h"

namespace loom::backends::cpu {
namespace {

TEST(CpuBackend, FillRepeatsEveryPatternSizeAndTruncatesTheLastCopy) {
  CpuBackend backend(describeHostCpu(), 1);
  for (size_t patternSize = 1; patternSize <= 128; patternSize *= 2) {
    std::vector<uint8_t> pattern(patternSize);
    std::iota(pattern.begin(), pattern.end(), 1);
    for (size_t size : {size_t(0), size_t(1), patternSize, 3 * patternSize + 1, size_t(4099), size_t(3 << 20) + 5}) {
      std::vector<uint8_t> storage(size + 8, 0xee);
      uint8_t* buffer = storage.data() + 3;  // unaligned, so the streaming fill's head is exercised
      backend.fill(buffer, pattern.data(), patternSize, size);
      for (size_t i = 0; i < size; ++i) ASSERT_EQ(buffer[i], pattern[i % patternSize]) << patternSize << " " << size;
      EXPECT_EQ(buffer[size], 0xee) << "wrote past the end";
    }
  }
}

TEST(CpuBackend, DescribesTheHostTruthfully) {
  const core::DeviceInfo info = describeHostCpu();
  EXPECT_EQ(info.type, core::DeviceType::Cpu);
  EXPECT_FALSE(info.name.empty());
  EXPECT_GE(info.computeUnits, 1u);
  EXPECT_GT(info.globalMemorySize, 0u);
  EXPECT_TRUE(info.simdWidth == 4 || info.simdWidth == 8 || info.simdWidth == 16);
  EXPECT_EQ(core::preferredVectorWidth(info, 4), info.simdWidth);  // floats fill the SIMD register
  EXPECT_EQ(core::preferredVectorWidth(info, 8), info.simdWidth / 2);
  EXPECT_EQ(core::preferredVectorWidth(info, 1), 16u);  // OpenCL vectors stop at 16
  EXPECT_EQ(core::preferredGroupSizeMultiple(info), info.simdWidth) << "work-item loops vectorize across x";
  EXPECT_GT(info.computeQueues, 1u);
  EXPECT_GT(info.copyQueues, 1u);
}

TEST(CpuBackend, TimestampsIncrease) {
  CpuBackend backend(describeHostCpu(), 1);
  const uint64_t first = backend.timestamp();
  EXPECT_LE(first, backend.timestamp());
}

// Kernels written by hand, in the work-group function ABI: each group runs `groupRun` groups; the
// argument buffer holds what the kernel needs.
struct FaultArguments {
  std::atomic<uint64_t>* groupsRun;
  uint32_t faultingGroup;
  void (*fault)();
};

void countGroupsAndFault(const void* argumentBuffer, const compiler::WorkGroupContext* context) {
  const auto* arguments = static_cast<const FaultArguments*>(argumentBuffer);
  for (uint32_t group = context->groupId[0]; group < context->groupId[0] + context->groupRun; ++group) {
    if (group == arguments->faultingGroup) arguments->fault();
    arguments->groupsRun->fetch_add(1);
  }
}

volatile int zero = 0;
volatile int seven = 7;  // not a constant: 1 / x compiles to comparisons, no division
int* volatile wildPointer = reinterpret_cast<int*>(uintptr_t{0x10});

void storeThroughAWildPointer() { *wildPointer = 1; }
// Meant to trap: the sanitizer build must not report it first.
__attribute__((no_sanitize("undefined"))) void divideByZero() { zero = seven / zero; }
void trap() { __builtin_trap(); }

// A page of a file mapped past the file's end: stores to it raise SIGBUS.
int* pagePastTheEndOfAFile() {
  static int* page = [] {
    FILE* file = std::tmpfile();
    void* mapped = mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fileno(file), 0);
    return static_cast<int*>(mapped == MAP_FAILED ? nullptr : mapped);
  }();
  return page;
}
void storePastTheEndOfAFile() { *static_cast<int* volatile>(pagePastTheEndOfAFile()) = 1; }

// Recursion that never ends, in frames the optimizer cannot drop: it runs off the thread's stack.
__attribute__((noinline)) void recurseForever(volatile char* previous) {
  volatile char frame[4096];
  frame[0] = previous ? previous[0] : 1;
  recurseForever(frame);
  asm volatile("" ::: "memory");
}
void overflowTheStack() { recurseForever(nullptr); }

class CpuKernelFault : public ::testing::TestWithParam<void (*)()> {
 protected:
  static constexpr uint32_t kGroups = 4096;

  // Launches countGroupsAndFault over kGroups groups of one work-item on `queue`.
  void launch(core::BackendQueue& queue, uint32_t faultingGroup, void (*fault)()) {
    FaultArguments arguments{&groupsRun, faultingGroup, fault};
    core::KernelLaunch launch;
    launch.kernel = &kernel;
    launch.descriptor = &descriptor;
    launch.workDim = 1;
    launch.groupCount[0] = kGroups;
    launch.globalSize[0] = kGroups;
    groupsRun = 0;
    queue.launch(launch, reinterpret_cast<const uint8_t*>(&arguments));
  }

  CpuBackend backend{describeHostCpu(), 4};
  CpuKernel kernel{countGroupsAndFault, nullptr};
  compiler::KernelDescriptor descriptor;
  std::atomic<uint64_t> groupsRun{0};
};

TEST_P(CpuKernelFault, FailsTheLaunchAndLeavesThePoolWorking) {
  ASSERT_NE(pagePastTheEndOfAFile(), nullptr);
  std::unique_ptr<core::BackendQueue> queue = backend.createQueue();
  // The fault is in the middle of the launch, on whichever thread takes that group.
  launch(*queue, kGroups / 2, GetParam());
  EXPECT_EQ(queue->takeFailure(), core::kStatusOutOfResources);
  EXPECT_LT(groupsRun.load(), kGroups);
  EXPECT_EQ(queue->takeFailure(), 0) << "takeFailure clears the failure";
  // The pool, and every thread of it, runs the next launch in full: every group and no fault.
  for (int round = 0; round < 3; ++round) {
    launch(*queue, UINT32_MAX, GetParam());
    EXPECT_EQ(queue->takeFailure(), 0);
    EXPECT_EQ(groupsRun.load(), kGroups);
  }
}

TEST_P(CpuKernelFault, FailsAOneGroupLaunchOnTheCallingThread) {
  std::unique_ptr<core::BackendQueue> queue = backend.createQueue();
  FaultArguments arguments{&groupsRun, 0, GetParam()};
  core::KernelLaunch launch;
  launch.kernel = &kernel;
  launch.descriptor = &descriptor;
  queue->launch(launch, reinterpret_cast<const uint8_t*>(&arguments));
  EXPECT_EQ(queue->takeFailure(), core::kStatusOutOfResources);
  EXPECT_EQ(groupsRun.load(), 0u);
}

const char* const kFaultNames[] = {"Sigsegv", "Sigbus", "Sigfpe", "Sigill", "StackOverflow"};
std::string testNameOf(const ::testing::TestParamInfo<void (*)()>& info) { return kFaultNames[info.index]; }

INSTANTIATE_TEST_SUITE_P(EachSignal, CpuKernelFault,
                         ::testing::Values(storeThroughAWildPointer, storePastTheEndOfAFile, divideByZero, trap,
                                           overflowTheStack),
                         testNameOf);

// The application's own faults, outside kernel code, go where they would without Loom. Each case
// runs in a new process (threadsafe death tests re-execute the test binary), so that the
// application's handler is there before Loom installs its own.
volatile bool inKernelCode = false;
void applicationHandler(int, siginfo_t* info, void*) {
  if (inKernelCode) _exit(2);  // the kernel's fault was Loom's to handle
  _exit(info->si_addr == wildPointer ? 42 : 3);
}

void launchAFaultingKernelThenFaultOutsideIt() {
  CpuBackend backend(describeHostCpu(), 2);
  CpuKernel kernel{countGroupsAndFault, nullptr};
  compiler::KernelDescriptor descriptor;
  std::atomic<uint64_t> groupsRun{0};
  FaultArguments arguments{&groupsRun, 7, storeThroughAWildPointer};
  core::KernelLaunch launch;
  launch.kernel = &kernel;
  launch.descriptor = &descriptor;
  launch.workDim = 1;
  launch.groupCount[0] = 64;
  launch.globalSize[0] = 64;
  std::unique_ptr<core::BackendQueue> queue = backend.createQueue();
  inKernelCode = true;
  queue->launch(launch, reinterpret_cast<const uint8_t*>(&arguments));
  inKernelCode = false;
  if (queue->takeFailure() != core::kStatusOutOfResources) _exit(4);
  storeThroughAWildPointer();
  _exit(5);  // not reached: the fault ends the process one way or another
}

void installApplicationHandlerThenFault() {
  struct sigaction action {};
  action.sa_sigaction = applicationHandler;
  action.sa_flags = SA_SIGINFO;
  sigaction(SIGSEGV, &action, nullptr);
  launchAFaultingKernelThenFaultOutsideIt();
}

void ignoreSigsegvThenFault() {
  signal(SIGSEGV, SIG_IGN);
  launchAFaultingKernelThenFaultOutsideIt();
}

void sendSigbusToTheProcess() {
  CpuBackend backend(describeHostCpu(), 2);
  kill(getpid(), SIGBUS);
  _exit(6);
}

TEST(CpuKernelFaultDeathTest, AnApplicationHandlerInstalledBeforeLoomGetsTheApplicationsFaults) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(installApplicationHandlerThenFault(), ::testing::ExitedWithCode(42), "");
}

TEST(CpuKernelFaultDeathTest, WithoutAnApplicationHandlerAFaultOutsideKernelsKillsTheProcess) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(launchAFaultingKernelThenFaultOutsideIt(), ::testing::KilledBySignal(SIGSEGV), "");
}

TEST(CpuKernelFaultDeathTest, AnIgnoredSignalStillKillsOnAFaultAsTheKernelWould) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(ignoreSigsegvThenFault(), ::testing::KilledBySignal(SIGSEGV), "");
}

TEST(CpuKernelFaultDeathTest, ASignalSentToTheProcessIsNotTakenForAKernelFault) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(sendSigbusToTheProcess(), ::testing::KilledBySignal(SIGBUS), "");
}

}  // namespace
}  // namespace loom::backends::cpu
