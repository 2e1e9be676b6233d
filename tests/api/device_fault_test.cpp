// Work that faults on the device must never pass for done: the synchronization calls report the
// lost device. A fault leaves a CUDA context unusable for the rest of the process, so the test
// runs only when asked, in a process of its own (scripts/device-run.sh does so on a GPU).
#include <cstdlib>

#include "ze_test_helpers.h"

namespace loom::test {
namespace {

using DeviceFaultTest = ZeTest;

TEST_F(DeviceFaultTest, AKernelThatStoresThroughAWildPointerReportsTheDeviceLost) {
  if (deviceType() != ZE_DEVICE_TYPE_GPU) GTEST_SKIP() << "a wild store would kill the process on the CPU device";
  if (!std::getenv("LOOM_TEST_DEVICE_FAULTS")) GTEST_SKIP() << "runs with LOOM_TEST_DEVICE_FAULTS=1, in a process of its own";
  ze_kernel_handle_t ids = apiKernel("work_item_ids");
  setArguments(ids, reinterpret_cast<uint64_t*>(uintptr_t{0x1000}));
  ASSERT_ZE(zeKernelSetGroupSize(ids, 64, 1, 1));
  ze_event_handle_t done = hostVisibleEvent();
  ze_command_list_handle_t recorded = regularList();
  const ze_group_count_t count{16, 1, 1};
  ASSERT_ZE(zeCommandListAppendLaunchKernel(recorded, ids, &count, done, 0, nullptr));
  ASSERT_ZE(zeCommandListClose(recorded));
  ze_command_queue_handle_t queue = commandQueue();
  ASSERT_ZE(zeCommandQueueExecuteCommandLists(queue, 1, &recorded, nullptr));
  EXPECT_EQ(zeCommandQueueSynchronize(queue, kTimeout), ZE_RESULT_ERROR_DEVICE_LOST);
  EXPECT_EQ(zeEventHostSynchronize(done, kTimeout), ZE_RESULT_ERROR_DEVICE_LOST);
  EXPECT_EQ(zeEventQueryStatus(done), ZE_RESULT_ERROR_DEVICE_LOST);
}

}  // namespace
}  // namespace loom::test
