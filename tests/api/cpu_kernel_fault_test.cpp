// Kernels that fault or never end on the CPU device: a fault fails the work as a lost device
// would on a GPU, and the process, its other queues and contexts go on; a kernel that never ends
// holds up only its own queue.
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "../child_process.h"
#include "ze_test_helpers.h"

namespace loom::test {
namespace {

constexpr uint64_t kOneTebibyteOfInts = (uint64_t(1) << 40) / sizeof(int);
constexpr uint32_t kGroups = 64;
constexpr uint32_t kGroupSize = 64;

class CpuKernelFaultTest : public ZeTest {
 protected:
  ze_kernel_handle_t faultKernel(const char* name) {
    if (!faultModule) faultModule = module("fault_kernels.spv");
    return kernel(faultModule, name);
  }

  // store_far over kGroups groups, each work-item storing `distance` ints past data[its id].
  ze_kernel_handle_t storeFar(int* data, uint64_t distance) {
    ze_kernel_handle_t store = faultKernel("store_far");
    setArguments(store, data, distance);
    EXPECT_ZE(zeKernelSetGroupSize(store, kGroupSize, 1, 1));
    return store;
  }

  // Runs the faulting kernel every way a queue reports work: a regular list on a queue with a
  // fence and an event, and the synchronous immediate list.
  void expectTheDeviceLost(ze_kernel_handle_t faulting) {
    const ze_group_count_t count{kGroups, 1, 1};
    ze_event_handle_t done = hostVisibleEvent();
    ze_command_list_handle_t recorded = regularList();
    ASSERT_ZE(zeCommandListAppendLaunchKernel(recorded, faulting, &count, done, 0, nullptr));
    ASSERT_ZE(zeCommandListClose(recorded));
    ze_command_queue_handle_t queue = commandQueue();
    ze_fence_handle_t finished = fence(queue);
    ASSERT_ZE(zeCommandQueueExecuteCommandLists(queue, 1, &recorded, finished));
    EXPECT_EQ(zeCommandQueueSynchronize(queue, kTimeout), ZE_RESULT_ERROR_DEVICE_LOST);
    EXPECT_EQ(zeFenceHostSynchronize(finished, kTimeout), ZE_RESULT_ERROR_DEVICE_LOST);
    EXPECT_EQ(zeEventHostSynchronize(done, kTimeout), ZE_RESULT_ERROR_DEVICE_LOST);
    EXPECT_EQ(zeEventQueryStatus(done), ZE_RESULT_ERROR_DEVICE_LOST);
    EXPECT_EQ(zeCommandListAppendLaunchKernel(list, faulting, &count, nullptr, 0, nullptr), ZE_RESULT_ERROR_DEVICE_LOST);
  }

  // A kernel that works, in `in`: every work-item's record is written.
  void expectAKernelToWork() {
    auto* records = shared<uint64_t>(size_t(kGroups) * kGroupSize * kWorkItemRecord);
    ze_kernel_handle_t ids = apiKernel("work_item_ids");
    setArguments(ids, records);
    launch(ids, kGroups, kGroupSize);
    for (uint64_t id = 0; id < uint64_t(kGroups) * kGroupSize; ++id) ASSERT_EQ(records[id * kWorkItemRecord], id);
  }

