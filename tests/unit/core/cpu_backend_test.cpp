#include "backends/cpu/cpu_backend.h"

#include <gtest/gtest.h>

#include <numeric>

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
}

TEST(CpuBackend, TimestampsIncrease) {
  CpuBackend backend(describeHostCpu(), 1);
  const uint64_t first = backend.timestamp();
  EXPECT_LE(first, backend.timestamp());
}

}  // namespace
}  // namespace loom::backends::cpu
