// Implicit scaling through Level Zero: the CPU root device over LOOM_CpuSubDevices tiles splits
// each launch among them. Runs as its own CTest entries, with 2 and with 3 tiles and
// LOOM_PrintDebugMessages=1 (see CMakeLists.txt): the messages say how each launch was split,
// which the tests read to know that the work really was divided.
#include <atomic>
#include <functional>
#include <string>

#include "../implicit_scaling_messages.h"
#include "ze_test_helpers.h"

namespace loom::test {
namespace {

constexpr uint32_t kRecordWords = 16;  // RECORD_WORDS of implicit_scaling_kernels.cl

class ImplicitScalingTest : public ZeTest {
 public:
  // For the helpers below, which are not members.
  using ZeTest::commandQueue;
  using ZeTest::list;
  using ZeTest::regularList;
  using ZeTest::setArguments;
  using ZeTest::shared;

 protected:
  void SetUp() override {
    if (!std::getenv("LOOM_CpuSubDevices")) GTEST_SKIP() << "run with LOOM_CpuSubDevices=N";
    const char* messages = std::getenv("LOOM_PrintDebugMessages");
    if (!messages || std::string(messages) != "1") GTEST_SKIP() << "run with LOOM_PrintDebugMessages=1: the tests read them";
    ZeTest::SetUp();
    if (HasFatalFailure() || IsSkipped()) return;
    SKIP_UNLESS_CPU_DEVICE("tiles by LOOM_CpuSubDevices");
    ASSERT_ZE(zeDeviceGetSubDevices(device, &tiles, nullptr));
    ASSERT_GE(tiles, 2u) << "the root device should be over its tiles";
  }

  ze_kernel_handle_t scalingKernel(const char* name) {
    if (!scalingModule) scalingModule = module("implicit_scaling_kernels.spv");
    return kernel(scalingModule, name);
  }

