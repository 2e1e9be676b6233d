// Implicit scaling through OpenCL: the CPU device over LOOM_CpuSubDevices tiles splits each
// NDRange among them. Runs as its own CTest entries, with 2 and with 3 tiles and
// LOOM_PrintDebugMessages=1 (see CMakeLists.txt), whose messages say how each launch was split.
#include <gtest/gtest.h>

#include <array>
#include <functional>
#include <string>

#include "cl_test_helpers.h"
#include "../implicit_scaling_messages.h"

namespace loom::test {
namespace {

constexpr size_t kRecordWords = 16;  // RECORD_WORDS of implicit_scaling_kernels.cl

class ClImplicitScalingTest : public ClTest {
 protected:
  void SetUp() override {
    const char* tilesWanted = std::getenv("LOOM_CpuSubDevices");
    if (!tilesWanted) GTEST_SKIP() << "run with LOOM_CpuSubDevices=N";
    const char* messages = std::getenv("LOOM_PrintDebugMessages");
    if (!messages || std::string(messages) != "1") GTEST_SKIP() << "run with LOOM_PrintDebugMessages=1: the tests read them";
    tiles = static_cast<uint32_t>(std::atoi(tilesWanted));
    ClTest::SetUp();
    if (HasFatalFailure() || IsSkipped()) return;
    if (deviceInfo<cl_device_type>(CL_DEVICE_TYPE) != CL_DEVICE_TYPE_CPU) GTEST_SKIP() << "tiles by LOOM_CpuSubDevices are the CPU's";
  }

  cl_kernel scalingKernel(const char* name) { return buildKernel(readKernelSource("implicit_scaling_kernels.cl"), name); }

  // Runs record_ids over `global` work-items from `offset` in groups of `local` (the last group
  // of a dimension may be smaller) and checks each work-item's record against the unsplit NDRange.
  std::string runAndCheck(cl_kernel k, cl_uint dims, std::array<size_t, 3> global, std::array<size_t, 3> local,
                          std::array<size_t, 3> offset) {
    const size_t items = global[0] * global[1] * global[2];
    cl_mem records = buffer(CL_MEM_READ_WRITE, items * kRecordWords * sizeof(cl_uint));
    const cl_uint zero = 0;
    EXPECT_CL_OK(clEnqueueFillBuffer(queue, records, &zero, sizeof(zero), 0, items * kRecordWords * sizeof(cl_uint), 0, nullptr, nullptr));
    setArgs(k, records);
    const std::string messages = debugMessagesOf([&] {
      EXPECT_CL_OK(clEnqueueNDRangeKernel(queue, k, dims, offset.data(), global.data(), local.data(), 0, nullptr, nullptr));
      EXPECT_CL_OK(clFinish(queue));
    });
    const std::vector<cl_uint> result = readBack<cl_uint>(records, items * kRecordWords);
    for (size_t linear = 0; linear < items; ++linear) {
      const size_t position[3] = {linear % global[0], linear / global[0] % global[1], linear / (global[0] * global[1])};
      const cl_uint* record = result.data() + linear * kRecordWords;
      cl_uint localIds = 0;
      for (int d = 0; d < 3; ++d) {
        EXPECT_EQ(record[d], offset[d] + position[d]) << "global id " << d << " of work-item " << linear;
        EXPECT_EQ(record[3 + d], position[d] / local[d]) << "group id " << d << " of work-item " << linear;
        EXPECT_EQ(record[6 + d], (global[d] + local[d] - 1) / local[d]) << "number of groups " << d;
        EXPECT_EQ(record[9 + d], offset[d]) << "global offset " << d;
        EXPECT_EQ(record[12 + d], global[d]) << "global size " << d;
        localIds += cl_uint(position[d] % local[d]) * (d == 0 ? 1 : d == 1 ? 1000 : 1000000);
      }
      EXPECT_EQ(record[15], localIds + 1) << "work-item " << linear;
      if (::testing::Test::HasFailure()) break;
    }
    return messages;
  }

