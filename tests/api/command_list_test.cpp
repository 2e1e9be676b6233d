// The command list object: regular lists (record, close, execute again and again, reset) and
// immediate lists, with every kind of append: copies, fills, regions, barriers, kernel launches
// direct, indirect and cooperative, timestamps, prefetch and advice.
#include <algorithm>
#include <numeric>

#include "ze_test_helpers.h"

namespace loom::test {
namespace {

class CommandListTest : public ZeTest {
 protected:
  // add_vectors over n floats: sum = a + b with a[i] = i and b[i] = 2; sum starts at 0.
  struct VectorAdd {
    ze_kernel_handle_t kernel;
    float *a, *b, *sum;
    uint32_t n;
  };
  VectorAdd vectorAdd(uint32_t n, uint32_t groupSize = 16) {
    VectorAdd v{apiKernel("add_vectors"), shared<float>(n), shared<float>(n), shared<float>(n), n};
    for (uint32_t i = 0; i < n; ++i) v.a[i] = float(i), v.b[i] = 2.0f, v.sum[i] = 0.0f;
    setArguments(v.kernel, v.a, v.b, v.sum);
    EXPECT_ZE(zeKernelSetGroupSize(v.kernel, groupSize, 1, 1));
    return v;
  }
  // Fills `size` bytes with a pattern of `patternSize` bytes 1, 2, 3... on `on` and checks every
  // byte and that the byte after the end is untouched.
  void checkFill(ze_command_list_handle_t on, size_t patternSize, size_t size, bool regular = false) {
    std::vector<uint8_t> pattern(patternSize);
    std::iota(pattern.begin(), pattern.end(), uint8_t(1));
    uint8_t* buffer = shared<uint8_t>(size + 16);
    std::fill(buffer, buffer + size + 16, 0xee);
    ASSERT_ZE(zeCommandListAppendMemoryFill(on, buffer, pattern.data(), patternSize, size, nullptr, 0, nullptr));
    if (regular) {
      ASSERT_ZE(zeCommandListClose(on));
      execute(on);
    }
    for (size_t i = 0; i < size; ++i)
      ASSERT_EQ(buffer[i], pattern[i % patternSize]) << "pattern size " << patternSize << " size " << size << " at " << i;
    EXPECT_EQ(buffer[size], 0xee) << "pattern size " << patternSize << " size " << size;
  }
};

TEST_F(CommandListTest, ARegularListCopiesWhenExecuted) {
  const size_t n = 100'000;
  uint8_t *source = shared<uint8_t>(n), *destination = deviceMemory<uint8_t>(n);
  for (size_t i = 0; i < n; ++i) source[i] = uint8_t(i * 13);
  upload(destination, std::vector<uint8_t>(n, 0));
  ze_command_list_handle_t l = regularList();
  ASSERT_ZE(zeCommandListAppendMemoryCopy(l, destination, source, n, nullptr, 0, nullptr));
  ASSERT_ZE(zeCommandListClose(l));
  EXPECT_EQ(download(destination + n - 1, 1)[0], 0) << "nothing runs before execution";
  execute(l);
  const std::vector<uint8_t> copied = download(destination, n);
  EXPECT_TRUE(std::equal(source, source + n, copied.begin()));
}

TEST_F(CommandListTest, ZeroSizedCopiesAndFillsDoNothing) {
  int *source = shared<int>(1), *destination = shared<int>(1);
  *source = 1, *destination = 2;
  ASSERT_ZE(zeCommandListAppendMemoryCopy(list, destination, source, 0, nullptr, 0, nullptr));
  const int pattern = 3;
  ASSERT_ZE(zeCommandListAppendMemoryFill(list, destination, &pattern, sizeof(pattern), 0, nullptr, 0, nullptr));
  EXPECT_EQ(*destination, 2);
}

TEST_F(CommandListTest, FillRepeatsEveryPatternSizeOverWholePatterns) {
  for (size_t patternSize = 1; patternSize <= 128; patternSize *= 2) checkFill(list, patternSize, 4 * patternSize);
}

TEST_F(CommandListTest, FillEndsWithAPartialPatternWhenTheSizeIsNotAMultiple) {
  for (size_t patternSize = 1; patternSize <= 128; patternSize *= 2) {
    checkFill(list, patternSize, 3 * patternSize + patternSize / 2 + 1);
    checkFill(list, patternSize, 7);
  }
}

TEST_F(CommandListTest, FillOfAMegabyteOnARegularListAndOnTheCopyEngine) {
  checkFill(regularList(), 4, (1 << 20) + 3, /*regular=*/true);
  checkFill(immediateList(ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS, 1), 16, (1 << 20) + 5);
}

TEST_F(CommandListTest, FillRejectsPatternsThatAreNotPowersOfTwoOrTooLarge) {
  uint8_t* buffer = shared<uint8_t>(512);
  const uint8_t pattern[256] = {1, 2, 3};
  EXPECT_EQ(zeCommandListAppendMemoryFill(list, buffer, pattern, 3, 64, nullptr, 0, nullptr), ZE_RESULT_ERROR_INVALID_SIZE);
  EXPECT_EQ(zeCommandListAppendMemoryFill(list, buffer, pattern, 256, 512, nullptr, 0, nullptr), ZE_RESULT_ERROR_INVALID_SIZE);
  EXPECT_EQ(zeCommandListAppendMemoryFill(list, buffer, pattern, 0, 64, nullptr, 0, nullptr), ZE_RESULT_ERROR_INVALID_SIZE);
}

TEST_F(CommandListTest, CopyRegionCopiesA3dBoxBetweenPitches) {
  // Source 16 x 8 x 4 bytes; destination 32 x 10 x 5 bytes.
  uint8_t* source = shared<uint8_t>(16 * 8 * 4);
  uint8_t* destination = shared<uint8_t>(32 * 10 * 5);
  std::iota(source, source + 16 * 8 * 4, uint8_t(0));
  std::fill(destination, destination + 32 * 10 * 5, 0);
  const ze_copy_region_t from{2, 1, 1, 5, 3, 2}, to{7, 4, 2, 5, 3, 2};
  ASSERT_ZE(zeCommandListAppendMemoryCopyRegion(list, destination, &to, 32, 320, source, &from, 16, 128, nullptr, 0, nullptr));
  size_t copied = 0;
  for (int z = 0; z < 5; ++z)
    for (int y = 0; y < 10; ++y)
      for (int x = 0; x < 32; ++x) {
        const bool inside = z >= 2 && z < 4 && y >= 4 && y < 7 && x >= 7 && x < 12;
        const uint8_t expected = inside ? source[(z - 1) * 128 + (y - 3) * 16 + x - 5] : 0;
        ASSERT_EQ(destination[z * 320 + y * 32 + x], expected) << x << "," << y << "," << z;
        copied += inside;
      }
  EXPECT_EQ(copied, 5u * 3u * 2u);
}

TEST_F(CommandListTest, CopyRegionWithDepthZeroCopiesA2dRectangle) {
  uint8_t* source = shared<uint8_t>(16 * 8);
  uint8_t* destination = shared<uint8_t>(32 * 8);
  std::iota(source, source + 16 * 8, uint8_t(1));
  std::fill(destination, destination + 32 * 8, 0);
  const ze_copy_region_t from{3, 2, 0, 4, 5, 0}, to{10, 1, 0, 4, 5, 0};
  ASSERT_ZE(zeCommandListAppendMemoryCopyRegion(list, destination, &to, 32, 0, source, &from, 16, 0, nullptr, 0, nullptr));
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 32; ++x) {
      const bool inside = y >= 1 && y < 6 && x >= 10 && x < 14;
      ASSERT_EQ(destination[y * 32 + x], inside ? source[(y + 1) * 16 + x - 7] : 0) << x << "," << y;
    }
}

TEST_F(CommandListTest, CopyRegionRejectsRegionsOfDifferentSizes) {
  uint8_t* memory = shared<uint8_t>(32 * 8);
  const ze_copy_region_t small{0, 0, 0, 4, 2, 1}, wide{0, 0, 0, 5, 2, 1};
  EXPECT_EQ(zeCommandListAppendMemoryCopyRegion(list, memory, &wide, 32, 0, memory + 128, &small, 16, 0, nullptr, 0, nullptr),
            ZE_RESULT_ERROR_INVALID_ARGUMENT);
}

TEST_F(CommandListTest, CopyRegionRejectsOverlappingRegions) {
  // Source bytes 0..3 and 32..35, destination bytes 2..5 and 34..37 of one allocation.
  uint8_t* memory = shared<uint8_t>(32 * 8);
  const ze_copy_region_t source{0, 0, 0, 4, 2, 1}, shifted{2, 0, 0, 4, 2, 1};
  EXPECT_EQ(zeCommandListAppendMemoryCopyRegion(list, memory, &shifted, 32, 0, memory, &source, 32, 0, nullptr, 0, nullptr),
            ZE_RESULT_ERROR_OVERLAPPING_REGIONS);
}

TEST_F(CommandListTest, BarriersOrderCommandsOfARegularList) {
  int *a = shared<int>(1), *b = shared<int>(1), *c = shared<int>(1);
  *a = 1, *b = 0, *c = 0;
  ze_command_list_handle_t l = regularList();
  ASSERT_ZE(zeCommandListAppendMemoryCopy(l, b, a, sizeof(int), nullptr, 0, nullptr));
  ASSERT_ZE(zeCommandListAppendBarrier(l, nullptr, 0, nullptr));
  const void* ranges[1] = {b};
  const size_t sizes[1] = {sizeof(int)};
  ASSERT_ZE(zeCommandListAppendMemoryRangesBarrier(l, 1, sizes, ranges, nullptr, 0, nullptr));
  ASSERT_ZE(zeCommandListAppendMemoryCopy(l, c, b, sizeof(int), nullptr, 0, nullptr));
  ASSERT_ZE(zeCommandListClose(l));
  execute(l);
  EXPECT_EQ(*c, 1);
}

TEST_F(CommandListTest, ABarrierSignalsItsEventWhenEverythingBeforeItIsDone) {
  ze_event_handle_t gate = hostVisibleEvent(), done = hostVisibleEvent();
  ze_command_list_handle_t async = immediateList(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  int *source = shared<int>(1), *destination = shared<int>(1);
  *source = 4, *destination = 0;
  ASSERT_ZE(zeCommandListAppendMemoryCopy(async, destination, source, sizeof(int), nullptr, 1, &gate));
  ASSERT_ZE(zeCommandListAppendBarrier(async, done, 0, nullptr));
  EXPECT_EQ(zeEventQueryStatus(done), ZE_RESULT_NOT_READY);
  ASSERT_ZE(zeEventHostSignal(gate));
  ASSERT_ZE(zeEventHostSynchronize(done, kTimeout));
  EXPECT_EQ(*destination, 4);
}

TEST_F(CommandListTest, AClosedListRunsAnyNumberOfTimes) {
  VectorAdd v = vectorAdd(1, 1);
  v.a[0] = 1.0f;
  setArguments(v.kernel, v.a, v.a, v.a);  // a[0] doubles on every run
  ze_command_list_handle_t l = regularList();
  ze_group_count_t groups{1, 1, 1};
  ASSERT_ZE(zeCommandListAppendLaunchKernel(l, v.kernel, &groups, nullptr, 0, nullptr));
  ASSERT_ZE(zeCommandListClose(l));
  for (int run = 0; run < 5; ++run) execute(l);
  EXPECT_EQ(v.a[0], 32.0f);
}

TEST_F(CommandListTest, ResetEmptiesAListThatCanThenBeRecordedAgain) {
  int *source = shared<int>(2), *destination = shared<int>(2);
  source[0] = 10, source[1] = 20, destination[0] = destination[1] = 0;
  ze_command_list_handle_t l = regularList();
  ASSERT_ZE(zeCommandListAppendMemoryCopy(l, &destination[0], &source[0], sizeof(int), nullptr, 0, nullptr));
  ASSERT_ZE(zeCommandListClose(l));
  execute(l);
  EXPECT_EQ(destination[0], 10);
  ASSERT_ZE(zeCommandListReset(l));
  destination[0] = 0;
  ASSERT_ZE(zeCommandListAppendMemoryCopy(l, &destination[1], &source[1], sizeof(int), nullptr, 0, nullptr));
  ASSERT_ZE(zeCommandListClose(l));
  execute(l);
  EXPECT_EQ(destination[0], 0) << "the first recording is gone";
  EXPECT_EQ(destination[1], 20);
}

TEST_F(CommandListTest, AppendingToAClosedListIsAnError) {
  int* memory = shared<int>(2);
  ze_command_list_handle_t l = regularList();
  ASSERT_ZE(zeCommandListClose(l));
  EXPECT_EQ(zeCommandListAppendBarrier(l, nullptr, 0, nullptr), ZE_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(zeCommandListAppendMemoryCopy(l, memory, memory + 1, sizeof(int), nullptr, 0, nullptr),
            ZE_RESULT_ERROR_INVALID_ARGUMENT);
  ze_kernel_handle_t empty = apiKernel("empty_kernel");
  ze_group_count_t groups{1, 1, 1};
  EXPECT_EQ(zeCommandListAppendLaunchKernel(l, empty, &groups, nullptr, 0, nullptr), ZE_RESULT_ERROR_INVALID_ARGUMENT);
}

TEST_F(CommandListTest, ASynchronousImmediateListHasFinishedWhenTheAppendReturns) {
  VectorAdd v = vectorAdd(1 << 16, 64);
  ze_group_count_t groups{v.n / 64, 1, 1};
  ASSERT_ZE(zeCommandListAppendLaunchKernel(list, v.kernel, &groups, nullptr, 0, nullptr));
  for (uint32_t i = 0; i < v.n; ++i) ASSERT_EQ(v.sum[i], float(i) + 2.0f) << i;
}

TEST_F(CommandListTest, AnAsynchronousImmediateListFinishesByItsSignalEvent) {
  VectorAdd v = vectorAdd(1 << 16, 64);
  ze_event_handle_t done = hostVisibleEvent();
  ze_command_list_handle_t async = immediateList(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  ze_group_count_t groups{v.n / 64, 1, 1};
  ASSERT_ZE(zeCommandListAppendLaunchKernel(async, v.kernel, &groups, nullptr, 0, nullptr));
  ASSERT_ZE(zeCommandListAppendBarrier(async, done, 0, nullptr));
  ASSERT_ZE(zeEventHostSynchronize(done, kTimeout));
  for (uint32_t i = 0; i < v.n; ++i) ASSERT_EQ(v.sum[i], float(i) + 2.0f) << i;
}

TEST_F(CommandListTest, AnAsynchronousImmediateListRunsItsAppendsInOrder) {
  ze_command_list_handle_t async = immediateList(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
  ze_event_handle_t done = hostVisibleEvent();
  int* values = shared<int>(65);
  values[0] = 1;
  for (int i = 1; i <= 64; ++i)
    ASSERT_ZE(zeCommandListAppendMemoryCopy(async, &values[i], &values[i - 1], sizeof(int), nullptr, 0, nullptr));
  ASSERT_ZE(zeCommandListAppendSignalEvent(async, done));
  ASSERT_ZE(zeEventHostSynchronize(done, kTimeout));
  EXPECT_EQ(values[64], 1);
}

TEST_F(CommandListTest, AnIndirectLaunchReadsItsGroupCountWhenItRuns) {
  VectorAdd v = vectorAdd(256);
  auto* groups = shared<ze_group_count_t>(1);
  groups[0] = {0, 1, 1};
  ze_command_list_handle_t l = regularList();
  ASSERT_ZE(zeCommandListAppendLaunchKernelIndirect(l, v.kernel, groups, nullptr, 0, nullptr));
  ASSERT_ZE(zeCommandListClose(l));
  groups[0].groupCountX = v.n / 16 / 2;  // set after recording: half the vector
  execute(l);
  EXPECT_EQ(v.sum[v.n / 2 - 1], float(v.n / 2 - 1) + 2.0f);
  EXPECT_EQ(v.sum[v.n / 2], 0.0f);
}

TEST_F(CommandListTest, MultipleIndirectLaunchesRunAsManyKernelsAsTheCountSays) {
  VectorAdd first = vectorAdd(256), second = vectorAdd(256);
  auto* groups = shared<ze_group_count_t>(2);
  groups[0] = {16, 1, 1}, groups[1] = {16, 1, 1};
  uint32_t* count = shared<uint32_t>(1);
  *count = 1;  // of the two kernels, only the first runs
  ze_kernel_handle_t both[2] = {first.kernel, second.kernel};
  ASSERT_ZE(zeCommandListAppendLaunchMultipleKernelsIndirect(list, 2, both, count, groups, nullptr, 0, nullptr));
  EXPECT_EQ(first.sum[255], 255.0f + 2.0f);
  EXPECT_EQ(second.sum[0], 0.0f);
  *count = 2;
  groups[1] = {8, 1, 1};  // the second launch covers half its vector
  ASSERT_ZE(zeCommandListAppendLaunchMultipleKernelsIndirect(list, 2, both, count, groups, nullptr, 0, nullptr));
  EXPECT_EQ(second.sum[127], 127.0f + 2.0f);
  EXPECT_EQ(second.sum[128], 0.0f);
}

TEST_F(CommandListTest, ACooperativeLaunchOfTheSuggestedGroupCountRuns) {
  uint32_t maxGroups = 0;
  ze_kernel_handle_t add = apiKernel("add_vectors");
  ASSERT_ZE(zeKernelSetGroupSize(add, 1, 1, 1));
  ASSERT_ZE(zeKernelSuggestMaxCooperativeGroupCount(add, &maxGroups));
  ASSERT_GT(maxGroups, 0u);
  VectorAdd v = vectorAdd(maxGroups, 1);
  ze_group_count_t groups{maxGroups, 1, 1};
  ASSERT_ZE(zeCommandListAppendLaunchCooperativeKernel(list, v.kernel, &groups, nullptr, 0, nullptr));
  EXPECT_EQ(v.sum[maxGroups - 1], float(maxGroups - 1) + 2.0f);
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

TEST_F(CommandListTest, GlobalTimestampsAreWrittenInOrderWithinTheHostsView) {
  uint64_t* stamps = shared<uint64_t>(2);
  stamps[0] = stamps[1] = 0;
  uint64_t hostTime = 0, before = 0, after = 0;
  ASSERT_ZE(zeDeviceGetGlobalTimestamps(device, &hostTime, &before));
  ASSERT_ZE(zeCommandListAppendWriteGlobalTimestamp(list, &stamps[0], nullptr, 0, nullptr));
  ASSERT_ZE(zeCommandListAppendWriteGlobalTimestamp(list, &stamps[1], nullptr, 0, nullptr));
  ASSERT_ZE(zeDeviceGetGlobalTimestamps(device, &hostTime, &after));
  EXPECT_LE(before, stamps[0]);
  EXPECT_LE(stamps[0], stamps[1]);
  EXPECT_LE(stamps[1], after);
}

TEST_F(CommandListTest, QueryKernelTimestampsCopiesEachEventsResult) {
  ze_event_pool_handle_t pool = eventPool(ZE_EVENT_POOL_FLAG_HOST_VISIBLE | ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP, 2);
  ze_event_handle_t timed[2] = {event(pool, 0), event(pool, 1)};
  VectorAdd v = vectorAdd(1024);
  ze_group_count_t groups{v.n / 16, 1, 1};
  ASSERT_ZE(zeCommandListAppendLaunchKernel(list, v.kernel, &groups, timed[0], 0, nullptr));
  ASSERT_ZE(zeCommandListAppendLaunchKernel(list, v.kernel, &groups, timed[1], 0, nullptr));
  auto* results = shared<ze_kernel_timestamp_result_t>(2);
  std::fill(reinterpret_cast<char*>(results), reinterpret_cast<char*>(results + 2), 0);
  ASSERT_ZE(zeCommandListAppendQueryKernelTimestamps(list, 2, timed, results, nullptr, nullptr, 0, nullptr));
  for (int i = 0; i < 2; ++i) {
    ze_kernel_timestamp_result_t direct{};
    ASSERT_ZE(zeEventQueryKernelTimestamp(timed[i], &direct));
    EXPECT_EQ(results[i].global.kernelStart, direct.global.kernelStart) << i;
    EXPECT_EQ(results[i].global.kernelEnd, direct.global.kernelEnd) << i;
    EXPECT_EQ(results[i].context.kernelEnd, direct.context.kernelEnd) << i;
  }
  EXPECT_LE(results[0].global.kernelEnd, results[1].global.kernelStart) << "in-order list";
}

TEST_F(CommandListTest, QueryKernelTimestampsHonoursOffsets) {
  ze_event_handle_t timed = hostVisibleEvent(ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP);
  VectorAdd v = vectorAdd(64);
  ze_group_count_t groups{v.n / 16, 1, 1};
  ASSERT_ZE(zeCommandListAppendLaunchKernel(list, v.kernel, &groups, timed, 0, nullptr));
  auto* results = shared<ze_kernel_timestamp_result_t>(3);
  std::fill(reinterpret_cast<char*>(results), reinterpret_cast<char*>(results + 3), 0);
  const size_t offsets[1] = {2 * sizeof(ze_kernel_timestamp_result_t)};
  ASSERT_ZE(zeCommandListAppendQueryKernelTimestamps(list, 1, &timed, results, offsets, nullptr, 0, nullptr));
  EXPECT_EQ(results[0].global.kernelStart, 0u);
  EXPECT_GT(results[2].global.kernelStart, 0u);
  EXPECT_GE(results[2].global.kernelEnd, results[2].global.kernelStart);
}

TEST_F(CommandListTest, PrefetchAndMemAdviceAreAccepted) {
  float* memory = shared<float>(1024);
  ze_command_list_handle_t l = regularList();
  ASSERT_ZE(zeCommandListAppendMemoryPrefetch(l, memory, 1024 * sizeof(float)));
  for (auto advice : {ZE_MEMORY_ADVICE_SET_READ_MOSTLY, ZE_MEMORY_ADVICE_CLEAR_READ_MOSTLY,
                      ZE_MEMORY_ADVICE_SET_PREFERRED_LOCATION, ZE_MEMORY_ADVICE_BIAS_CACHED})
    ASSERT_ZE(zeCommandListAppendMemAdvise(l, device, memory, 1024 * sizeof(float), advice)) << advice;
  EXPECT_EQ(zeCommandListAppendMemAdvise(l, device, memory, 16, static_cast<ze_memory_advice_t>(99)),
            ZE_RESULT_ERROR_INVALID_ENUMERATION);
  ASSERT_ZE(zeCommandListClose(l));
  execute(l);
}

// "An immediate command list is not required to be closed or reset. However, usage will be
// honored" (the specification's programming guide): closing succeeds and the list keeps running.
TEST_F(CommandListTest, AnImmediateListMayBeClosedAndKeepsRunningWhatIsAppended) {
  checkFill(list, 4, 64);
  ASSERT_ZE(zeCommandListClose(list));
  ASSERT_ZE(zeCommandListClose(list));
  checkFill(list, 8, 128);
}

TEST_F(CommandListTest, AnOrdinalBeyondTheGroupsIsAnInvalidArgument) {
  ze_command_list_desc_t desc{ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC};
  desc.commandQueueGroupOrdinal = 9;
  ze_command_list_handle_t handle = nullptr;
  EXPECT_EQ(zeCommandListCreate(context, device, &desc, &handle), ZE_RESULT_ERROR_INVALID_ARGUMENT);
  ze_command_queue_desc_t queueDesc{ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
  queueDesc.ordinal = 9;
  EXPECT_EQ(zeCommandListCreateImmediate(context, device, &queueDesc, &handle), ZE_RESULT_ERROR_INVALID_ARGUMENT);
}

TEST_F(CommandListTest, AForkedChildRunsKernelsOnTheDeviceItInherited) {
  SKIP_UNLESS_CPU_DEVICE("a forked child can use its parent's device (CUDA is not usable after fork)");
  VectorAdd v = vectorAdd(4096, 64);
  ze_group_count_t groups{v.n / 64, 1, 1};
  ASSERT_ZE(zeCommandListAppendLaunchKernel(list, v.kernel, &groups, nullptr, 0, nullptr));  // engine threads now run
  std::fill(v.sum, v.sum + v.n, 0.0f);  // shared memory is memfd-backed: the child's writes are seen here
  ASSERT_EQ(runInChildProcess([&] {
              return zeCommandListAppendLaunchKernel(list, v.kernel, &groups, nullptr, 0, nullptr) == ZE_RESULT_SUCCESS;
            }),
            0);
  for (uint32_t i = 0; i < v.n; ++i) ASSERT_EQ(v.sum[i], float(i) + 2.0f) << i;
}

}  // namespace
}  // namespace loom::test