  uint32_t tiles = 0;
  ze_module_handle_t scalingModule = nullptr;
};

// Launches record_ids over `groups` groups of `groupSize` and checks every record against the
// unsplit launch; returns the debug messages of the launch.
std::string launchRecordingIds(ImplicitScalingTest& test, ze_kernel_handle_t k, const uint32_t groups[3],
                               const uint32_t groupSize[3]) {
  uint32_t global[3];
  for (int d = 0; d < 3; ++d) global[d] = groups[d] * groupSize[d];
  const size_t items = size_t(global[0]) * global[1] * global[2];
  uint32_t* records = test.shared<uint32_t>(items * kRecordWords);
  std::fill(records, records + items * kRecordWords, 0u);
  EXPECT_ZE(zeKernelSetGroupSize(k, groupSize[0], groupSize[1], groupSize[2]));
  test.setArguments(k, records);
  const ze_group_count_t count{groups[0], groups[1], groups[2]};
  const std::string messages = debugMessagesOf(
      [&] { EXPECT_ZE(zeCommandListAppendLaunchKernel(test.list, k, &count, nullptr, 0, nullptr)); });
  for (size_t linear = 0; linear < items; ++linear) {
    const uint32_t id[3] = {uint32_t(linear % global[0]), uint32_t(linear / global[0] % global[1]),
                            uint32_t(linear / (size_t(global[0]) * global[1]))};
    const uint32_t* record = records + linear * kRecordWords;
    for (int d = 0; d < 3; ++d) {
      EXPECT_EQ(record[d], id[d]) << "global id " << d << " of work-item " << linear;
      EXPECT_EQ(record[3 + d], id[d] / groupSize[d]) << "group id " << d << " of work-item " << linear;
      EXPECT_EQ(record[6 + d], groups[d]) << "number of groups " << d;
      EXPECT_EQ(record[9 + d], 0u) << "global offset " << d;
      EXPECT_EQ(record[12 + d], global[d]) << "global size " << d;
    }
    const uint32_t local = id[0] % groupSize[0] + id[1] % groupSize[1] * 1000 + id[2] % groupSize[2] * 1000000;
    EXPECT_EQ(record[15], local + 1) << "work-item " << linear << " ran once, with its local id";
    if (::testing::Test::HasFailure()) break;
  }
  return messages;
}

TEST_F(ImplicitScalingTest, SplitLaunchesSeeTheIdsOfTheUnsplitLaunch) {
  ze_kernel_handle_t k = scalingKernel("record_ids");
  for (uint32_t many : {1u, 7u, 64u}) {
    SCOPED_TRACE(many);
    const uint32_t shapes[3][2][3] = {{{many, 1, 1}, {4, 1, 1}}, {{many, 3, 1}, {2, 2, 1}}, {{2, 3, many}, {2, 1, 2}}};
    for (const auto& shape : shapes) {
      const std::string messages = launchRecordingIds(*this, k, shape[0], shape[1]);
      const uint64_t groups = uint64_t(shape[0][0]) * shape[0][1] * shape[0][2];
      if (groups < tiles) {
        EXPECT_NE(messages.find("runs on tile 0"), std::string::npos) << messages;
      } else if (many >= tiles) {
        EXPECT_TRUE(splitAmongAllTiles(messages, "record_ids", tiles)) << messages;
      }
    }
  }
}

TEST_F(ImplicitScalingTest, AGlobalAtomicCounterIsSharedByAllTiles) {
  ze_kernel_handle_t k = scalingKernel("count_work_items");
  uint32_t* counter = shared<uint32_t>(1);
  *counter = 0;
  setArguments(k, counter);
  const std::string messages = debugMessagesOf([&] { launch(k, 4096, 64); });
  EXPECT_EQ(*counter, 4096u * 64u);
  EXPECT_TRUE(splitAmongAllTiles(messages, "count_work_items", tiles)) << messages;
}

TEST_F(ImplicitScalingTest, AKernelReadsWhatThePreviousSplitKernelWroteOnOtherTiles) {
  const uint32_t n = 1 << 14;
  uint32_t* squares = deviceMemory<uint32_t>(n);
  uint32_t* reversed = deviceMemory<uint32_t>(n);
  ze_kernel_handle_t write = scalingKernel("write_squares");
  ze_kernel_handle_t read = scalingKernel("read_reversed");
  setArguments(write, squares);
  setArguments(read, squares, reversed);
  const std::string messages = debugMessagesOf([&] {
    launch(write, n / 64, 64);
    launch(read, n / 64, 64);
  });
  EXPECT_TRUE(splitAmongAllTiles(messages, "read_reversed", tiles)) << messages;
  const std::vector<uint32_t> result = download(reversed, n);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(result[i], (n - 1 - i) * (n - 1 - i) + 1) << i;
}

TEST_F(ImplicitScalingTest, RegularListsRunTheirSplitLaunchesAgainAndAgain) {
  const uint32_t n = 1 << 12;
  uint32_t* data = shared<uint32_t>(n);
  std::fill(data, data + n, 0u);
  ze_kernel_handle_t k = scalingKernel("increment");
  setArguments(k, data);
  ze_command_list_handle_t regular = regularList();
  launch(k, n / 32, 32, regular);
  ASSERT_ZE(zeCommandListAppendBarrier(regular, nullptr, 0, nullptr));
  launch(k, n / 32, 32, regular);
  ASSERT_ZE(zeCommandListClose(regular));
  const std::string messages = debugMessagesOf([&] {
    for (int round = 0; round < 5; ++round) execute(regular);
  });
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(data[i], 10u) << i;
  EXPECT_TRUE(splitAmongAllTiles(messages, "increment", tiles)) << messages;
}

// A launch whose groups on the last tile wait for the host: its event must not signal before them.
class HeldLaunch {
 public:
  HeldLaunch(ImplicitScalingTest& test, ze_kernel_handle_t k, ze_event_handle_t event, uint32_t tiles)
      : release_(test.shared<uint32_t>(1)), done_(test.shared<uint32_t>(1)) {
    *release_ = 0, *done_ = 0;
    // 1-D and a multiple of the tiles: split along x, the last tile running the last groups.
    const uint32_t heldFrom = kGroups - kGroups / tiles;
    test.setArguments(k, release_, done_, heldFrom);
    EXPECT_ZE(zeKernelSetGroupSize(k, kGroupSize, 1, 1));
    const ze_group_count_t count{kGroups, 1, 1};
    list_ = test.regularList();
    EXPECT_ZE(zeCommandListAppendLaunchKernel(list_, k, &count, event, 0, nullptr));
    EXPECT_ZE(zeCommandListClose(list_));
    queue_ = test.commandQueue();
    EXPECT_ZE(zeCommandQueueExecuteCommandLists(queue_, 1, &list_, nullptr));
  }
  // True once the groups no tile holds back have all counted themselves.
  bool unheldGroupsDone(uint32_t tiles) const {
    return std::atomic_ref<uint32_t>(*done_).load() >= (kGroups - kGroups / tiles) * kGroupSize;
  }
  void release() { std::atomic_ref<uint32_t>(*release_).store(1); }
  uint32_t done() const { return std::atomic_ref<uint32_t>(*done_).load(); }
  ze_command_queue_handle_t queue() const { return queue_; }

