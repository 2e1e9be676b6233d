// Compiled kernels run through their work-group functions, every group of a range on this thread.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "kernel_runner.h"

namespace loom::compiler::test {
namespace {

Kernel kernel(const std::string& kernels, const std::string& name) { return findKernel(kernels, name); }

TEST(Execution, AddsVectors) {
  const Kernel add = kernel("work_items", "add_vectors");
  ASSERT_NE(add.function, nullptr);
  std::vector<float> a(1000), b(1000), sum(1000, 0.0f);
  for (int i = 0; i < 1000; ++i) a[i] = float(i), b[i] = 0.5f * float(i);
  Arguments(*add.descriptor).set(0, a.data()).set(1, b.data()).set(2, sum.data()).run(add.function, range1d(1000, 64));
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(sum[i], 1.5f * float(i)) << i;
}

// Runs work_item_ids on `range` and checks every work-item's record.
void expectEveryWorkItemQueryAnswered(const Range& range) {
  const Kernel ids = kernel("work_items", "work_item_ids");
  ASSERT_NE(ids.function, nullptr);
  constexpr size_t kRecord = 27;
  const uint64_t* global = range.globalSize.data();
  std::vector<uint64_t> out(global[0] * global[1] * global[2] * kRecord, ~0ull);
  Arguments(*ids.descriptor).set(0, out.data()).run(ids.function, range);
  for (uint64_t z = 0; z < global[2]; ++z)
    for (uint64_t y = 0; y < global[1]; ++y)
      for (uint64_t x = 0; x < global[0]; ++x) {
        const uint64_t item[3] = {x, y, z};
        const uint64_t* record = &out[((z * global[1] + y) * global[0] + x) * kRecord];
        uint64_t groupSize[3];
        for (int d = 0; d < 3; ++d) {
          const uint64_t local = range.localSize[d], group = item[d] / local;
          groupSize[d] = std::min<uint64_t>(local, global[d] - group * local);
          EXPECT_EQ(record[d], item[d] + range.globalOffset[d]) << "global id " << d;
          EXPECT_EQ(record[3 + d], item[d] % local) << "local id " << d;
          EXPECT_EQ(record[6 + d], group) << "group id " << d;
          EXPECT_EQ(record[9 + d], groupSize[d]) << "local size " << d;
          EXPECT_EQ(record[12 + d], local) << "enqueued local size " << d;
          EXPECT_EQ(record[15 + d], global[d]) << "global size " << d;
          EXPECT_EQ(record[18 + d], (global[d] + local - 1) / local) << "num groups " << d;
          EXPECT_EQ(record[21 + d], range.globalOffset[d]) << "global offset " << d;
        }
        EXPECT_EQ(record[24], range.workDim);
        const uint64_t localId[3] = {x % range.localSize[0], y % range.localSize[1], z % range.localSize[2]};
        EXPECT_EQ(record[25], (localId[2] * groupSize[1] + localId[1]) * groupSize[0] + localId[0]) << "local linear id";
        EXPECT_EQ(record[26], (z * global[1] + y) * global[0] + x) << "global linear id";
      }
}

Range range3d(std::array<uint64_t, 3> global, std::array<uint32_t, 3> local, std::array<uint64_t, 3> offset) {
  Range range;
  range.globalSize = global;
  range.localSize = local;
  range.globalOffset = offset;
  range.workDim = 3;
  return range;
}

// A 3-D range with a global offset and partial last groups in x and y.
TEST(Execution, AnswersEveryWorkItemQuery) { expectEveryWorkItemQueryAnswered(range3d({6, 5, 3}, {4, 2, 3}, {10, 20, 30})); }

// Work-group functions run several groups along x per call (the runtime's runs): each group of
// a run still sees its own local and group ids.
TEST(Execution, AnswersEveryWorkItemQueryInARunOfGroups) {
  expectEveryWorkItemQueryAnswered(range3d({14, 3, 2}, {4, 3, 1}, {7, 0, 5}));
}

// A kernel that sees only global ids, sizes and the y and z group ids runs a whole run of groups
// as one loop along x.
TEST(Execution, RunsAKernelOfGlobalIdsAcrossARunOfGroups) {
  const Kernel ids = kernel("work_items", "global_ids");
  ASSERT_NE(ids.function, nullptr);
  Range range;
  range.globalSize = {38, 3, 1};
  range.localSize = {8, 1, 1};
  range.globalOffset = {100, 0, 0};
  range.workDim = 2;
  constexpr size_t kRecord = 4;
  std::vector<uint64_t> out(38 * 3 * kRecord, ~0ull);
  Arguments(*ids.descriptor).set(0, out.data()).run(ids.function, range);
  for (uint64_t y = 0; y < 3; ++y)
    for (uint64_t x = 0; x < 38; ++x) {
      const uint64_t* record = &out[(y * 38 + x) * kRecord];
      EXPECT_EQ(record[0], x + 100) << x << "," << y;
      EXPECT_EQ(record[1], y) << x << "," << y;
      EXPECT_EQ(record[2], x < 32 ? 8u : 6u) << "local size, " << x << "," << y;
      EXPECT_EQ(record[3], y) << "group id 1, " << x << "," << y;
    }
}

struct Mixed {
  char c;
  int i;
  double d;
  short s;
};

TEST(Execution, ReadsScalarAndStructArgumentsFromTheirSlots) {
  const Kernel mixed = kernel("work_items", "mixed_arguments");
  ASSERT_NE(mixed.function, nullptr);
  std::vector<double> out(11, 0.0);
  const int table[2] = {5, 77};
  Arguments(*mixed.descriptor)
      .set(0, out.data())
      .set(1, Mixed{-3, 100000, 2.25, -1234})
      .set(2, char(-7))
      .set(3, short(-30000))
      .set(4, int64_t(1) << 40)
      .set(5, 0.75f)
      .set(6, 1e100)
      .set(7, uint8_t(250))
      .setLocal(8, sizeof(float))
      .set(9, &table[0])
      .run(mixed.function, range1d(1, 1));
  const double expected[] = {-3, 100000, 2.25, -1234, -7, -30000, double(int64_t(1) << 40), 0.75, 1e100, 250, 77};
  for (size_t i = 0; i < std::size(expected); ++i) EXPECT_EQ(out[i], expected[i]) << i;
}

TEST(Execution, ReducesWithBarriersInALoop) {
  const Kernel reduce = kernel("barriers", "reduce_in_groups");
  ASSERT_NE(reduce.function, nullptr);
  constexpr uint32_t kGroup = 256, kGroups = 8;
  std::vector<int> in(kGroup * kGroups), sums(kGroups, 0);
  std::iota(in.begin(), in.end(), 1);
  Arguments(*reduce.descriptor)
      .set(0, in.data())
      .set(1, sums.data())
      .setLocal(2, kGroup * sizeof(int))
      .run(reduce.function, range1d(kGroup * kGroups, kGroup));
  for (uint32_t g = 0; g < kGroups; ++g)
    EXPECT_EQ(sums[g], std::accumulate(in.begin() + g * kGroup, in.begin() + (g + 1) * kGroup, 0)) << g;
}

TEST(Execution, RunsABarrierInACalledFunction) {
  const Kernel reverse = kernel("barriers", "reverse_in_groups");
  ASSERT_NE(reverse.function, nullptr);
  std::vector<int> data(128);
  std::iota(data.begin(), data.end(), 0);
  Arguments(*reverse.descriptor).set(0, data.data()).run(reverse.function, range1d(128, 64));
  for (int i = 0; i < 128; ++i) ASSERT_EQ(data[i], i / 64 * 64 + 63 - i % 64) << i;
}

TEST(Execution, KeepsStaticLocalsPrivateValuesAndUniformBranchesApart) {
  const Kernel rotate = kernel("barriers", "rotate_twice");
  ASSERT_NE(rotate.function, nullptr);
  for (int uniform : {0, 1}) {
    std::vector<int> data(96);
    std::iota(data.begin(), data.end(), 0);
    Arguments(*rotate.descriptor)
        .set(0, data.data())
        .setLocal(1, 32 * sizeof(int))
        .set(2, uniform)
        .run(rotate.function, range1d(96, 32));
    for (int i = 0; i < 96; ++i) {
      const int shifted = i / 32 * 32 + (i % 32 + 2) % 32;
      ASSERT_EQ(data[i], uniform ? shifted * 1000 + 1 : 0) << "uniform " << uniform << " item " << i;
    }
  }
}

TEST(Execution, RunsLegacyAtomicsOnGlobalAndLocalMemory) {
  const Kernel atomics = kernel("atomics", "legacy_atomics");
  ASSERT_NE(atomics.function, nullptr);
  int counter = 0, maximum = -1;
  uint32_t exchanged = 0;
  int64_t wide = 0;
  std::vector<int> totals(4, 0);
  Arguments(*atomics.descriptor)
      .set(0, &counter)
      .set(1, &maximum)
      .set(2, &exchanged)
      .set(3, &wide)
      .set(4, totals.data())
      .run(atomics.function, range1d(64, 16));
  EXPECT_EQ(counter, 64);
  EXPECT_EQ(maximum, 63);
  EXPECT_EQ(exchanged, 7u);
  EXPECT_EQ(wide, int64_t(64) << 33);
  EXPECT_EQ(totals, std::vector<int>(4, 16));
}

TEST(Execution, RunsC11AtomicsOnGlobalAndLocalMemory) {
  const Kernel atomics = kernel("atomics", "c11_atomics");
  ASSERT_NE(atomics.function, nullptr);
  int counter = 0, flag = 0;
  int64_t wide = 0;
  std::vector<int> totals(4, 0), loaded(4, -1);
  Arguments(*atomics.descriptor)
      .set(0, &counter)
      .set(1, &wide)
      .set(2, &flag)
      .set(3, totals.data())
      .set(4, loaded.data())
      .run(atomics.function, range1d(64, 16));
  EXPECT_EQ(counter, 64);
  EXPECT_EQ(wide, int64_t(64 * 3) << 32);
  EXPECT_EQ(flag, 1) << "only the first work-item's exchange succeeds";
  EXPECT_EQ(totals, std::vector<int>(4, 16));
  EXPECT_EQ(loaded, std::vector<int>(4, 0));
}

TEST(Execution, ComputesFloatMathLikeTheHost) {
  const Kernel math = kernel("math", "float_math");
  ASSERT_NE(math.function, nullptr);
  const std::vector<float> in = {0.25f, 0.5f, 1.0f, 1.75f, 2.5f, 3.0f, 7.5f, 10.0f};
  std::vector<float> out(16 * in.size(), 0.0f);
  Arguments(*math.descriptor).set(0, in.data()).set(1, out.data()).run(math.function, range1d(in.size(), 4));
  for (size_t i = 0; i < in.size(); ++i) {
    const double x = in[i];
    const double expected[16] = {std::sqrt(x),  std::exp(x),      std::sin(x),  std::cos(x),       std::log(x),  std::pow(x, 1.5),
                                 std::tanh(x),  1 / std::sqrt(x), x,            std::fmin(x, 2.0), std::fmax(x, 2.0),
                                 std::floor(x), std::ceil(x),     x * 2 + 1,    x * x + 1,         std::exp(x)};
    for (int f = 0; f < 16; ++f)
      EXPECT_NEAR(out[16 * i + f], expected[f], 1e-5 * std::max(1.0, std::fabs(expected[f]))) << "x " << x << " function " << f;
  }
}

TEST(Execution, ComputesDoubleMathLikeTheHost) {
  const Kernel math = kernel("math", "double_math");
  ASSERT_NE(math.function, nullptr);
  const std::vector<double> in = {0.1, 1.0, 2.0, 30.5};
  std::vector<double> out(4 * in.size(), 0.0);
  Arguments(*math.descriptor).set(0, in.data()).set(1, out.data()).run(math.function, range1d(in.size(), 2));
  for (size_t i = 0; i < in.size(); ++i) {
    const double x = in[i];
    const double expected[4] = {std::sqrt(x), std::exp(x), std::sin(x), std::atan2(x, 2.0)};
    for (int f = 0; f < 4; ++f) EXPECT_NEAR(out[4 * i + f], expected[f], 1e-12 * std::max(1.0, std::fabs(expected[f]))) << x << " " << f;
  }
}

TEST(Execution, ComputesIntegerCommonAndConversionFunctions) {
  const Kernel integer = kernel("math", "integer_functions");
  ASSERT_NE(integer.function, nullptr);
  const std::vector<int> in = {-5, 0, 4, 9};
  std::vector<int> out(8 * in.size(), 0);
  Arguments(*integer.descriptor).set(0, in.data()).set(1, out.data()).run(integer.function, range1d(in.size(), 4));
  for (size_t i = 0; i < in.size(); ++i) {
    const int x = in[i];
    const int64_t wide = int64_t(x) * 3000000000LL;
    const int saturated = int(std::clamp<int64_t>(wide, INT32_MIN, INT32_MAX));
    const int expected[8] = {std::abs(x), std::min(x, 3), std::max(x, 3), std::clamp(x, -2, 5), x > 0 ? 20 : 10,
                             int(float(x) * 1.5f), saturated, 4 * x + 6 + 0 + 1};
    for (int f = 0; f < 8; ++f) EXPECT_EQ(out[8 * i + f], expected[f]) << "x " << x << " function " << f;
  }
}

TEST(Execution, SaturatesConversions) {
  const Kernel saturate = kernel("math", "saturating_conversions");
  ASSERT_NE(saturate.function, nullptr);
  const std::vector<int> in = {-300, 5, 200, 100000};
  const std::vector<float> floats = {NAN, -1e20f, 3.7f, 1e10f};
  std::vector<int> out(8 * in.size(), 0);
  Arguments(*saturate.descriptor)
      .set(0, in.data())
      .set(1, floats.data())
      .set(2, out.data())
      .run(saturate.function, range1d(in.size(), 4));
  const int expected[4][8] = {{0, -128, 0, 0, 0, 0, 0, -1},
                              {5, 5, 5, INT32_MIN, -32768, 5000, 0, -1},
                              {200, 127, 200, 3, 3, 65535, 0, -1},
                              {255, 127, 100000, INT32_MAX, 32767, 65535, -1, -1}};
  for (size_t i = 0; i < in.size(); ++i)
    for (int f = 0; f < 8; ++f) EXPECT_EQ(out[8 * i + f], expected[i][f]) << "input " << i << " function " << f;
}

struct alignas(32) Float8 {  // OpenCL's float8, which global memory holds 32-byte aligned
  float lanes[8];
};

TEST(Execution, KeepsWidePrivateVectorsAlignedInTheirFrames) {
  const Kernel wide = kernel("barriers", "wide_privates");
  ASSERT_NE(wide.function, nullptr);
  EXPECT_EQ(wide.descriptor->barrierFrameSize % 32, 0u);
  std::vector<Float8> data(24);
  for (size_t i = 0; i < 24; ++i)
    for (int lane = 0; lane < 8; ++lane) data[i].lanes[lane] = float(8 * i + lane);
  Arguments(*wide.descriptor).set(0, data.data()).run(wide.function, range1d(24, 8));
  for (size_t i = 0; i < 24; ++i)
    for (int lane = 0; lane < 8; ++lane) ASSERT_EQ(data[i].lanes[lane], 3.0f * float(8 * i + lane)) << i;
}

}  // namespace
}  // namespace loom::compiler::test
