// Heap allocations of appends to immediate command lists, on the appending thread
// (allocation/allocation_count.h). An append encodes the launch description and
// the argument bytes into the list's command stream, and the engine hands the storage of a stream
// back once it has run (core::Engine::submit), so a list that appends steadily allocates nothing.
#include "allocation/allocation_count.h"
#include "ze_test_helpers.h"

namespace loom::test {
namespace {

constexpr uint32_t kWarmUpAppends = 8;  // the first appends allocate the storage that then goes round
constexpr uint32_t kCountedAppends = 64;

class AppendAllocationTest : public ZeTest {
 protected:
  // The launches the tests append: one without arguments, one with three.
  ze_kernel_handle_t withoutArguments() {
    ze_kernel_handle_t k = apiKernel("empty_kernel");
    EXPECT_ZE(zeKernelSetGroupSize(k, 1, 1, 1));
    return k;
  }
  ze_kernel_handle_t withArguments() {
    ze_kernel_handle_t k = apiKernel("add_vectors");
    float* data = shared<float>(3);
    setArguments(k, data, data + 1, data + 2);
    EXPECT_ZE(zeKernelSetGroupSize(k, 1, 1, 1));
    return k;
  }

  // How many allocations `count` launches of `k` appended to `on` make.
  static size_t allocationsOfLaunches(ze_command_list_handle_t on, ze_kernel_handle_t k, uint32_t count) {
    const ze_group_count_t groups{1, 1, 1};
    ze_result_t result = ZE_RESULT_SUCCESS;
    AllocationCount allocations;
    for (uint32_t i = 0; i < count && result == ZE_RESULT_SUCCESS; ++i)
      result = zeCommandListAppendLaunchKernel(on, k, &groups, nullptr, 0, nullptr);
    const size_t made = allocations.allocations();
    EXPECT_ZE(result);
    return made;
  }

  // Waits for everything appended to the asynchronous immediate list `on`.
  void finish(ze_command_list_handle_t on) {
    ze_event_handle_t done = hostVisibleEvent();
    ASSERT_ZE(zeCommandListAppendSignalEvent(on, done));
    ASSERT_ZE(zeEventHostSynchronize(done, kTimeout));
  }
};

// Each append of a synchronous list has run before the next: the engine has the storage of the
// one before it to hand back, and the append allocates nothing. (A list of its own for each
// kernel: storage that went round with smaller commands grows once when it first meets a larger.)
TEST_F(AppendAllocationTest, SynchronousImmediateListAllocatesNothingPerLaunch) {
  for (ze_kernel_handle_t k : {withoutArguments(), withArguments()}) {
    ze_command_list_handle_t synchronous = immediateList(ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
    allocationsOfLaunches(synchronous, k, kWarmUpAppends);
    EXPECT_EQ(allocationsOfLaunches(synchronous, k, kCountedAppends), 0u);
  }
}

// An asynchronous list may append faster than the engine runs: then an append allocates the
// storage of its stream, and no more. The engine's queue of streams, two vectors it swaps, only
// doubles: at most 8 times each for up to 128 streams.
TEST_F(AppendAllocationTest, AsynchronousImmediateListAllocatesAtMostItsStreamPerLaunch) {
  for (ze_kernel_handle_t k : {withoutArguments(), withArguments()}) {
    ze_command_list_handle_t async = immediateList(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
    allocationsOfLaunches(async, k, kWarmUpAppends);
    EXPECT_LE(allocationsOfLaunches(async, k, kCountedAppends), kCountedAppends + 16u);
    finish(async);
  }
}

}  // namespace
}  // namespace loom::test
