// Work-group collective functions on the CPU target against host references: every function and
// type, 1-, 2- and 3-D groups, ranges whose last groups are smaller, and the largest group.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <type_traits>

#include "kernel_runner.h"

namespace loom::compiler::test {
namespace {

constexpr uint32_t kLargestGroup = 4096;  // the CPU device's maximum work-group size

Kernel kernel(const std::string& name) { return findKernel("collectives", name); }

// Reductions, scans and broadcasts of type T, one result per function in blocks of the range's
// work-item count, indexed by global linear id. Compiled per type (-DT=<type>): a collective call
// takes a fraction of a second to compile, and each test process compiles only its own type.
const char* const kTypedKernels = R"(
kernel void collectives(global const T* in, global T* out) {
  size_t i = get_global_linear_id(), n = get_global_size(0) * get_global_size(1) * get_global_size(2);
  T x = in[i];
  out[i] = work_group_reduce_add(x);
  out[n + i] = work_group_reduce_min(x);
  out[2 * n + i] = work_group_reduce_max(x);
  out[3 * n + i] = work_group_scan_inclusive_add(x);
  out[4 * n + i] = work_group_scan_inclusive_min(x);
  out[5 * n + i] = work_group_scan_inclusive_max(x);
  out[6 * n + i] = work_group_scan_exclusive_add(x);
  out[7 * n + i] = work_group_scan_exclusive_min(x);
  out[8 * n + i] = work_group_scan_exclusive_max(x);
}

// The local id whose value a group broadcasts: the same for the whole group, different between groups.
size_t chosen(uint d) { return (get_group_id(d) * 7 + 3) % get_local_size(d); }

kernel void broadcast(global const T* in, global T* out) {
  size_t i = get_global_linear_id();
  size_t x = chosen(0), y = chosen(1), z = chosen(2);
  uint dims = get_work_dim();
  out[i] = dims == 1 ? work_group_broadcast(in[i], x)
         : dims == 2 ? work_group_broadcast(in[i], x, y) : work_group_broadcast(in[i], x, y, z);
}
)";

Kernel typedKernel(const char* type, const std::string& name) {
  static std::map<std::string, std::unique_ptr<CpuExecutable>> loaded;
  std::unique_ptr<CpuExecutable>& executable = loaded[type];
  if (!executable) executable = load(compileOpenClSource({kTypedKernels, std::string("-cl-std=CL3.0 -DT=") + type, {}}));
  if (!executable) return {};
  std::string log;
  Kernel found{executable->program().info.findKernel(name), executable->kernel(name, log)};
  EXPECT_NE(found.function, nullptr) << name << ": " << log;
  return found;
}

Range range3d(std::array<uint64_t, 3> globalSize, std::array<uint32_t, 3> localSize, uint32_t workDim) {
  Range range;
  range.globalSize = globalSize;
  range.localSize = localSize;
  range.workDim = workDim;
  return range;
}

// 1-D with a smaller last group, 2-D and 3-D with smaller last groups in each dimension, and
// groups of the largest size in one and three dimensions.
std::vector<Range> ranges() {
  return {range3d({1000, 1, 1}, {64, 1, 1}, 1), range3d({20, 9, 1}, {8, 4, 1}, 2), range3d({6, 5, 4}, {4, 2, 3}, 3),
          range3d({2 * kLargestGroup, 1, 1}, {kLargestGroup, 1, 1}, 1), range3d({16, 16, 32}, {16, 16, 16}, 3)};
}

std::string describe(const Range& range) {
  std::string text;
  for (int d = 0; d < 3; ++d) text += (d ? " x " : "") + std::to_string(range.globalSize[d]) + "/" + std::to_string(range.localSize[d]);
  return text;
}

size_t workItems(const Range& range) { return range.globalSize[0] * range.globalSize[1] * range.globalSize[2]; }

// One work-group: its work-items' global linear ids in local linear order, and its size and
// position per dimension.
struct Group {
  std::vector<size_t> items;
  std::array<uint64_t, 3> size, id;
};

std::vector<Group> groupsOf(const Range& range) {
  std::array<uint64_t, 3> count;
  for (int d = 0; d < 3; ++d) count[d] = (range.globalSize[d] + range.localSize[d] - 1) / range.localSize[d];
  std::vector<Group> groups(count[0] * count[1] * count[2]);
  for (uint64_t z = 0; z < range.globalSize[2]; ++z)
    for (uint64_t y = 0; y < range.globalSize[1]; ++y)
      for (uint64_t x = 0; x < range.globalSize[0]; ++x) {
        const std::array<uint64_t, 3> global{x, y, z};
        std::array<uint64_t, 3> id, local, size;
        for (int d = 0; d < 3; ++d) {
          id[d] = global[d] / range.localSize[d], local[d] = global[d] % range.localSize[d];
          size[d] = std::min<uint64_t>(range.localSize[d], range.globalSize[d] - id[d] * range.localSize[d]);
        }
        Group& group = groups[(id[2] * count[1] + id[1]) * count[0] + id[0]];
        group.size = size, group.id = id;
        group.items.resize(size[0] * size[1] * size[2]);
        group.items[(local[2] * size[1] + local[1]) * size[0] + local[0]] = (z * range.globalSize[1] + y) * range.globalSize[0] + x;
      }
  return groups;
}

template <typename T>
std::vector<T> randomValues(size_t count, uint32_t seed) {
  // Small integers: float and double sums are exact in any order.
  std::mt19937 random(seed);
  std::uniform_int_distribution<int> value(std::is_signed_v<T> ? -100 : 0, 200);
  std::vector<T> values(count);
  for (T& v : values) v = T(value(random));
  return values;
}

template <typename T>
T lowest() {
  return std::is_floating_point_v<T> ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::lowest();
}
template <typename T>
T highest() {
  return std::is_floating_point_v<T> ? std::numeric_limits<T>::infinity() : std::numeric_limits<T>::max();
}

// The nine results of kernel `collectives`, in its order: reduce, inclusive scan, exclusive
// scan, each for add, min and max.
template <typename T>
std::vector<T> expectedResults(const Range& range, const std::vector<T>& in) {
  const size_t n = workItems(range);
  std::vector<T> out(9 * n);
  const auto add = [](T a, T b) { return T(a + b); };
  const auto min = [](T a, T b) { return std::min(a, b); };
  const auto max = [](T a, T b) { return std::max(a, b); };
  for (const Group& group : groupsOf(range)) {
    int op = 0;
    for (auto [combine, identity] : {std::pair<T (*)(T, T), T>{add, T(0)}, {min, highest<T>()}, {max, lowest<T>()}}) {
      T total = identity;
      for (size_t item : group.items) total = combine(total, in[item]);
      T running = identity;
      for (size_t item : group.items) {
        out[op * n + item] = total;
        out[(6 + op) * n + item] = running;
        running = combine(running, in[item]);
        out[(3 + op) * n + item] = running;
      }
      ++op;
    }
  }
  return out;
}

template <typename T>
std::vector<T> expectedBroadcasts(const Range& range, const std::vector<T>& in) {
  std::vector<T> out(workItems(range));
  for (const Group& group : groupsOf(range)) {
    std::array<uint64_t, 3> chosen{};  // the kernel's choice: (group id * 7 + 3) % local size
    for (uint32_t d = 0; d < range.workDim; ++d) chosen[d] = (group.id[d] * 7 + 3) % group.size[d];
    const T value = in[group.items[(chosen[2] * group.size[1] + chosen[1]) * group.size[0] + chosen[0]]];
    for (size_t item : group.items) out[item] = value;
  }
  return out;
}

const char* kResultNames[9] = {"reduce_add", "reduce_min", "reduce_max", "scan_inclusive_add", "scan_inclusive_min",
                               "scan_inclusive_max", "scan_exclusive_add", "scan_exclusive_min", "scan_exclusive_max"};

template <typename T>
struct Named;
template <> struct Named<int32_t> { static constexpr const char* name = "int"; };
template <> struct Named<uint32_t> { static constexpr const char* name = "uint"; };
template <> struct Named<int64_t> { static constexpr const char* name = "long"; };
template <> struct Named<uint64_t> { static constexpr const char* name = "ulong"; };
template <> struct Named<float> { static constexpr const char* name = "float"; };
template <> struct Named<double> { static constexpr const char* name = "double"; };

template <typename T>
class WorkGroupCollectives : public testing::Test {};
using Types = testing::Types<int32_t, uint32_t, int64_t, uint64_t, float, double>;
TYPED_TEST_SUITE(WorkGroupCollectives, Types);

TYPED_TEST(WorkGroupCollectives, ReduceAndScanEveryGroupShape) {
  using T = TypeParam;
  const Kernel collectives = typedKernel(Named<T>::name, "collectives");
  ASSERT_NE(collectives.function, nullptr);
  for (const Range& range : ranges()) {
    const size_t n = workItems(range);
    const std::vector<T> in = randomValues<T>(n, uint32_t(n));
    std::vector<T> out(9 * n, T(77));
    Arguments(*collectives.descriptor).set(0, in.data()).set(1, out.data()).run(collectives.function, range);
    const std::vector<T> expected = expectedResults(range, in);
    for (size_t i = 0; i < out.size(); ++i)
      ASSERT_EQ(out[i], expected[i]) << kResultNames[i / n] << " of work-item " << i % n << ", range " << describe(range);
  }
}

TYPED_TEST(WorkGroupCollectives, BroadcastInOneTwoAndThreeDimensions) {
  using T = TypeParam;
  const Kernel broadcast = typedKernel(Named<T>::name, "broadcast");
  ASSERT_NE(broadcast.function, nullptr);
  for (const Range& range : ranges()) {
    const size_t n = workItems(range);
    const std::vector<T> in = randomValues<T>(n, uint32_t(n) + 1);
    std::vector<T> out(n, T(77));
    Arguments(*broadcast.descriptor).set(0, in.data()).set(1, out.data()).run(broadcast.function, range);
    ASSERT_EQ(out, expectedBroadcasts(range, in)) << describe(range);
  }
}

// Groups where every, some and no work-item votes true (any nonzero value is true).
TEST(WorkGroupCollectives, AllAndAnyVote) {
  const Kernel votes = kernel("votes");
  ASSERT_NE(votes.function, nullptr);
  for (const Range& range : ranges()) {
    const size_t n = workItems(range);
    const std::vector<Group> groups = groupsOf(range);
    std::vector<int> in(n), out(2 * n, 77), expected(2 * n);
    for (size_t g = 0; g < groups.size(); ++g) {
      const std::vector<size_t>& items = groups[g].items;
      for (size_t i = 0; i < items.size(); ++i) in[items[i]] = g % 3 == 0 ? -5 : g % 3 == 1 ? int(i == items.size() - 1) : 0;
      const bool all = std::all_of(items.begin(), items.end(), [&](size_t item) { return in[item] != 0; });
      const bool any = std::any_of(items.begin(), items.end(), [&](size_t item) { return in[item] != 0; });
      for (size_t item : items) expected[item] = all, expected[n + item] = any;
    }
    Arguments(*votes.descriptor).set(0, in.data()).set(1, out.data()).run(votes.function, range);
    ASSERT_EQ(out, expected) << describe(range);
  }
}

// The scratch area is reused by one call after another, in a loop, inside a function the kernel calls.
TEST(WorkGroupCollectives, RunInLoopsInsideCalledFunctions) {
  const Kernel totals = kernel("totals_in_loop");
  ASSERT_NE(totals.function, nullptr);
  constexpr int kRounds = 5;
  std::vector<int> data(1000), expected(1000);
  for (int i = 0; i < 1000; ++i) data[i] = i % 17;
  expected = data;
  for (int first = 0; first < 1000; first += 64)
    for (int round = 0; round < kRounds; ++round) {
      const int last = std::min(first + 64, 1000);
      int total = 0;
      for (int i = first; i < last; ++i) total += expected[i];
      for (int i = first; i < last; ++i) expected[i] += total % 1000;
    }
  Arguments(*totals.descriptor).set(0, data.data()).set(1, kRounds).run(totals.function, range1d(1000, 64));
  EXPECT_EQ(data, expected);
}

// One 64-bit slot per work-item of the largest group, only for the kernels that use collectives.
TEST(WorkGroupCollectives, ScratchIsLocalMemoryOfTheKernelsThatUseIt) {
  const BuildResult& built = loadKernels("collectives").build;
  ASSERT_NE(built.program, nullptr) << built.log;
  const KernelDescriptor* user = built.program->info.findKernel("votes");
  const KernelDescriptor* other = built.program->info.findKernel("no_collectives");
  ASSERT_NE(user, nullptr);
  ASSERT_NE(other, nullptr);
  EXPECT_EQ(user->staticLocalMemorySize, kLargestGroup * sizeof(uint64_t));
  EXPECT_EQ(other->staticLocalMemorySize, 0u);
  EXPECT_TRUE(user->hasBarriers);
}

// OpGroup* instructions as SYCL compilers make them (kernels/spirv_groups.cl): 8- and 16-bit
// integers, 32-bit and vector local ids, boolean votes.
TEST(WorkGroupCollectives, SpirvGroupOperationsOfEveryWidth) {
  const Kernel small = findKernel("spirv_groups", "small_integers");
  const Kernel wide = findKernel("spirv_groups", "wide_and_floating");
  ASSERT_NE(small.function, nullptr);
  ASSERT_NE(wide.function, nullptr);
  constexpr size_t kN = 100, kGroup = 32;  // the last group has 4 work-items
  std::vector<int8_t> bytes(kN);
  std::vector<int64_t> longs(kN);
  for (size_t i = 0; i < kN; ++i) bytes[i] = int8_t(int(i * 37 % 256) - 128), longs[i] = int64_t(i % 9) - 4;
  std::vector<int> smallOut(5 * kN);
  std::vector<double> wideOut(5 * kN);
  Arguments(*small.descriptor).set(0, bytes.data()).set(1, smallOut.data()).run(small.function, range1d(kN, kGroup));
  Arguments(*wide.descriptor).set(0, longs.data()).set(1, wideOut.data()).run(wide.function, range1d(kN, kGroup));
  for (size_t first = 0; first < kN; first += kGroup) {
    const size_t last = std::min(first + kGroup, kN);
    int8_t sum = 0;
    int16_t runningMin = std::numeric_limits<int16_t>::max();
    uint8_t runningMax = 0;
    uint16_t smallest = std::numeric_limits<uint16_t>::max();
    int64_t runningLongMax = std::numeric_limits<int64_t>::lowest();
    float runningFloatMin = std::numeric_limits<float>::infinity();
    double total = 0;
    bool all = true, any = false;
    for (size_t i = first; i < last; ++i) {
      sum = int8_t(sum + bytes[i]);
      smallest = std::min(smallest, uint16_t(int16_t(bytes[i])));
      total += double(longs[i]);
      all = all && longs[i] > 0, any = any || longs[i] > 0;
    }
    for (size_t i = first; i < last; ++i) {
      runningMin = std::min(runningMin, int16_t(bytes[i]));
      runningLongMax = std::max(runningLongMax, longs[i]);
      EXPECT_EQ(smallOut[i], sum) << i;
      EXPECT_EQ(smallOut[kN + i], runningMin) << i;
      EXPECT_EQ(smallOut[2 * kN + i], runningMax) << i;  // exclusive
      EXPECT_EQ(smallOut[3 * kN + i], smallest) << i;
      EXPECT_EQ(smallOut[4 * kN + i], bytes[first + 1]) << i;
      EXPECT_EQ(wideOut[i], double(runningLongMax)) << i;
      EXPECT_EQ(wideOut[kN + i], double(runningFloatMin)) << i;  // exclusive
      EXPECT_EQ(wideOut[2 * kN + i], total) << i;
      EXPECT_EQ(wideOut[3 * kN + i], all ? 1.0 : 0.0) << i;
      EXPECT_EQ(wideOut[4 * kN + i], any ? 1.0 : 0.0) << i;
      runningMax = std::max(runningMax, uint8_t(bytes[i]));
      runningFloatMin = std::min(runningFloatMin, float(longs[i]));
    }
  }
}

TEST(WorkGroupCollectives, SpirvBroadcastTakesScalarAndVectorLocalIds) {
  const Kernel broadcast = findKernel("spirv_groups", "broadcast_ids");
  ASSERT_NE(broadcast.function, nullptr);
  for (const Range& range : {range3d({100, 1, 1}, {32, 1, 1}, 1), range3d({6, 5, 4}, {4, 2, 3}, 3)}) {
    const size_t n = workItems(range);
    std::vector<int> in(n), out(3 * n), expected(3 * n);
    std::iota(in.begin(), in.end(), 1000);
    for (const Group& group : groupsOf(range))
      for (size_t item : group.items)
        for (int form = 0; form < 3; ++form) expected[form * n + item] = in[group.items[1]];  // local id (1, 0, 0)
    Arguments(*broadcast.descriptor).set(0, in.data()).set(1, out.data()).run(broadcast.function, range);
    EXPECT_EQ(out, expected) << describe(range);
  }
}

}  // namespace
}  // namespace loom::compiler::test