  static constexpr uint32_t kGroups = 12;  // a multiple of 2 and 3 tiles
  static constexpr uint32_t kGroupSize = 8;

 private:
  uint32_t* release_;
  uint32_t* done_;
  ze_command_list_handle_t list_ = nullptr;
  ze_command_queue_handle_t queue_ = nullptr;
};

TEST_F(ImplicitScalingTest, AnEventSignalsOnlyOnceEveryTileFinished) {
  ze_event_handle_t finished = hostVisibleEvent();
  std::string messages;
  ::testing::internal::CaptureStderr();
  HeldLaunch held(*this, scalingKernel("hold_last_groups"), finished, tiles);
  // Wait (bounded) until the other tiles' groups are done: the event still waits for the last one.
  for (int polls = 0; polls < 20000 && !held.unheldGroupsDone(tiles); ++polls) usleep(1000);
  EXPECT_TRUE(held.unheldGroupsDone(tiles));
  EXPECT_EQ(zeEventQueryStatus(finished), ZE_RESULT_NOT_READY) << "signaled before the last tile finished";
  held.release();
  EXPECT_ZE(zeEventHostSynchronize(finished, kTimeout));
  EXPECT_ZE(zeCommandQueueSynchronize(held.queue(), kTimeout));
  messages = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(held.done(), HeldLaunch::kGroups * HeldLaunch::kGroupSize);
  EXPECT_TRUE(splitAmongAllTiles(messages, "hold_last_groups", tiles)) << messages;
}

TEST_F(ImplicitScalingTest, AKernelTimestampSpansEveryTilesPart) {
  ze_event_handle_t timed = hostVisibleEvent(ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP);
  uint64_t hostTime = 0, before = 0, released = 0, after = 0;
  ASSERT_ZE(zeDeviceGetGlobalTimestamps(device, &hostTime, &before));
  ::testing::internal::CaptureStderr();
  HeldLaunch held(*this, scalingKernel("hold_last_groups"), timed, tiles);
  for (int polls = 0; polls < 20000 && !held.unheldGroupsDone(tiles); ++polls) usleep(1000);
  // The last tile's groups end after this moment, so the kernel's end must too.
  ASSERT_ZE(zeDeviceGetGlobalTimestamps(device, &hostTime, &released));
  held.release();
  ASSERT_ZE(zeEventHostSynchronize(timed, kTimeout));
  ASSERT_ZE(zeCommandQueueSynchronize(held.queue(), kTimeout));
  const std::string messages = ::testing::internal::GetCapturedStderr();
  EXPECT_TRUE(splitAmongAllTiles(messages, "hold_last_groups", tiles)) << messages;
  ASSERT_ZE(zeDeviceGetGlobalTimestamps(device, &hostTime, &after));
  ze_kernel_timestamp_result_t result{};
  ASSERT_ZE(zeEventQueryKernelTimestamp(timed, &result));
  EXPECT_LE(before, result.global.kernelStart);
  EXPECT_LE(result.global.kernelStart, released) << "the first tile started before the host released the last";
  EXPECT_GE(result.global.kernelEnd, released) << "the end is the last tile's";
  EXPECT_LE(result.global.kernelEnd, after);
  // One result per tile, in tile order: the last tile's part ends after the release, and the
  // kernel's timestamp spans them all.
  uint32_t count = 0;
  ASSERT_ZE(zeEventQueryTimestampsExp(timed, device, &count, nullptr));
  ASSERT_EQ(count, tiles);
  std::vector<ze_kernel_timestamp_result_t> perTile(count);
  ASSERT_ZE(zeEventQueryTimestampsExp(timed, device, &count, perTile.data()));
  uint64_t earliest = UINT64_MAX, latest = 0;
  for (const ze_kernel_timestamp_result_t& tile : perTile) {
    EXPECT_LE(before, tile.global.kernelStart);
    EXPECT_LE(tile.global.kernelStart, tile.global.kernelEnd);
    earliest = std::min(earliest, tile.global.kernelStart);
    latest = std::max(latest, tile.global.kernelEnd);
  }
  EXPECT_GE(perTile.back().global.kernelEnd, released) << "the last tile held its groups until the release";
  EXPECT_LE(perTile.front().global.kernelEnd, perTile.back().global.kernelEnd);
  EXPECT_EQ(earliest, result.global.kernelStart);
  EXPECT_EQ(latest, result.global.kernelEnd);
}

TEST_F(ImplicitScalingTest, CopiesAndFillsAcrossChunksOfEveryTile) {
  const size_t words = (size_t(tiles) * 3 * (64 << 10) + 4096) / 4 + 3;  // chunks of every tile, and a ragged end
  uint32_t* memory = deviceMemory<uint32_t>(words);
  const uint32_t pattern = 0xa1b2c3d4;
  std::string messages = debugMessagesOf([&] {
    EXPECT_ZE(zeCommandListAppendMemoryFill(list, memory + 1, &pattern, sizeof(pattern), (words - 2) * 4, nullptr, 0, nullptr));
  });
  EXPECT_NE(messages.find("fill of"), std::string::npos) << messages;
  std::vector<uint32_t> result = download(memory, words);
  for (size_t i = 1; i + 1 < words; ++i) ASSERT_EQ(result[i], pattern) << i;
  std::vector<uint32_t> source(words);
  for (size_t i = 0; i < words; ++i) source[i] = uint32_t(i * 2654435761u);
  messages = debugMessagesOf([&] { upload(memory, source); });
  EXPECT_NE(messages.find("copy of"), std::string::npos) << messages;
  EXPECT_EQ(download(memory, words), source);
}

// Colored memory: a device allocation of the root is laid out in chunks of its tiles (64 KiB each,
// LOOM_MultiStorageGranularity's default, split evenly): these are the words of one that each tile
// owns two chunks of.
constexpr size_t kChunk = size_t(64) << 10;
size_t wordsOfTwoChunksPerTile(uint32_t tiles) { return size_t(tiles) * 2 * kChunk / 4; }

TEST_F(ImplicitScalingTest, ASplitKernelWritesEveryWordAcrossTheChunkBoundaries) {
  const size_t words = wordsOfTwoChunksPerTile(tiles);
  uint32_t* memory = deviceMemory<uint32_t>(words);
  ze_kernel_handle_t squares = scalingKernel("write_squares");
  setArguments(squares, memory);
  const std::string messages = debugMessagesOf([&] { launch(squares, uint32_t(words / 64), 64); });
  EXPECT_TRUE(splitAmongAllTiles(messages, "write_squares", tiles)) << messages;
  const std::vector<uint32_t> result = download(memory, words);
  for (size_t i = 0; i < words; ++i) ASSERT_EQ(result[i], uint32_t(i * i)) << "word " << i;
}

TEST_F(ImplicitScalingTest, ASmallCopyAcrossAChunkBoundaryIsSplitBetweenTheTwoOwners) {
  const size_t words = wordsOfTwoChunksPerTile(tiles);
  uint32_t* memory = deviceMemory<uint32_t>(words);
  const uint32_t zero = 0;
  ASSERT_ZE(zeCommandListAppendMemoryFill(list, memory, &zero, sizeof(zero), words * 4, nullptr, 0, nullptr));
  // 8 KiB around the end of tile 0's chunks: far smaller than tiles x granularity, so that only
  // the allocation's record of its owners splits it.
  const size_t boundary = 2 * kChunk / 4;
  std::vector<uint32_t> window(2048);
  for (size_t i = 0; i < window.size(); ++i) window[i] = uint32_t(0x5000 + i);
  const std::string messages = debugMessagesOf([&] {
    ASSERT_ZE(zeCommandListAppendMemoryCopy(list, memory + boundary - 1024, window.data(), window.size() * 4, nullptr, 0, nullptr));
  });
  EXPECT_NE(messages.find("copy of 8192 bytes split in 2 pieces"), std::string::npos) << messages;
  const std::vector<uint32_t> result = download(memory, words);
  for (size_t i = 0; i < words; ++i) {
    const bool written = i >= boundary - 1024 && i < boundary + 1024;
    ASSERT_EQ(result[i], written ? window[i - (boundary - 1024)] : 0u) << "word " << i;
  }
}

// What a parent asks of ImplicitScalingTest.DISABLED_WritesAcrossAChunkBoundaryThroughAnIpcHandle.
struct ColoredIpcWrite {
  ze_ipc_mem_handle_t handle;
  uint32_t words;  // written from the opened pointer on
};

uint32_t ipcPattern(size_t i) { return uint32_t(0xc0de0000 + i); }

// The other process's side: opens the handle on its own root device, writes the pattern across
// the chunk boundary with a split kernel of its own and a copy, and closes it.
TEST_F(ImplicitScalingTest, DISABLED_WritesAcrossAChunkBoundaryThroughAnIpcHandle) {
  CHILD_INPUT(ColoredIpcWrite, request);
  void* opened = nullptr;
  ASSERT_ZE(zeMemOpenIpcHandle(context, device, request.handle, 0, &opened));
  std::vector<uint32_t> pattern(request.words);
  for (size_t i = 0; i < pattern.size(); ++i) pattern[i] = ipcPattern(i);
  ASSERT_ZE(zeCommandListAppendMemoryCopy(list, opened, pattern.data(), pattern.size() * 4, nullptr, 0, nullptr));
  ze_kernel_handle_t increment = scalingKernel("increment");
  setArguments(increment, opened);
  launch(increment, request.words / 64, 64);
  ASSERT_ZE(zeMemCloseIpcHandle(context, opened));
}

TEST_F(ImplicitScalingTest, AnotherProcessWritesAcrossAChunkBoundaryThroughAnIpcHandle) {
  const size_t words = wordsOfTwoChunksPerTile(tiles);
  uint32_t* memory = deviceMemory<uint32_t>(words);
  const uint32_t zero = 0;
  ASSERT_ZE(zeCommandListAppendMemoryFill(list, memory, &zero, sizeof(zero), words * 4, nullptr, 0, nullptr));
  // From 4 KiB before the end of tile 0's chunks to as far past it, through an interior pointer.
  const size_t first = 2 * kChunk / 4 - 1024;
  ColoredIpcWrite request{{}, 2048};
  ASSERT_ZE(zeMemGetIpcHandle(context, memory + first, &request.handle));
  ASSERT_EQ(runTestInNewProcess("ImplicitScalingTest.DISABLED_WritesAcrossAChunkBoundaryThroughAnIpcHandle", bytesOf(request)), 0);
  const std::vector<uint32_t> result = download(memory, words);
  for (size_t i = 0; i < words; ++i) {
    const bool written = i >= first && i < first + request.words;
    ASSERT_EQ(result[i], written ? ipcPattern(i - first) + 1 : 0u) << "word " << i;
  }
}

// Runs as its own CTest entry with LOOM_EnableImplicitScaling=0: the root runs everything on tile 0.
// A kernel runs only on the device its module was built for within a hierarchy: the root's kernel
// holds one kernel per tile, a tile's kernel is one device's code. Appending either to the other's
// list is refused (it used to run the foreign kernel as the list's own, and crash).
TEST_F(ImplicitScalingTest, AKernelOfAnotherDeviceOfTheHierarchyIsRefused) {
  ze_device_handle_t tileHandles[2];
  uint32_t count = 2;
  ASSERT_ZE(zeDeviceGetSubDevices(device, &count, tileHandles));
  ze_kernel_handle_t ofRoot = scalingKernel("count_work_items");
  const ze_device_handle_t root = device;
  device = tileHandles[0];
  ze_kernel_handle_t ofTile = kernel(module("implicit_scaling_kernels.spv"), "count_work_items");
  ze_command_list_handle_t tileList = immediateList(ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
  device = root;
  uint32_t* counter = shared<uint32_t>(1);
  *counter = 0;
  for (ze_kernel_handle_t k : {ofRoot, ofTile}) {
    setArguments(k, counter);
    ASSERT_ZE(zeKernelSetGroupSize(k, 64, 1, 1));
  }
  const ze_group_count_t groups{4, 1, 1};
  EXPECT_EQ(zeCommandListAppendLaunchKernel(list, ofTile, &groups, nullptr, 0, nullptr), ZE_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(zeCommandListAppendLaunchKernel(tileList, ofRoot, &groups, nullptr, 0, nullptr), ZE_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_ZE(zeCommandListAppendLaunchKernel(list, ofRoot, &groups, nullptr, 0, nullptr));
  EXPECT_ZE(zeCommandListAppendLaunchKernel(tileList, ofTile, &groups, nullptr, 0, nullptr));
  EXPECT_EQ(*counter, 2u * 4u * 64u) << "each kernel ran on its own device";
}

TEST_F(ImplicitScalingTest, WithImplicitScalingOffTheRootRunsOnTileZero) {
  const char* enabled = std::getenv("LOOM_EnableImplicitScaling");
  if (!enabled || std::string(enabled) != "0") GTEST_SKIP() << "run with LOOM_EnableImplicitScaling=0";
  ze_kernel_handle_t k = scalingKernel("count_work_items");
  uint32_t* counter = shared<uint32_t>(1);
  *counter = 0;
  setArguments(k, counter);
  const std::string messages = debugMessagesOf([&] { launch(k, 4096, 64); });
  EXPECT_EQ(*counter, 4096u * 64u);
  EXPECT_EQ(messages.find("split along"), std::string::npos) << messages;
}

}  // namespace
}  // namespace loom::test