  // Makes a new context the one the helpers use (the process goes on after a fault).
  void switchToANewContext() {
    ze_context_desc_t desc{ZE_STRUCTURE_TYPE_CONTEXT_DESC};
    ASSERT_ZE(zeContextCreate(driver, &desc, &context));
    apiModule = nullptr;
    faultModule = nullptr;
    list = immediateList(ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
  }

  void expectTheProcessToGoOn() {
    // A queue of the same context that did not fault, and a new context.
    list = immediateList(ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
    expectAKernelToWork();
    switchToANewContext();
    expectAKernelToWork();
  }

  // spin_until_set over kSpinningGroups groups of one work-item: more groups than the device has
  // threads, so that every worker may end up inside one. It ends once *release is set.
  ze_kernel_handle_t spinUntilSet(int* release, int* done) {
    ze_kernel_handle_t spin = faultKernel("spin_until_set");
    setArguments(spin, release, done);
    EXPECT_ZE(zeKernelSetGroupSize(spin, 1, 1, 1));
    return spin;
  }

  // Two ints, both 0: a flag no one sets, and a count.
  int* neverSet() {
    int* flags = shared<int>(2);
    flags[0] = flags[1] = 0;
    return flags;
  }

  // Destroys a helper's object itself, so that TearDown leaves it alone.
  template <typename Handle>
  static void forget(std::vector<Handle>& made, Handle handle) {
    made.erase(std::remove(made.begin(), made.end(), handle), made.end());
  }

  static constexpr uint32_t kSpinningGroups = 256;
  static constexpr ze_group_count_t kSpinningCount{kSpinningGroups, 1, 1};
  ze_module_handle_t faultModule = nullptr;
};

// A child that hangs fails (SIGALRM ends it) rather than stalling the suite.
constexpr unsigned kSecondsBeforeAHangFails = 60;

TEST_F(CpuKernelFaultTest, AStoreFarOutOfBoundsLosesTheDeviceAndTheProcessGoesOn) {
  SKIP_UNLESS_CPU_DEVICE("catching a kernel's fault in the process");
  EXPECT_PASSES_IN_A_CHILD_PROCESS({
    expectTheDeviceLost(storeFar(shared<int>(kGroups * kGroupSize), kOneTebibyteOfInts));
    expectTheProcessToGoOn();
  });
}

TEST_F(CpuKernelFaultTest, AStorePastTheEndOfAMappedFileLosesTheDeviceAndTheProcessGoesOn) {
  SKIP_UNLESS_CPU_DEVICE("catching a kernel's fault in the process");
  EXPECT_PASSES_IN_A_CHILD_PROCESS({
    // Pages of an empty file: a store to them raises SIGBUS.
    FILE* file = std::tmpfile();
    const size_t size = size_t(kGroups) * kGroupSize * sizeof(int);
    void* mapped = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fileno(file), 0);
    ASSERT_NE(mapped, MAP_FAILED);
    expectTheDeviceLost(storeFar(static_cast<int*>(mapped), 0));
    expectTheProcessToGoOn();
  });
}

// An application's handler, installed before Loom starts: it must still see the application's
// own faults, and never the kernel's.
volatile bool kernelRunning = false;
int* volatile applicationsWildPointer = reinterpret_cast<int*>(uintptr_t{0x20});
void applicationHandler(int, siginfo_t* info, void*) {
  if (kernelRunning) _exit(2);
  _exit(info->si_addr == applicationsWildPointer ? 42 : 3);
}

class CpuKernelFaultWithAnApplicationHandlerTest : public CpuKernelFaultTest {
 protected:
  void SetUp() override {
    struct sigaction action {};
    action.sa_sigaction = applicationHandler;
    action.sa_flags = SA_SIGINFO;
    sigaction(SIGSEGV, &action, &before);
    CpuKernelFaultTest::SetUp();
  }
  void TearDown() override {
    CpuKernelFaultTest::TearDown();
    sigaction(SIGSEGV, &before, nullptr);
  }
  struct sigaction before {};
};

TEST_F(CpuKernelFaultWithAnApplicationHandlerTest, TheApplicationsHandlerGetsItsOwnFaultsOnly) {
  SKIP_UNLESS_CPU_DEVICE("catching a kernel's fault in the process");
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  auto faultTwice = [&] {
    kernelRunning = true;
    expectTheDeviceLost(storeFar(shared<int>(kGroups * kGroupSize), kOneTebibyteOfInts));
    kernelRunning = false;
    if (::testing::Test::HasFailure()) _exit(4);
    *applicationsWildPointer = 1;
    _exit(5);
  };
  EXPECT_EXIT(faultTwice(), ::testing::ExitedWithCode(42), "");
}

// In a child process too: the second context is left behind there, and a hang stays there.
TEST_F(CpuKernelFaultTest, AKernelThatDoesNotEndHoldsUpOnlyItsOwnQueue) {
  SKIP_UNLESS_CPU_DEVICE("sharing the CPU's threads between queues");
  EXPECT_PASSES_IN_A_CHILD_PROCESS({
    alarm(kSecondsBeforeAHangFails);
    int* flags = neverSet();
    int* release = flags;
    int* done = flags + 1;
    ze_event_handle_t spun = hostVisibleEvent();
    ze_command_list_handle_t spinning = immediateList(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
    ASSERT_ZE(zeCommandListAppendLaunchKernel(spinning, spinUntilSet(release, done), &kSpinningCount, spun, 0, nullptr));
    // The application must not destroy a list in use, yet a kernel may never end: the destroy
    // returns and the kernel runs on.
    forget(commandLists, spinning);
    EXPECT_ZE(zeCommandListDestroy(spinning));
    // Another queue of this context, and one of another context, run their kernels meanwhile.
    expectAKernelToWork();
    EXPECT_EQ(zeEventQueryStatus(spun), ZE_RESULT_NOT_READY);
    switchToANewContext();
    expectAKernelToWork();
    EXPECT_EQ(zeEventQueryStatus(spun), ZE_RESULT_NOT_READY);
    // The list's work completes without it.
    __atomic_store_n(release, 1, __ATOMIC_SEQ_CST);
    EXPECT_ZE(zeEventHostSynchronize(spun, kTimeout));
    EXPECT_EQ(__atomic_load_n(done, __ATOMIC_SEQ_CST), int(kSpinningGroups));
  });
}

// A kernel that never ends on a queue and on an immediate list: destroying both returns, the work
// behind the kernel never reports success, other queues go on, the application tears everything
// down (the kernel's module and memory with it) and the process exits normally.
TEST_F(CpuKernelFaultTest, DestroyingQueuesWhoseKernelNeverEndsReturnsAndTheProcessExits) {
  SKIP_UNLESS_CPU_DEVICE("sharing the CPU's threads between queues");
  EXPECT_PASSES_IN_A_CHILD_PROCESS({
    alarm(kSecondsBeforeAHangFails);
    int* flags = neverSet();
    ze_kernel_handle_t spin = spinUntilSet(flags, flags + 1);
    ze_event_handle_t spun = hostVisibleEvent(), behind = hostVisibleEvent(), spunToo = hostVisibleEvent();
    // A queue runs the kernel, then a list behind it.
    ze_command_list_handle_t spinning = regularList(), copying = regularList();
    ASSERT_ZE(zeCommandListAppendLaunchKernel(spinning, spin, &kSpinningCount, spun, 0, nullptr));
    int* copied = shared<int>(1);
    *copied = 0;
    const int one = 1;
    ASSERT_ZE(zeCommandListAppendMemoryCopy(copying, copied, &one, sizeof(one), behind, 0, nullptr));
    ASSERT_ZE(zeCommandListClose(spinning));
    ASSERT_ZE(zeCommandListClose(copying));
    ze_command_queue_handle_t queue = commandQueue();
    ze_command_list_handle_t both[] = {spinning, copying};
    ASSERT_ZE(zeCommandQueueExecuteCommandLists(queue, 2, both, nullptr));
    // An immediate list runs it too.
    ze_command_list_handle_t immediate = immediateList(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
    ASSERT_ZE(zeCommandListAppendLaunchKernel(immediate, spin, &kSpinningCount, spunToo, 0, nullptr));

    forget(queues, queue);
    EXPECT_ZE(zeCommandQueueDestroy(queue));
    forget(commandLists, immediate);
    EXPECT_ZE(zeCommandListDestroy(immediate));
    expectAKernelToWork();
    for (ze_event_handle_t never : {spun, behind, spunToo}) EXPECT_EQ(zeEventQueryStatus(never), ZE_RESULT_NOT_READY);
    EXPECT_EQ(*copied, 0);
    // Events, lists, the module, the memory and the context go (after the work, which keeps them).
    TearDown();
    std::fflush(nullptr);
    std::exit(HasFailure() ? 1 : 0);
  });
}

}  // namespace
}  // namespace loom::test
