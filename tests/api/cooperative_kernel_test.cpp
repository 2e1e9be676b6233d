// Cooperative launches: zeKernelSuggestMaxCooperativeGroupCount and
// zeCommandListAppendLaunchCooperativeKernel, whose groups all run at once and so may wait for
// each other.
#include <algorithm>
#include <cstdlib>
#include <vector>

#include "ze_test_helpers.h"

namespace loom::test {
namespace {

class CooperativeKernelTest : public ZeTest {
 protected:
  static constexpr uint32_t kGroupSize = 64;

  ze_kernel_handle_t gridBarrier() {
    ze_kernel_handle_t barrier = kernel(module("cooperative_kernels.spv"), "grid_barrier");
    EXPECT_ZE(zeKernelSetGroupSize(barrier, kGroupSize, 1, 1));
    return barrier;
  }
};

// The groups of the launch wait at a grid barrier for each other: a launch that runs some only
// after others ended never finishes. Runs in a process of its own (runGridBarrier).
TEST_F(CooperativeKernelTest, DISABLED_AllGroupsPassAGridBarrier) {
  ze_kernel_handle_t barrier = gridBarrier();
  uint32_t groups = 0;
  ASSERT_ZE(zeKernelSuggestMaxCooperativeGroupCount(barrier, &groups));
  ASSERT_GT(groups, 1u) << "a grid barrier of one group proves nothing";
  uint32_t* arrived = shared<uint32_t>(1);
  uint32_t* seen = shared<uint32_t>(size_t(groups) * kGroupSize);
  *arrived = 0;
  setArguments(barrier, arrived, seen);
  const ze_group_count_t count{groups, 1, 1};
  ASSERT_ZE(zeCommandListAppendLaunchCooperativeKernel(list, barrier, &count, nullptr, 0, nullptr));
  EXPECT_EQ(*arrived, groups);
  for (uint32_t i = 0; i < groups * kGroupSize; ++i) ASSERT_EQ(seen[i], groups) << "work-item " << i;
}

// Runs the grid barrier in a new process, whose CPU device has `workerThreads` pool threads (the
// default where null), so that a launch whose groups do not all run at once fails the test by its
// time limit instead of hanging the suite.
int runGridBarrier(const char* workerThreads) {
  if (workerThreads) setenv("LOOM_CpuWorkerThreads", workerThreads, 1);
  const int exitCode = runTestInNewProcess("CooperativeKernelTest.DISABLED_AllGroupsPassAGridBarrier", {});
  if (workerThreads) unsetenv("LOOM_CpuWorkerThreads");
  return exitCode;
}

TEST_F(CooperativeKernelTest, TheGroupsOfACooperativeLaunchRunAtOnce) {
  const int exitCode = runGridBarrier(nullptr);
  EXPECT_EQ(exitCode, 0) << (exitCode < 0 ? "the grid barrier hung: the groups did not all run at once" : "");
}

TEST_F(CooperativeKernelTest, TheGroupsRunAtOnceWhateverThePoolsThreads) {
  const int exitCode = runGridBarrier("1");
  EXPECT_EQ(exitCode, 0) << (exitCode < 0 ? "the grid barrier hung with one pool thread" : "");
}

// Rows of Pascal's triangle over groups of 8 (up to row 60, as many as the launch has work-items),
// so that every row crosses groups at each step. Runs in a process of its own: a barrier that some
// group never reaches would hang.
TEST_F(CooperativeKernelTest, DISABLED_GlobalBarrierOrdersEveryGroupsWrites) {
  constexpr uint32_t kSmallGroup = 8;
  ze_kernel_handle_t pascal = kernel(module("cooperative_kernels.spv"), "pascal_rows");
  ASSERT_ZE(zeKernelSetGroupSize(pascal, kSmallGroup, 1, 1));
  uint32_t groups = 0;
  ASSERT_ZE(zeKernelSuggestMaxCooperativeGroupCount(pascal, &groups));
  groups = std::min(groups, 8u);
  ASSERT_GT(groups, 1u) << "a barrier of one group proves nothing";
  const size_t items = size_t(groups) * kSmallGroup;
  const uint32_t rows = std::min<uint32_t>(60, uint32_t(items) - 1);  // C(60, 30) fits 64 bits
  uint64_t* row = shared<uint64_t>(items);
  std::fill(row, row + items, 0);
  setArguments(pascal, row, int(rows));
  const ze_group_count_t count{groups, 1, 1};
  ASSERT_ZE(zeCommandListAppendLaunchCooperativeKernel(list, pascal, &count, nullptr, 0, nullptr));
  std::vector<uint64_t> expected(items, 0);
  expected[0] = 1;
  for (uint32_t i = 1; i <= rows; ++i)
    for (uint32_t x = i; x > 0; --x) expected[x] = x == i ? 1 : expected[x] + expected[x - 1];
  for (size_t x = 0; x < items; ++x) ASSERT_EQ(row[x], expected[x]) << "C(" << rows << ", " << x << ")";
}

TEST_F(CooperativeKernelTest, IntelsGlobalBarrierWaitsForEveryGroup) {
  const int exitCode = runTestInNewProcess("CooperativeKernelTest.DISABLED_GlobalBarrierOrdersEveryGroupsWrites", {});
  EXPECT_EQ(exitCode, 0) << (exitCode < 0 ? "the global barrier hung" : "");
}

TEST_F(CooperativeKernelTest, MoreGroupsThanRunAtOnceAreRefused) {
  ze_kernel_handle_t barrier = gridBarrier();
  uint32_t groups = 0;
  ASSERT_ZE(zeKernelSuggestMaxCooperativeGroupCount(barrier, &groups));
  setArguments(barrier, shared<uint32_t>(1), shared<uint32_t>(size_t(groups + 1) * kGroupSize));
  const ze_group_count_t tooMany{groups + 1, 1, 1};
  EXPECT_EQ(zeCommandListAppendLaunchCooperativeKernel(list, barrier, &tooMany, nullptr, 0, nullptr),
            ZE_RESULT_ERROR_INVALID_ARGUMENT);
}

}  // namespace
}  // namespace loom::test
