// Sub-group functions run on the CPU, where a sub-group is one work-item. The references below
// hold for any sub-group size (they are what the same kernels must give on a GPU's warps).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>

#include "kernel_runner.h"
#include "loom/compiler/opencl_c.h"

namespace loom::compiler::test {
namespace {

constexpr uint32_t kSize = subGroupSize(Target::Cpu);

// Where work-item `i` of a 1-D range sits: sub-groups of kSize along the local id, the last one
// of a group partial.
struct SubGroupOf {
  SubGroupOf(size_t i, size_t globalSize, size_t localSize) {
    const size_t groupStart = i / localSize * localSize, groupSize = std::min(localSize, globalSize - groupStart);
    id = (i - groupStart) / kSize;
    localId = (i - groupStart) % kSize;
    first = groupStart + id * kSize;
    size = std::min<size_t>(kSize, groupSize - id * kSize);
    count = (groupSize + kSize - 1) / kSize;
  }
  size_t id, localId, first, size, count;
};

Kernel subGroupKernel(const std::string& name) { return findKernel("sub_groups", name); }

// Runs `kernel(in, out, local int scratch[local])` over in.size() work-items in groups of
// `local`; returns `out`, -1 where nothing was written.
std::vector<int> runWithLocalScratch(const Kernel& kernel, std::vector<int> in, size_t local) {
  std::vector<int> out(in.size(), -1);
  Arguments(*kernel.descriptor).set(0, in.data()).set(1, out.data()).setLocal(2, local * sizeof(int)).run(kernel.function,
                                                                                                          range1d(in.size(), local));
  return out;
}

// Runs the sub-group kernel `name` by runWithLocalScratch once it is checked to be built, with
// work-group barriers or without: nothing where it was not built.
std::vector<int> runWithLocalScratch(const std::string& name, bool hasBarriers, std::vector<int> in, size_t local) {
  const Kernel kernel = subGroupKernel(name);
  EXPECT_NE(kernel.function, nullptr) << name;
  if (!kernel.function) return {};
  EXPECT_EQ(kernel.descriptor->hasBarriers, hasBarriers) << name;
  return runWithLocalScratch(kernel, std::move(in), local);
}

TEST(SubGroups, CpuSubGroupsAreOneWorkItem) { EXPECT_EQ(kSize, 1u); }

// A partial last group (10 of 4 + 4 + 2): get_num_sub_groups follows the group's own size.
TEST(SubGroups, QueriesFollowTheLocalLinearId) {
  const Kernel queries = subGroupKernel("sub_group_queries");
  ASSERT_NE(queries.function, nullptr);
  constexpr size_t kItems = 10, kLocal = 4, kRecord = 6;
  std::vector<uint32_t> out(kItems * kRecord, ~0u);
  Arguments(*queries.descriptor).set(0, out.data()).run(queries.function, range1d(kItems, kLocal));
  for (size_t i = 0; i < kItems; ++i) {
    const SubGroupOf expected(i, kItems, kLocal);
    const uint32_t* record = &out[i * kRecord];
    EXPECT_EQ(record[0], expected.size) << i;
    EXPECT_EQ(record[1], std::min<size_t>(kSize, kLocal)) << i;
    EXPECT_EQ(record[2], expected.count) << i;
    EXPECT_EQ(record[3], (kLocal + kSize - 1) / kSize) << i;
    EXPECT_EQ(record[4], expected.id) << i;
    EXPECT_EQ(record[5], expected.localId) << i;
  }
}

// The 2-D local linear id numbers sub-groups across rows.
TEST(SubGroups, QueriesInTwoDimensions) {
  const Kernel queries = subGroupKernel("sub_group_queries");
  ASSERT_NE(queries.function, nullptr);
  const Range range{.globalSize = {4, 3, 1}, .localSize = {4, 3, 1}, .workDim = 2};
  std::vector<uint32_t> out(12 * 6, ~0u);
  Arguments(*queries.descriptor).set(0, out.data()).run(queries.function, range);
  for (size_t i = 0; i < 12; ++i) {
    EXPECT_EQ(out[i * 6 + 2], (12 + kSize - 1) / kSize) << i;
    EXPECT_EQ(out[i * 6 + 4], i / kSize) << i;
    EXPECT_EQ(out[i * 6 + 5], i % kSize) << i;
  }
}

template <typename T>
void expectCollectives(const std::string& type, std::function<T(size_t)> input) {
  const Kernel kernel = subGroupKernel("collectives_" + type);
  ASSERT_NE(kernel.function, nullptr);
  constexpr size_t kItems = 70, kLocal = 35, kRecord = 10;
  std::vector<T> in(kItems), out(kItems * kRecord);
  for (size_t i = 0; i < kItems; ++i) in[i] = input(i);
  Arguments(*kernel.descriptor).set(0, in.data()).set(1, out.data()).run(kernel.function, range1d(kItems, kLocal));
  const T lowest = std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::lowest();
  const T highest = std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity() : std::numeric_limits<T>::max();
  for (size_t i = 0; i < kItems; ++i) {
    const SubGroupOf group(i, kItems, kLocal);
    T sum = 0, low = highest, high = lowest;
    T expected[kRecord] = {};
    for (size_t j = group.first; j < group.first + group.size; ++j) {
      if (j == i) expected[6] = sum, expected[7] = low, expected[8] = high;
      sum += in[j], low = std::min(low, in[j]), high = std::max(high, in[j]);
      if (j == i) expected[3] = sum, expected[4] = low, expected[5] = high;
    }
    expected[0] = sum, expected[1] = low, expected[2] = high, expected[9] = in[group.first];
    for (size_t k = 0; k < kRecord; ++k) EXPECT_EQ(out[i * kRecord + k], expected[k]) << type << " work-item " << i << " value " << k;
  }
}

TEST(SubGroups, ReduceScanAndBroadcastEveryType) {
  expectCollectives<int32_t>("int", [](size_t i) { return int32_t(i * 7 % 13) - 6; });
  expectCollectives<uint32_t>("uint", [](size_t i) { return uint32_t(i * 5 % 11); });
  expectCollectives<int64_t>("long", [](size_t i) { return (int64_t(i % 9) - 4) << 33; });
  expectCollectives<uint64_t>("ulong", [](size_t i) { return uint64_t(i % 5 + 1) << 40; });
  expectCollectives<float>("float", [](size_t i) { return float(i % 6) - 2.5f; });
  expectCollectives<double>("double", [](size_t i) { return double(i % 4) * 0.25 - 0.5; });
}

TEST(SubGroups, VotesOverTheSubGroup) {
  const Kernel votes = subGroupKernel("votes");
  ASSERT_NE(votes.function, nullptr);
  constexpr size_t kItems = 64;
  std::vector<int> in(kItems), out(2 * kItems, -1);
  for (size_t i = 0; i < kItems; ++i) in[i] = (i % 3 == 0) ? 0 : int(i);
  Arguments(*votes.descriptor).set(0, in.data()).set(1, out.data()).run(votes.function, range1d(kItems, 32));
  for (size_t i = 0; i < kItems; ++i) {
    const SubGroupOf group(i, kItems, 32);
    bool all = true, any = false;
    for (size_t j = group.first; j < group.first + group.size; ++j) all = all && in[j] != 0, any = any || in[j] != 0;
    EXPECT_EQ(out[2 * i] != 0, all) << i;
    EXPECT_EQ(out[2 * i + 1] != 0, any) << i;
  }
}

TEST(SubGroups, ShufflesOfKhrAndIntel) {
  const Kernel shuffles = subGroupKernel("shuffles");
  ASSERT_NE(shuffles.function, nullptr);
  constexpr size_t kItems = 64, kLocal = 64, kRecord = 8;
  std::vector<int> in(kItems), out(kItems * kRecord, -1);
  std::vector<uint64_t> wide(kItems), wideOut(kItems);
  std::vector<std::array<float, 4>> vectors(kItems), vectorsOut(kItems);
  for (size_t i = 0; i < kItems; ++i) {
    in[i] = int(i) * 3 + 1;
    wide[i] = (uint64_t(i) << 36) | (i + 7);
    vectors[i] = {float(i), float(i) + 0.5f, -float(i), 2.0f * float(i)};
  }
  Arguments(*shuffles.descriptor)
      .set(0, in.data()).set(1, out.data()).set(2, wide.data()).set(3, wideOut.data()).set(4, vectors.data()).set(5, vectorsOut.data())
      .run(shuffles.function, range1d(kItems, kLocal));
  const size_t step = kSize > 1 ? 1 : 0;
  for (size_t i = 0; i < kItems; ++i) {
    const SubGroupOf group(i, kItems, kLocal);
    const size_t next = group.first + (group.localId + 1) % group.size;
    const int* record = &out[i * kRecord];
    EXPECT_EQ(record[0], in[next]) << i;
    if ((group.localId ^ step) < group.size) {
      EXPECT_EQ(record[1], in[group.first + (group.localId ^ step)]) << i;
    }
    if (group.localId >= step) {
      EXPECT_EQ(record[2], in[i - step]) << i;
    }
    if (group.localId + step < group.size) {
      EXPECT_EQ(record[3], in[i + step]) << i;
    }
    EXPECT_EQ(record[4], in[next]) << i;
    if ((group.localId ^ step) < group.size) {
      EXPECT_EQ(record[5], in[group.first + (group.localId ^ step)]) << i;
    }
    // Full sub-groups here (64 is a multiple of every size): the windows are 2 * kSize wide.
    const size_t down = group.localId + 1, up = group.localId + kSize - 1;
    EXPECT_EQ(record[6], down < kSize ? in[group.first + down] : -in[group.first + down - kSize]) << i;
    EXPECT_EQ(record[7], up >= kSize ? in[group.first + up - kSize] : -in[group.first + up]) << i;
    EXPECT_EQ(wideOut[i], wide[next]) << i;
    for (int c = 0; c < 4; ++c) {
      const float expected = down < kSize ? vectors[group.first + down][c] : -vectors[group.first + down - kSize][c];
      EXPECT_EQ(vectorsOut[i][c], expected) << i << " component " << c;
    }
  }
}

// sub_group_barrier is no work-group barrier: the kernel keeps its plain work-item loop, also where
// only some sub-groups reach it.
TEST(SubGroups, SubGroupBarrierExchangesThroughLocalMemory) {
  constexpr size_t kItems = 96, kLocal = 48;
  std::vector<int> in(kItems);
  for (size_t i = 0; i < kItems; ++i) in[i] = int(i * i);
  const std::vector<int> out = runWithLocalScratch("sub_group_exchange", false, in, kLocal);
  ASSERT_EQ(out.size(), kItems);
  for (size_t i = 0; i < kItems; ++i) {
    const SubGroupOf group(i, kItems, kLocal);
    EXPECT_EQ(out[i], in[group.first + (group.localId + 1) % group.size]) << i;
  }
}

TEST(SubGroups, WorkInKernelsWithBarrierRegions) {
  constexpr size_t kItems = 64, kLocal = 32;
  std::vector<int> in(kItems);
  for (size_t i = 0; i < kItems; ++i) in[i] = int(i % 10);
  const std::vector<int> out = runWithLocalScratch("sub_groups_around_barrier", true, in, kLocal);
  ASSERT_EQ(out.size(), kItems);
  for (size_t i = 0; i < kItems; ++i) {
    const size_t groupStart = i / kLocal * kLocal, mirror = groupStart + kLocal - 1 - (i - groupStart);
    const SubGroupOf group(mirror, kItems, kLocal);
    int sum = 0;
    for (size_t j = group.first; j < group.first + group.size; ++j) sum += in[j];
    EXPECT_EQ(out[i], sum * 1000 + int(SubGroupOf(i, kItems, kLocal).id)) << i;
  }
}

// The active work-items of a sub-group: those whose input is not 0.
std::vector<size_t> activeIn(const SubGroupOf& group, const std::vector<int>& in) {
  std::vector<size_t> active;
  for (size_t j = group.first; j < group.first + group.size; ++j)
    if (in[j] != 0) active.push_back(j);
  return active;
}

TEST(SubGroups, NonUniformFunctionsActAmongTheActiveWorkItems) {
  const Kernel kernel = subGroupKernel("non_uniform");
  ASSERT_NE(kernel.function, nullptr);
  constexpr size_t kItems = 96, kLocal = 48, kRecord = 12;
  std::vector<int> in(kItems), out(kItems * kRecord, -7);
  for (size_t i = 0; i < kItems; ++i) in[i] = (i % 5 == 0) ? 0 : int(i * 7 % 11) - 1;
  Arguments(*kernel.descriptor).set(0, in.data()).set(1, out.data()).run(kernel.function, range1d(kItems, kLocal));
  for (size_t i = 0; i < kItems; ++i) {
    const int* record = &out[i * kRecord];
    if (in[i] == 0) {
      for (size_t k = 0; k < kRecord; ++k) EXPECT_EQ(record[k], -7) << i;
      continue;
    }
    const SubGroupOf group(i, kItems, kLocal);
    const std::vector<size_t> active = activeIn(group, in);
    int expected[kRecord] = {};
    expected[0] = active.front() == i;
    expected[1] = expected[3] = 1;
    uint32_t ballot = 0;
    int sum = 0, before = 0, high = std::numeric_limits<int>::min(), bits = 0, cluster = 0;
    bool allAbove = true;
    for (size_t j : active) {
      const int x = in[j];
      if (x <= 0) expected[1] = 0;
      if (x > 5) expected[2] = 1;
      if (x != in[active.front()]) expected[3] = 0;
      if (x > 2) ballot |= 1u << (j - group.first);
      sum += x, bits ^= x;
      if (j < i) before += x;
      if (j <= i) high = std::max(high, x), allAbove = allAbove && x > 2;
      if ((j - group.first) / 2 == group.localId / 2) cluster += x;
    }
    expected[4] = int(ballot), expected[5] = in[active.front()], expected[6] = sum, expected[7] = high;
    expected[8] = before, expected[9] = bits, expected[10] = allAbove, expected[11] = cluster;
    for (size_t k = 0; k < kRecord; ++k) EXPECT_EQ(record[k], expected[k]) << "work-item " << i << " value " << k;
  }
}

// The bits of ids below `n` in a 128-bit ballot.
std::array<uint32_t, 4> idsBelow(size_t n) {
  std::array<uint32_t, 4> bits{};
  for (size_t b = 0; b < n && b < 128; ++b) bits[b / 32] |= 1u << (b % 32);
  return bits;
}

TEST(SubGroups, BallotBitsAndMasks) {
  const Kernel kernel = subGroupKernel("ballots");
  ASSERT_NE(kernel.function, nullptr);
  constexpr size_t kItems = 64, kLocal = 64, kRecord = 13;
  std::vector<std::array<uint32_t, 4>> in(kItems);
  std::vector<uint32_t> out(kItems * kRecord);
  for (size_t i = 0; i < kItems; ++i) in[i] = {uint32_t(i * 0x9e3779b9u), uint32_t(~i), 0x80000001u, uint32_t(i)};
  Arguments(*kernel.descriptor).set(0, in.data()).set(1, out.data()).run(kernel.function, range1d(kItems, kLocal));
  for (size_t i = 0; i < kItems; ++i) {
    const SubGroupOf group(i, kItems, kLocal);
    const auto& value = in[i];
    const auto bit = [&](size_t b) { return (value[b / 32] >> (b % 32)) & 1; };
    const uint32_t* record = &out[i * kRecord];
    EXPECT_EQ(record[0], bit(group.localId)) << i;
    EXPECT_EQ(record[1], bit(i % 37)) << i;
    uint32_t count = 0, inclusive = 0, exclusive = 0, msb = 0;  // bit 0 is the lowest of value | 1
    for (size_t b = 0; b < kSize; ++b) {
      if (!bit(b)) continue;
      ++count, inclusive += b <= group.localId, exclusive += b < group.localId, msb = uint32_t(b);
    }
    EXPECT_EQ(record[2], count) << i;
    EXPECT_EQ(record[3], inclusive) << i;
    EXPECT_EQ(record[4], exclusive) << i;
    EXPECT_EQ(record[5], 0u) << i;
    EXPECT_EQ(record[6], msb) << i;
    const uint32_t id = uint32_t(group.localId), below = idsBelow(id)[0], upTo = idsBelow(id + 1)[0], all = idsBelow(kSize)[0];
    EXPECT_EQ(record[7], upTo & ~below) << i;
    EXPECT_EQ(record[8], all & ~below) << i;
    EXPECT_EQ(record[9], all & ~upTo) << i;
    EXPECT_EQ(record[10], upTo) << i;
    EXPECT_EQ(record[11], below) << i;
    EXPECT_EQ(record[12], 0u) << i;
  }
}

TEST(SubGroups, ExtendedTypes) {
  const Kernel kernel = subGroupKernel("extended_types");
  ASSERT_NE(kernel.function, nullptr);
  constexpr size_t kItems = 40, kLocal = 20, kRecord = 4;
  std::vector<int8_t> c(kItems), cOut(kItems * kRecord);
  std::vector<uint16_t> s(kItems), sOut(kItems * kRecord);
  std::vector<std::array<float, 4>> f(kItems), fOut(kItems);
  for (size_t i = 0; i < kItems; ++i) {
    c[i] = int8_t(int(i * 37 % 200) - 100), s[i] = uint16_t(i * 1234 + 5);
    f[i] = {float(i), -float(i), 0.5f * float(i), 1.0f};
  }
  Arguments(*kernel.descriptor)
      .set(0, c.data()).set(1, cOut.data()).set(2, s.data()).set(3, sOut.data()).set(4, f.data()).set(5, fOut.data())
      .run(kernel.function, range1d(kItems, kLocal));
  for (size_t i = 0; i < kItems; ++i) {
    const SubGroupOf group(i, kItems, kLocal);
    const size_t last = group.first + group.size - 1;
    int8_t sum = 0, high = INT8_MIN;
    int16_t wideHigh = INT16_MIN;
    uint16_t low = UINT16_MAX, before = 0, product = 1;
    for (size_t j = group.first; j <= last; ++j) {
      sum = int8_t(sum + c[j]), wideHigh = std::max<int16_t>(wideHigh, c[j]), low = std::min(low, s[j]), product = uint16_t(product * s[j]);
      if (j <= i) high = std::max(high, c[j]);
      if (j < i) before = uint16_t(before + s[j]);
    }
    const int8_t* cRecord = &cOut[i * kRecord];
    const uint16_t* sRecord = &sOut[i * kRecord];
    EXPECT_EQ(cRecord[0], sum) << i;
    EXPECT_EQ(cRecord[1], high) << i;
    EXPECT_EQ(cRecord[2], int8_t(wideHigh)) << i;
    EXPECT_EQ(cRecord[3], c[last]) << i;
    EXPECT_EQ(sRecord[0], low) << i;
    EXPECT_EQ(sRecord[1], before) << i;
    EXPECT_EQ(sRecord[2], product) << i;
    EXPECT_EQ(sRecord[3], s[last]) << i;
    EXPECT_EQ(fOut[i], f[last]) << i;
  }
}

// Where element `k` of work-item `i`'s block lies: blocks of the sub-group's width, one per component.
size_t blockElement(size_t i, size_t k, size_t width) {
  const SubGroupOf group(i, ~size_t(0) >> 1, 64);
  return group.first * width + group.localId + k * kSize;
}

TEST(SubGroups, IntelBlockReadsTakeOneElementPerWorkItem) {
  const Kernel kernel = subGroupKernel("block_reads");
  ASSERT_NE(kernel.function, nullptr);
  constexpr size_t kItems = 128, kLocal = 64;
  std::vector<uint32_t> ui(kItems * 4), uiOut(kItems * 4);
  std::vector<uint16_t> us(kItems * 8), usOut(kItems * 8);
  std::vector<uint8_t> uc(kItems * 16), ucOut(kItems * 16);
  std::vector<uint64_t> ul(kItems * 2), ulOut(kItems * 2);
  for (size_t e = 0; e < ui.size(); ++e) ui[e] = uint32_t(e * 3 + 1);
  for (size_t e = 0; e < us.size(); ++e) us[e] = uint16_t(e * 5 + 2);
  for (size_t e = 0; e < uc.size(); ++e) uc[e] = uint8_t(e * 7 + 3);
  for (size_t e = 0; e < ul.size(); ++e) ul[e] = (uint64_t(e) << 40) | e;
  Arguments(*kernel.descriptor)
      .set(0, ui.data()).set(1, uiOut.data()).set(2, us.data()).set(3, usOut.data())
      .set(4, uc.data()).set(5, ucOut.data()).set(6, ul.data()).set(7, ulOut.data())
      .run(kernel.function, range1d(kItems, kLocal));
  for (size_t i = 0; i < kItems; ++i) {
    for (size_t k = 0; k < 4; ++k) EXPECT_EQ(uiOut[i * 4 + k], ui[blockElement(i, k, 4)]) << i << " " << k;
    for (size_t k = 0; k < 8; ++k) EXPECT_EQ(usOut[i * 8 + k], us[blockElement(i, k, 8)]) << i << " " << k;
    for (size_t k = 0; k < 16; ++k) EXPECT_EQ(ucOut[i * 16 + k], uc[blockElement(i, k, 16)]) << i << " " << k;
    for (size_t k = 0; k < 2; ++k) EXPECT_EQ(ulOut[i * 2 + k], ul[blockElement(i, k, 2)]) << i << " " << k;
  }
}

TEST(SubGroups, IntelBlockWritesStoreOneElementPerWorkItem) {
  const Kernel kernel = subGroupKernel("block_writes");
  ASSERT_NE(kernel.function, nullptr);
  constexpr size_t kItems = 128, kLocal = 64;
  std::vector<uint32_t> ui(kItems * 4);
  std::vector<uint16_t> us(kItems * 8);
  std::vector<uint8_t> uc(kItems * 16);
  std::vector<uint64_t> ul(kItems * 2);
  Arguments(*kernel.descriptor).set(0, ui.data()).set(1, us.data()).set(2, uc.data()).set(3, ul.data()).run(kernel.function,
                                                                                                          range1d(kItems, kLocal));
  for (size_t i = 0; i < kItems; ++i) {
    for (size_t k = 0; k < 4; ++k) EXPECT_EQ(ui[blockElement(i, k, 4)], uint32_t(i * 4 + k)) << i << " " << k;
    for (size_t k = 0; k < 8; ++k) EXPECT_EQ(us[blockElement(i, k, 8)], uint16_t(i * 8 + k)) << i << " " << k;
    for (size_t k = 0; k < 16; ++k) EXPECT_EQ(uc[blockElement(i, k, 16)], uint8_t(i * 16 + k)) << i << " " << k;
    for (size_t k = 0; k < 2; ++k) EXPECT_EQ(ul[blockElement(i, k, 2)], uint64_t(i * 2 + k)) << i << " " << k;
  }
}

TEST(SubGroups, IntelBlockReadsAndWritesOfLocalMemory) {
  const Kernel kernel = subGroupKernel("local_block_io");
  ASSERT_NE(kernel.function, nullptr);
  constexpr size_t kItems = 128, kLocal = 64;
  std::vector<std::array<uint32_t, 2>> in(kItems);
  std::vector<uint32_t> out(kItems * 2);
  for (size_t i = 0; i < kItems; ++i) in[i] = {uint32_t(i * 11), uint32_t(i * 13 + 1)};
  Arguments(*kernel.descriptor).set(0, in.data()).set(1, out.data()).setLocal(2, kLocal * 2 * sizeof(uint32_t)).run(kernel.function,
                                                                                                                  range1d(kItems, kLocal));
  for (size_t i = 0; i < kItems; ++i) {
    EXPECT_EQ(out[2 * i], in[i][0]) << i;
    EXPECT_EQ(out[2 * i + 1], in[i][1]) << i;
  }
}

// OpenCL C source reaches the sub-group functions too (the frontend enables cl_khr_subgroups).
TEST(SubGroups, OpenClSourceUsesThem) {
  auto executable = load(compileOpenClSource({R"(
    kernel void k(global int* out) {
      out[get_global_id(0)] = sub_group_reduce_max((int)get_global_id(0)) + sub_group_shuffle_down(7, 0) * 100;
    })", "-cl-std=CL3.0", {}}));
  ASSERT_NE(executable, nullptr);
  std::string log;
  WorkGroupFunction function = executable->kernel("k", log);
  ASSERT_NE(function, nullptr) << log;
  std::vector<int> out(8, -1);
  Arguments(*executable->program().info.findKernel("k")).set(0, out.data()).run(function, range1d(8, 8));
  for (size_t i = 0; i < 8; ++i) EXPECT_EQ(out[i], int(SubGroupOf(i, 8, 8).first + SubGroupOf(i, 8, 8).size - 1) + 700) << i;
}

TEST(SubGroups, RequiredSubGroupSizeMustBeTheDevicesOwn) {
  const auto source = [](uint32_t size) {
    return "__attribute__((intel_reqd_sub_group_size(" + std::to_string(size) + "))) kernel void k(global int* out) { out[0] = 1; }";
  };
  const SpirvResult matching = compileOpenClSource({source(kSize), "", {}});
  ASSERT_EQ(matching.status, Status::Success) << matching.log;
  const BuildResult built = compile(matching.spirv);
  ASSERT_EQ(built.status, Status::Success) << built.log;
  EXPECT_EQ(built.program->info.findKernel("k")->requiredSubGroupSize, kSize);

  const SpirvResult other = compileOpenClSource({source(16), "", {}});
  ASSERT_EQ(other.status, Status::Success) << other.log;
  const BuildResult rejected = compile(other.spirv);
  EXPECT_EQ(rejected.status, Status::BuildFailure);
  EXPECT_NE(rejected.log.find("requires a sub-group size of 16"), std::string::npos) << rejected.log;
}

}  // namespace
}  // namespace loom::compiler::test