  uint32_t tiles = 0;
};

TEST_F(ClImplicitScalingTest, NDRangesWithOffsetsSeeTheIdsOfTheUnsplitLaunch) {
  cl_kernel k = scalingKernel("record_ids");
  ASSERT_NE(k, nullptr);
  for (size_t many : {1u, 7u, 64u}) {
    SCOPED_TRACE(many);
    // Each shape's split dimension ends in a smaller group: non-uniform work-groups.
    std::string messages = runAndCheck(k, 1, {many * 4 - 1, 1, 1}, {4, 1, 1}, {5, 0, 0});
    if (many >= tiles) {
      EXPECT_TRUE(splitAmongAllTiles(messages, "record_ids", tiles)) << messages;
    }
    if (many == 1) {
      EXPECT_NE(messages.find("runs on tile 0"), std::string::npos) << messages;
    }
    messages = runAndCheck(k, 2, {many * 2 + 1, 6, 1}, {2, 3, 1}, {1, 2, 0});
    if (many >= tiles) {
      EXPECT_TRUE(splitAmongAllTiles(messages, "record_ids", tiles)) << messages;
    }
    messages = runAndCheck(k, 3, {4, 3, many * 2}, {2, 1, 2}, {3, 0, 7});
    if (many >= tiles) {
      EXPECT_TRUE(splitAmongAllTiles(messages, "record_ids", tiles)) << messages;
    }
  }
}

TEST_F(ClImplicitScalingTest, AGlobalAtomicCounterIsSharedByAllTiles) {
  cl_kernel k = scalingKernel("count_work_items");
  ASSERT_NE(k, nullptr);
  cl_mem counter = bufferWith(std::vector<cl_uint>{0});
  setArgs(k, counter);
  const size_t global = 1 << 18, local = 64;
  const std::string messages = debugMessagesOf([&] { run1d(k, global, &local); });
  EXPECT_EQ(readBack<cl_uint>(counter, 1)[0], global);
  EXPECT_TRUE(splitAmongAllTiles(messages, "count_work_items", tiles)) << messages;
}

TEST_F(ClImplicitScalingTest, AKernelReadsWhatThePreviousSplitKernelWrote) {
  cl_kernel write = scalingKernel("write_squares");
  cl_kernel read = scalingKernel("read_reversed");
  ASSERT_NE(write, nullptr);
  ASSERT_NE(read, nullptr);
  const size_t n = 1 << 14, local = 64;
  cl_mem squares = buffer(CL_MEM_READ_WRITE, n * sizeof(cl_uint));
  cl_mem reversed = buffer(CL_MEM_READ_WRITE, n * sizeof(cl_uint));
  setArgs(write, squares);
  setArgs(read, squares, reversed);
  const std::string messages = debugMessagesOf([&] {
    EXPECT_CL_OK(clEnqueueNDRangeKernel(queue, write, 1, nullptr, &n, &local, 0, nullptr, nullptr));
    EXPECT_CL_OK(clEnqueueNDRangeKernel(queue, read, 1, nullptr, &n, &local, 0, nullptr, nullptr));
    EXPECT_CL_OK(clFinish(queue));
  });
  EXPECT_TRUE(splitAmongAllTiles(messages, "read_reversed", tiles)) << messages;
  const std::vector<cl_uint> result = readBack<cl_uint>(reversed, n);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(result[i], cl_uint((n - 1 - i) * (n - 1 - i) + 1)) << i;
}

TEST_F(ClImplicitScalingTest, CopiesAndFillsAcrossChunksOfEveryTile) {
  const size_t words = (size_t(tiles) * 3 * (64 << 10) + 4096) / 4 + 3;
  cl_mem memory = buffer(CL_MEM_READ_WRITE, words * sizeof(cl_uint));
  const cl_uint pattern = 0xa1b2c3d4;
  std::string messages = debugMessagesOf([&] {
    EXPECT_CL_OK(clEnqueueFillBuffer(queue, memory, &pattern, sizeof(pattern), 4, (words - 2) * 4, 0, nullptr, nullptr));
    EXPECT_CL_OK(clFinish(queue));
  });
  EXPECT_NE(messages.find("fill of"), std::string::npos) << messages;
  std::vector<cl_uint> result = readBack<cl_uint>(memory, words);
  for (size_t i = 1; i + 1 < words; ++i) ASSERT_EQ(result[i], pattern) << i;
  std::vector<cl_uint> source(words);
  for (size_t i = 0; i < words; ++i) source[i] = cl_uint(i * 2654435761u);
  messages = debugMessagesOf([&] {
    EXPECT_CL_OK(clEnqueueWriteBuffer(queue, memory, CL_TRUE, 0, words * 4, source.data(), 0, nullptr, nullptr));
  });
  EXPECT_NE(messages.find("copy of"), std::string::npos) << messages;
  EXPECT_EQ(readBack<cl_uint>(memory, words), source);
}

}  // namespace
}  // namespace loom::test
