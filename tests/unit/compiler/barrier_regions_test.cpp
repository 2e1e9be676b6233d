// Kernels the CPU target runs as barrier regions: every work-item's results exactly as if each
// ran alone between barriers, whatever the vectorizer made of the region loops.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "kernel_runner.h"

namespace loom::compiler::test {
namespace {

Kernel kernel(const std::string& name) { return findKernel("regions", name); }

constexpr uint32_t kLargestGroup = 4096;  // the CPU device's maximum work-group size

TEST(BarrierRegions, WorkItemsThatReturnEarlySitOutLaterRegions) {
  const Kernel rotate = kernel("rotate_active");
  ASSERT_NE(rotate.function, nullptr);
  constexpr uint32_t kGroup = 32, kN = 100, kRounds = 5;  // the fourth group has 4 active work-items
  std::vector<uint32_t> data(128);
  std::iota(data.begin(), data.end(), 7u);
  std::vector<uint32_t> expected = data;
  for (uint32_t group = 0; group * kGroup < kN; ++group) {
    const uint32_t first = group * kGroup, active = std::min(kN - first, kGroup);
    for (uint32_t round = 0; round < kRounds; ++round) {
      std::vector<uint32_t> tile(expected.begin() + first, expected.begin() + first + active);
      for (uint32_t l = 0; l < active; ++l) expected[first + l] = expected[first + l] * 3u + tile[(l + 1) % active];
    }
  }
  Arguments(*rotate.descriptor)
      .set(0, data.data())
      .set(1, kN)
      .set(2, int(kRounds))
      .setLocal(3, kGroup * sizeof(uint32_t))
      .run(rotate.function, range1d(128, kGroup));
  for (uint32_t i = 0; i < 128; ++i) ASSERT_EQ(data[i], expected[i]) << i;
}

TEST(BarrierRegions, ScansGroupsOfEverySizeUpToTheLargest) {
  const Kernel scan = kernel("scan_groups");
  ASSERT_NE(scan.function, nullptr);
  for (uint32_t group : {1u, 7u, 64u, 1000u, kLargestGroup}) {
    const uint32_t items = group * 2;
    std::vector<uint32_t> data(items);
    for (uint32_t i = 0; i < items; ++i) data[i] = i * 2654435761u;
    std::vector<uint32_t> expected(items);
    for (uint32_t first = 0; first < items; first += group) {
      uint32_t sum = 0;
      for (uint32_t l = 0; l < group; ++l) {
        sum += data[first + l];
        expected[first + l] = sum * 2u - data[first + l];
      }
    }
    Arguments(*scan.descriptor).set(0, data.data()).setLocal(1, group * sizeof(uint32_t)).run(scan.function, range1d(items, group));
    for (uint32_t i = 0; i < items; ++i) ASSERT_EQ(data[i], expected[i]) << "group " << group << " item " << i;
  }
}

TEST(BarrierRegions, MirrorsThreeDimensionalGroups) {
  const Kernel mirror = kernel("mirror_in_groups");
  ASSERT_NE(mirror.function, nullptr);
  const Range range{.globalSize = {8, 6, 6}, .localSize = {4, 3, 2}, .workDim = 3};
  std::vector<int> data(8 * 6 * 6);
  std::iota(data.begin(), data.end(), 0);
  Arguments(*mirror.descriptor).set(0, data.data()).setLocal(1, 4 * 3 * 2 * sizeof(int)).run(mirror.function, range);
  for (int z = 0; z < 6; ++z)
    for (int y = 0; y < 6; ++y)
      for (int x = 0; x < 8; ++x) {
        const int mx = x / 4 * 4 + 3 - x % 4, my = y / 3 * 3 + 2 - y % 3, mz = z / 2 * 2 + 1 - z % 2;
        ASSERT_EQ(data[(z * 6 + y) * 8 + x], (mz * 6 + my) * 8 + mx) << x << " " << y << " " << z;
      }
}

TEST(BarrierRegions, KeepsDivergentPrivateUpdatesInALoopWithBarriers) {
  const Kernel divergent = kernel("divergent_updates");
  ASSERT_NE(divergent.function, nullptr);
  constexpr uint32_t kGroup = 48, kRounds = 6;
  std::vector<uint32_t> data(2 * kGroup, 0);
  std::vector<uint32_t> values(kGroup);
  std::iota(values.begin(), values.end(), 0u);
  for (uint32_t round = 0; round < kRounds; ++round) {
    for (uint32_t l = 0; l < kGroup; ++l)
      if (l % 2 == 0) values[l] += round;
    const std::vector<uint32_t> tile = values;
    for (uint32_t l = 0; l < kGroup; ++l) values[l] += tile[kGroup - 1 - l];
  }
  Arguments(*divergent.descriptor)
      .set(0, data.data())
      .set(1, kRounds)
      .setLocal(2, kGroup * sizeof(uint32_t))
      .run(divergent.function, range1d(2 * kGroup, kGroup));
  for (uint32_t i = 0; i < 2 * kGroup; ++i) ASSERT_EQ(data[i], values[i % kGroup]) << i;
}

TEST(BarrierRegions, CountsExactlyWithLocalAtomicsOnSharedCounters) {
  const Kernel counters = kernel("local_counters");
  ASSERT_NE(counters.function, nullptr);
  constexpr uint32_t kGroup = 64, kGroups = 5, kPerItem = 37;
  std::vector<uint8_t> data(kGroup * kGroups * kPerItem);
  std::mt19937 generator(3);
  for (uint8_t& value : data) value = uint8_t(generator() % 5);  // few counters: many conflicts
  std::vector<uint32_t> bins(16, 0), tickets(kGroup * kGroups, ~0u), expected(16, 0);
  std::vector<int> winners(kGroup * kGroups, -1);
  for (uint8_t value : data) ++expected[value & 15];
  for (uint32_t i = 0; i < kGroup * kGroups; ++i) expected[i % kGroup % 3] += 2;
  Arguments(*counters.descriptor)
      .set(0, data.data())
      .set(1, bins.data())
      .set(2, tickets.data())
      .set(3, winners.data())
      .set(4, kPerItem)
      .run(counters.function, range1d(kGroup * kGroups, kGroup));
  EXPECT_EQ(bins, expected);
  for (uint32_t group = 0; group < kGroups; ++group) {
    std::vector<uint32_t> groupTickets(tickets.begin() + group * kGroup, tickets.begin() + (group + 1) * kGroup);
    std::sort(groupTickets.begin(), groupTickets.end());
    for (uint32_t l = 0; l < kGroup; ++l) ASSERT_EQ(groupTickets[l], l) << "group " << group;
    EXPECT_EQ(std::count(winners.begin() + group * kGroup, winners.begin() + (group + 1) * kGroup, 1), 1) << group;
  }
}

TEST(BarrierRegions, AddsExactlyWithConflictingLocalAtomicsAloneInARegion) {
  const Kernel conflicts = kernel("local_conflicts");
  ASSERT_NE(conflicts.function, nullptr);
  constexpr uint32_t kGroup = 256, kGroups = 3;
  std::vector<uint32_t> out(4 * kGroups, 0), expected(4 * kGroups, 0);
  for (uint32_t group = 0; group < kGroups; ++group)
    for (uint32_t l = 0; l < kGroup; ++l) expected[group * 4 + (l & 3)] += l;
  Arguments(*conflicts.descriptor).set(0, out.data()).run(conflicts.function, range1d(kGroup * kGroups, kGroup));
  EXPECT_EQ(out, expected);
}

struct Float4 {
  float x, y, z, w;
};

TEST(BarrierRegions, RunsAUniformLoopOneIterationForAllWorkItemsAtATime) {
  const Kernel pull = kernel("pull");
  ASSERT_NE(pull.function, nullptr);
  EXPECT_FALSE(pull.descriptor->hasBarriers);
  EXPECT_GT(pull.descriptor->barrierFrameSize, 0u);  // the loop did get its implicit barriers
  constexpr uint32_t kCount = 300, kN = 200, kGroup = 64;  // the last group has 8 work-items past the end
  std::vector<Float4> bodies(kCount);
  std::mt19937 generator(5);
  std::uniform_real_distribution<float> distribution(-1.0f, 1.0f);
  for (Float4& body : bodies) body = {distribution(generator), distribution(generator), distribution(generator), 1.0f + distribution(generator)};
  std::vector<Float4> out(256, Float4{-1, -1, -1, -1});
  Arguments(*pull.descriptor)
      .set(0, bodies.data())
      .set(1, out.data())
      .set(2, int(kCount))
      .set(3, kN)
      .run(pull.function, range1d(256, kGroup));
  for (uint32_t i = 0; i < 256; ++i) {
    if (i >= kN) {
      ASSERT_EQ(out[i].w, -1.0f) << i;
      continue;
    }
    double sum[3] = {0, 0, 0};
    for (const Float4& other : bodies) {
      const double d[3] = {double(other.x) - bodies[i].x, double(other.y) - bodies[i].y, double(other.z) - bodies[i].z};
      const double scale = other.w / (d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + 0.5);
      for (int c = 0; c < 3; ++c) sum[c] += d[c] * scale;
    }
    const float lanes[3] = {out[i].x, out[i].y, out[i].z};
    for (int c = 0; c < 3; ++c) ASSERT_NEAR(lanes[c], sum[c], 1e-3 + 1e-4 * std::fabs(sum[c])) << i << " " << c;
    ASSERT_EQ(out[i].w, float(i));
  }
}


struct alignas(64) Float16 {  // as OpenCL buffers of float16 are aligned
  float lanes[16];
};

// Two float16 values per work-item through a long uniform loop (implicit barriers), which the CPU
// target keeps as whole vectors rather than sixteen components each.
// x = y - x; y = x - y, `rounds` times, from mad_chain16's start: exact in floats.
void expectMadChains(const std::vector<Float16>& out, uint32_t group, int rounds) {
  for (uint32_t i = 0; i < out.size(); ++i) {
    const float lid = float(i % group);
    for (int lane = 0; lane < 16; ++lane) {
      float x = float(lane) + lid, y = lid * 2.0f - 3.0f;
      for (int k = 0; k < rounds; ++k) {
        x = y - x;
        y = x - y;
      }
      ASSERT_EQ(out[i].lanes[lane], x * 3.0f + y) << "work-item " << i << ", lane " << lane;
    }
  }
}

// Two float16 values per work-item through a long uniform loop (implicit barriers), which the CPU
// target keeps as whole vectors rather than sixteen components each.
TEST(BarrierRegions, KeepsFloat16ValuesThroughAUniformLoop) {
  const Kernel chain = kernel("mad_chain16");
  ASSERT_NE(chain.function, nullptr);
  EXPECT_GT(chain.descriptor->barrierFrameSize, 0u);  // the loop did get its implicit barriers
  constexpr uint32_t kItems = 200, kGroup = 64;      // the last group is partial
  constexpr int kCount = 1001;
  std::vector<Float16> out(kItems);
  Arguments(*chain.descriptor).set(0, out.data()).set(1, kCount).run(chain.function, range1d(kItems, kGroup));
  expectMadChains(out, kGroup, kCount);
}

// Long chains run for two work-items side by side, and the last one alone in groups of odd sizes.
TEST(BarrierRegions, RunsLongFloat16ChainsOfAnyGroupSize) {
  const Kernel chain = kernel("mad_chain16_long");
  ASSERT_NE(chain.function, nullptr);
  EXPECT_GT(chain.descriptor->barrierFrameSize, 0u);
  constexpr int kCount = 125;
  for (uint32_t group : {1u, 2u, 7u, 63u, 64u}) {
    SCOPED_TRACE(group);
    const uint32_t items = group * 3 + group / 2;  // the last group is partial where the group is more than one
    std::vector<Float16> out(items);
    Arguments(*chain.descriptor).set(0, out.data()).set(1, kCount).run(chain.function, range1d(items, group));
    expectMadChains(out, group, kCount * 8);
  }
}

TEST(BarrierRegions, KeepsFloat16ValuesAcrossABarrier) {
  const Kernel mirror = kernel("mirror_fma16");
  ASSERT_NE(mirror.function, nullptr);
  constexpr uint32_t kItems = 96, kGroup = 32;
  std::vector<Float16> in(kItems), out(kItems);
  std::mt19937 generator(16);
  std::uniform_real_distribution<float> distribution(-4.0f, 4.0f);
  for (Float16& value : in)
    for (float& lane : value.lanes) lane = distribution(generator);
  Arguments(*mirror.descriptor)
      .set(0, in.data())
      .set(1, out.data())
      .setLocal(2, kGroup * sizeof(Float16))
      .run(mirror.function, range1d(kItems, kGroup));
  for (uint32_t i = 0; i < kItems; ++i) {
    const uint32_t other = i - i % kGroup + (kGroup - 1 - i % kGroup);
    for (int lane = 0; lane < 16; ++lane) {
      const float mine = in[i].lanes[lane];
      const float twice = mine * 2.0f + 1.0f;  // one rounding, fused or not: the product is exact
      ASSERT_EQ(out[i].lanes[lane], std::fma(in[other].lanes[lane], twice, mine)) << "work-item " << i << ", lane " << lane;
    }
  }
}

// Small whole numbers: every sum below is exact in floats, whatever order the kernel adds in.
std::vector<float> wholeNumbers(size_t count, uint32_t seed) {
  std::mt19937 generator(seed);
  std::vector<float> values(count);
  for (float& value : values) value = float(generator() % 9) - 4.0f;
  return values;
}

TEST(BarrierRegions, KeepsPrivateArraysAcrossBarriers) {
  const Kernel dot = kernel("tile_dot");
  ASSERT_NE(dot.function, nullptr);
  constexpr int kDepth = 12;
  for (uint32_t group : {8u, 13u, 64u}) {
    const uint32_t items = group * 3;
    const std::vector<float> a = wholeNumbers(size_t(kDepth) * items, group), w = wholeNumbers(kDepth, 7);
    std::vector<float> out(items, -1.0f);
    Arguments(*dot.descriptor).set(0, a.data()).set(1, w.data()).set(2, out.data()).set(3, kDepth).run(dot.function, range1d(items, group));
    for (uint32_t i = 0; i < items; ++i) {
      const uint32_t mirrored = i / group * group + group - 1 - i % group;
      float own = 0, other = 0;
      for (int t = 0; t < kDepth; ++t) own += a[t * items + i] * w[t], other += a[t * items + mirrored] * w[t];
      ASSERT_EQ(out[i], own - 2.0f * other) << "group " << group << " item " << i;
    }
  }
}

// column_sums's result for one column, as the kernel computes it.
float columnSum(const std::vector<float>& a, const std::vector<float>& w, int width, int k, int group, int column) {
  const int span = group * 2, first = column / span * span, full = k / 4 * 4;
  const int mirrored = first + span - 1 - (column - first);
  float sum = 0;
  for (int t = 0; t < full; ++t) sum += (mirrored < width ? a[t * width + mirrored] : 0.0f) * w[t];
  for (int t = full; t < k; ++t) sum += a[t * width + column] * w[t];
  return sum;
}

TEST(BarrierRegions, DecidesBetweenReturningAndWaitingByGroupInvariantTests) {
  const Kernel sums = kernel("column_sums");
  ASSERT_NE(sums.function, nullptr);
  constexpr int kWidth = 45, kGroup = 8, kGroups = 3;  // the last group's last columns lie past the width
  for (int k : {11, 8, 3}) {  // two whole tiles and a rest, whole tiles only, no whole tile (no barrier)
    const std::vector<float> a = wholeNumbers(size_t(k) * kWidth, k), w = wholeNumbers(k, 3);
    std::vector<float> out(kWidth + 3, -100.0f);
    Arguments(*sums.descriptor)
        .set(0, a.data())
        .set(1, w.data())
        .set(2, out.data())
        .set(3, kWidth)
        .set(4, k)
        .run(sums.function, range1d(kGroup * kGroups, kGroup));
    for (int column = 0; column < kWidth; ++column)
      ASSERT_EQ(out[column], columnSum(a, w, kWidth, k, kGroup, column)) << "k " << k << " column " << column;
    for (int column = kWidth; column < kWidth + 3; ++column) ASSERT_EQ(out[column], -100.0f) << column;
  }
}

TEST(BarrierRegions, WorkItemsReturningOnAGroupInvariantTestSitOutLaterRegions) {
  const Kernel asked = kernel("return_when_asked");
  ASSERT_NE(asked.function, nullptr);
  constexpr int kGroup = 8, kItems = 16;
  for (int quit : {5, 3}) {
    std::vector<int> data(kItems, -1);
    Arguments(*asked.descriptor).set(0, data.data()).set(1, quit).setLocal(2, kGroup * sizeof(int)).run(asked.function, range1d(kItems, kGroup));
    for (int i = 0; i < kItems; ++i) {
      const int l = i % kGroup, source = l < 2 ? l : 2 + (l - 1) % (kGroup - 2);
      const int expected = quit > 4 && l < 2 ? -1 : source * 3 + i / kGroup * 100;
      ASSERT_EQ(data[i], expected) << "quit " << quit << " item " << i;
    }
  }
}

// The loops over work-items of column_sums's accumulating regions are vectorized: its private
// array became values, the short loops inside the regions were unrolled, no work-item needs a
// flag for having returned early (each side's return or wait hangs on the same group-invariant
// test), and the values kept across barriers live in slots the optimizer tells apart.
TEST(BarrierRegions, VectorizesTheRegionsThatAccumulateIntoAPrivateArray) {
  CompileRequest request;
  request.spirv = readSpirv("regions");
  request.dumpKernelIr = true;
  testing::internal::CaptureStderr();
  const BuildResult built = compileSpirv(request);
  const std::string ir = testing::internal::GetCapturedStderr();
  ASSERT_EQ(built.status, Status::Success) << built.log;
  const size_t start = ir.find("@__loom_wg_column_sums(");
  ASSERT_NE(start, std::string::npos);
  const std::string body = ir.substr(start, ir.find("\n}\n", start) - start);
  EXPECT_NE(body.find("@llvm.fmuladd.v"), std::string::npos) << body;
}

}  // namespace
}  // namespace loom::compiler::test
