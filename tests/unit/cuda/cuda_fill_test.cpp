#include "backends/cuda/cuda_fill.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace loom::backends::cuda {
namespace {

using Method = FillPlan::Method;

// A fill of `size` bytes at `address` with `pattern`, and the plan it must get.
struct FillCase {
  const char* what;
  std::vector<uint8_t> pattern;
  uintptr_t address;
  size_t size;
  FillPlan expected;
};

TEST(CudaFill, RepeatingPatternsUseTheWidestMemsetTheirPeriodAllows) {
  const FillCase cases[] = {
      {"repeated bytes, whatever the pattern size", {7, 7, 7, 7, 7, 7, 7, 7}, 0x1001, 13, {Method::Memset8, 7, 13}},
      {"a two-byte period", {1, 2, 1, 2}, 0x1000, 64, {Method::Memset16, 0x0201, 32}},
      {"a four-byte period", {1, 2, 3, 4, 1, 2, 3, 4}, 0x1000, 64, {Method::Memset32, 0x04030201, 16}},
  };
  for (const FillCase& c : cases) {
    const FillPlan plan = planFill(c.pattern.data(), c.pattern.size(), c.address, c.size);
    EXPECT_EQ(plan.method, c.expected.method) << c.what;
    EXPECT_EQ(plan.value, c.expected.value) << c.what;
    EXPECT_EQ(plan.count, c.expected.count) << c.what;
  }
}

TEST(CudaFill, MisalignedOrRaggedFillsAndLongPeriodsDouble) {
  const uint8_t quad[4] = {1, 2, 3, 4};
  EXPECT_EQ(planFill(quad, 4, 0x1002, 64).method, Method::Doubling);
  EXPECT_EQ(planFill(quad, 4, 0x1000, 62).method, Method::Doubling);
  const uint8_t eight[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  EXPECT_EQ(planFill(eight, 8, 0x1000, 64).method, Method::Doubling);
}

TEST(CudaFill, TileHoldsWholePatternsWithinBounds) {
  const uint8_t pattern[3] = {1, 2, 3};
  EXPECT_EQ(fillTile(pattern, 3, 1000, 16).size(), 15u);
  EXPECT_EQ(fillTile(pattern, 3, 5, 16), (std::vector<uint8_t>{1, 2, 3, 1, 2}));
  EXPECT_EQ(fillTile(pattern, 3, 1000, 2).size(), 3u);  // at least one pattern
}

// Running the plan's copies on host memory gives what a naive fill gives.
TEST(CudaFill, DoublingCopiesReproduceThePattern) {
  const uint8_t pattern[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
  for (size_t patternSize : {2, 8, 16})
    for (size_t size : {1, 15, 16, 17, 100, 4096, 5000}) {
      std::vector<uint8_t> memory(size, 0xee);
      const std::vector<uint8_t> tile = fillTile(pattern, patternSize, size, 32);
      std::memcpy(memory.data(), tile.data(), tile.size());
      for (const FillCopy& copy : doublingCopies(tile.size(), size)) {
        ASSERT_LE(copy.offset + copy.size, size);
        ASSERT_LE(copy.size, copy.offset);  // source and destination never overlap
        std::memcpy(memory.data() + copy.offset, memory.data(), copy.size);
      }
      for (size_t i = 0; i < size; ++i) ASSERT_EQ(memory[i], pattern[i % patternSize]) << patternSize << " " << size << " " << i;
    }
}

}  // namespace
}  // namespace loom::backends::cuda
