#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <numeric>

#include "ze_test.h"

namespace loom::test {
namespace {

class CommandListTest : public ZeTest {
 protected:
  void TearDown() override {
    for (auto handle : regularLists) EXPECT_ZE(zeCommandListDestroy(handle));
    if (queue) {
      EXPECT_ZE(zeCommandQueueDestroy(queue));
    }
    ZeTest::TearDown();
  }
  ze_command_list_handle_t regularList(uint32_t ordinal = 0) {
    ze_command_list_desc_t desc{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC};
    desc.commandQueueGroupOrdinal = ordinal;
    ze_command_list_handle_t handle = nullptr;
    EXPECT_ZE(zeCommandListCreate(context, device, &desc, &handle));
    regularLists.push_back(handle);
    return handle;
  }
  void execute(ze_command_list_handle_t l) {
    if (!queue) {
      ze_command_queue_desc_t desc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
      ASSERT_ZE(zeCommandQueueCreate(context, device, &desc, &queue));
    }
    ASSERT_ZE(zeCommandQueueExecuteCommandLists(queue, 1, &l, nullptr));
    ASSERT_ZE(zeCommandQueueSynchronize(queue, kTimeout));
  }
  std::vector<ze_command_list_handle_t> regularLists;
  ze_command_queue_handle_t queue = nullptr;
};

TEST_F(CommandListTest, FillRepeatsEveryPatternSizeAndStopsAtTheEnd) {
  for (size_t patternSize = 1; patternSize <= 128; patternSize *= 2) {
    std::vector<uint8_t> pattern(patternSize);
    std::iota(pattern.begin(), pattern.end(), uint8_t(1));
    const size_t size = 3 * patternSize + patternSize / 2 + 1;
    uint8_t* buffer = shared<uint8_t>(size + 16);
    std::fill(buffer, buffer + size + 16, 0xee);
    ASSERT_ZE(zeCommandListAppendMemoryFill(list, buffer, pattern.data(), patternSize, size, nullptr, 0, nullptr));
    for (size_t i = 0; i < size; ++i) ASSERT_EQ(buffer[i], pattern[i % patternSize]) << patternSize;
    EXPECT_EQ(buffer[size], 0xee);
  }
  uint8_t* buffer = shared<uint8_t>(64);
  const uint8_t pattern[3] = {1, 2, 3};
  EXPECT_EQ(zeCommandListAppendMemoryFill(list, buffer, pattern, 3, 64, nullptr, 0, nullptr), ZE_RESULT_ERROR_INVALID_SIZE);
  EXPECT_EQ(zeCommandListAppendMemoryFill(list, buffer, pattern, 256, 64, nullptr, 0, nullptr), ZE_RESULT_ERROR_INVALID_SIZE);
}

TEST_F(CommandListTest, CopyRegionCopies2dAnd3dBoxesBetweenPitches) {
  // Source 16 x 8 x 4 bytes; destination 32 x 10 x 5 bytes.
  uint8_t* source = shared<uint8_t>(16 * 8 * 4);
  uint8_t* destination = shared<uint8_t>(32 * 10 * 5);
  std::iota(source, source + 16 * 8 * 4, uint8_t(0));
  std::fill(destination, destination + 32 * 10 * 5, 0);
  ze_copy_region_t from{2, 1, 1, 5, 3, 2};
  ze_copy_region_t to{7, 4, 2, 5, 3, 2};
  ASSERT_ZE(zeCommandListAppendMemoryCopyRegion(list, destination, &to, 32, 320, source, &from, 16, 128, nullptr, 0, nullptr));
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 5; ++x)
        ASSERT_EQ(destination[(2 + z) * 320 + (4 + y) * 32 + 7 + x], source[(1 + z) * 128 + (1 + y) * 16 + 2 + x]);
  EXPECT_EQ(destination[0], 0);
  ze_copy_region_t flat{0, 0, 0, 4, 2, 0};  // depth 0: a 2-D copy
  ASSERT_ZE(zeCommandListAppendMemoryCopyRegion(list, destination, &flat, 32, 0, source, &flat, 16, 0, nullptr, 0, nullptr));
  EXPECT_EQ(destination[32 + 3], source[16 + 3]);
  ze_copy_region_t other{0, 0, 0, 5, 2, 1};
  EXPECT_EQ(zeCommandListAppendMemoryCopyRegion(list, destination, &other, 32, 0, source, &flat, 16, 0, nullptr, 0, nullptr),
            ZE_RESULT_ERROR_INVALID_ARGUMENT);
}

TEST_F(CommandListTest, AClosedListRunsAnyNumberOfTimesAndResetEmptiesIt) {
  ze_kernel_handle_t add = apiKernel("add_vectors");
  float* f = shared<float>(4);
  f[0] = 1.0f;
  setArguments(add, f, f, f);  // f[0] doubles on every run
  ASSERT_ZE(zeKernelSetGroupSize(add, 1, 1, 1));
  ze_command_list_handle_t l = regularList();
  ze_group_count_t groups{1, 1, 1};
  ASSERT_ZE(zeCommandListAppendLaunchKernel(l, add, &groups, nullptr, 0, nullptr));
  ASSERT_ZE(zeCommandListAppendBarrier(l, nullptr, 0, nullptr));
  const void* ranges[1] = {f};
  const size_t sizes[1] = {sizeof(float)};
  ASSERT_ZE(zeCommandListAppendMemoryRangesBarrier(l, 1, sizes, ranges, nullptr, 0, nullptr));
  ASSERT_ZE(zeCommandListAppendMemoryPrefetch(l, f, sizeof(float)));
  ASSERT_ZE(zeCommandListAppendMemAdvise(l, device, f, sizeof(float), ZE_MEMORY_ADVICE_SET_READ_MOSTLY));
  ASSERT_ZE(zeCommandListClose(l));
  EXPECT_EQ(zeCommandListAppendBarrier(l, nullptr, 0, nullptr), ZE_RESULT_ERROR_INVALID_ARGUMENT);
  for (int run = 0; run < 3; ++run) execute(l);
  EXPECT_EQ(f[0], 8.0f);
  ASSERT_ZE(zeCommandListReset(l));
  ASSERT_ZE(zeCommandListClose(l));
  execute(l);  // empty now
  EXPECT_EQ(f[0], 8.0f);
}

TEST_F(CommandListTest, IndirectLaunchesReadTheirGroupCountsWhenTheyRun) {
  ze_kernel_handle_t add = apiKernel("add_vectors");
  const uint32_t n = 256;
  float *a = shared<float>(n), *b = shared<float>(n), *sum = shared<float>(n);
  for (uint32_t i = 0; i < n; ++i) a[i] = float(i), b[i] = 2.0f, sum[i] = 0.0f;
  setArguments(add, a, b, sum);
  ASSERT_ZE(zeKernelSetGroupSize(add, 16, 1, 1));
  auto* groups = shared<ze_group_count_t>(2);
  groups[0] = {0, 1, 1};
  ze_command_list_handle_t l = regularList();
  ASSERT_ZE(zeCommandListAppendLaunchKernelIndirect(l, add, groups, nullptr, 0, nullptr));
  ASSERT_ZE(zeCommandListClose(l));
  groups[0].groupCountX = n / 16 / 2;  // set after recording: half the vector
  execute(l);
  EXPECT_EQ(sum[n / 2 - 1], float(n / 2 - 1) + 2.0f);
  EXPECT_EQ(sum[n / 2], 0.0f);

  uint32_t* count = shared<uint32_t>(1);
  *count = 1;  // of the two kernels recorded, only the first runs
  groups[0] = {n / 16, 1, 1}, groups[1] = {n / 16, 1, 1};
  ze_kernel_handle_t kernelsToLaunch[2] = {add, apiKernel("add_vectors")};
  float* other = shared<float>(n);
  std::fill(other, other + n, -1.0f);
  setArguments(kernelsToLaunch[1], a, b, other);
  ASSERT_ZE(zeKernelSetGroupSize(kernelsToLaunch[1], 16, 1, 1));
  ASSERT_ZE(zeCommandListAppendLaunchMultipleKernelsIndirect(list, 2, kernelsToLaunch, count, groups, nullptr, 0, nullptr));
  EXPECT_EQ(sum[n - 1], float(n - 1) + 2.0f);
  EXPECT_EQ(other[0], -1.0f);
}

TEST_F(CommandListTest, CooperativeLaunchRunsTheKernel) {
  ze_kernel_handle_t add = apiKernel("add_vectors");
  uint32_t maxGroups = 0;
  ASSERT_ZE(zeKernelSuggestMaxCooperativeGroupCount(add, &maxGroups));
  ASSERT_GT(maxGroups, 0u);
  float *a = shared<float>(maxGroups), *sum = shared<float>(maxGroups);
  for (uint32_t i = 0; i < maxGroups; ++i) a[i] = float(i);
  setArguments(add, a, a, sum);
  ASSERT_ZE(zeKernelSetGroupSize(add, 1, 1, 1));
  ze_group_count_t groups{maxGroups, 1, 1};
  ASSERT_ZE(zeCommandListAppendLaunchCooperativeKernel(list, add, &groups, nullptr, 0, nullptr));
  EXPECT_EQ(sum[maxGroups - 1], 2.0f * float(maxGroups - 1));
}

TEST_F(CommandListTest, CopyEngineListsCopyButDoNotLaunchKernels) {
  ze_command_list_handle_t copyList = immediateList(ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS, 1);
  int *from = shared<int>(1), *to = shared<int>(1);
  *from = 42, *to = 0;
  ASSERT_ZE(zeCommandListAppendMemoryCopy(copyList, to, from, sizeof(int), nullptr, 0, nullptr));
  EXPECT_EQ(*to, 42);
  ze_kernel_handle_t empty = apiKernel("empty_kernel");
  ze_group_count_t groups{1, 1, 1};
  EXPECT_EQ(zeCommandListAppendLaunchKernel(copyList, empty, &groups, nullptr, 0, nullptr), ZE_RESULT_ERROR_INVALID_ARGUMENT);
}

TEST_F(CommandListTest, AForkedChildRunsKernelsOnTheDeviceItInherited) {
  ze_kernel_handle_t add = apiKernel("add_vectors");
  const uint32_t n = 4096;
  float *a = shared<float>(n), *sum = shared<float>(n);  // memfd-backed: shared with the child
  for (uint32_t i = 0; i < n; ++i) a[i] = float(i), sum[i] = 0.0f;
  setArguments(add, a, a, sum);
  launch(add, n / 64, 64);  // the parent's engine and worker threads are running now
  std::fill(sum, sum + n, 0.0f);
  const pid_t child = fork();
  if (child == 0) {
    ze_group_count_t groups{n / 64, 1, 1};
    const bool ok = zeCommandListAppendLaunchKernel(list, add, &groups, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS;
    _exit(ok ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(sum[i], 2.0f * float(i));
}

TEST_F(CommandListTest, GlobalTimestampsAreWrittenInOrder) {
  uint64_t* stamps = shared<uint64_t>(2);
  stamps[0] = stamps[1] = 0;
  ASSERT_ZE(zeCommandListAppendWriteGlobalTimestamp(list, &stamps[0], nullptr, 0, nullptr));
  ASSERT_ZE(zeCommandListAppendWriteGlobalTimestamp(list, &stamps[1], nullptr, 0, nullptr));
  EXPECT_GT(stamps[0], 0u);
  EXPECT_GE(stamps[1], stamps[0]);
}

TEST_F(CommandListTest, BadArgumentsAreRejectedWithoutCrashing) {
  int* memory = shared<int>(4);
  EXPECT_EQ(zeCommandListAppendMemoryCopy(nullptr, memory, memory, 4, nullptr, 0, nullptr), ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  EXPECT_EQ(zeCommandListAppendMemoryCopy(list, nullptr, memory, 4, nullptr, 0, nullptr), ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  EXPECT_EQ(zeCommandListAppendMemoryCopy(list, memory, memory, 4, nullptr, 2, nullptr), ZE_RESULT_ERROR_INVALID_SIZE);
  ze_event_handle_t nullEvents[1] = {nullptr};
  EXPECT_EQ(zeCommandListAppendMemoryCopy(list, memory, memory, 4, nullptr, 1, nullEvents), ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  EXPECT_EQ(zeCommandListClose(list), ZE_RESULT_ERROR_INVALID_ARGUMENT);  // immediate lists are never closed
  ze_command_list_desc_t desc{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC};
  desc.commandQueueGroupOrdinal = 9;
  ze_command_list_handle_t handle = nullptr;
  EXPECT_EQ(zeCommandListCreate(context, device, &desc, &handle), ZE_RESULT_ERROR_INVALID_ARGUMENT);
}

}  // namespace
}  // namespace loom::test
