// cl_ext_float_atomics (kernels/float_atomics.cl): atomic add, sub, min and max on float and
// double in global, local and generic memory against host references, many work-items on one
// location, exact atomic loads and stores, and the same from OpenCL C source; half atomics from
// OpenCL C and from SPIR-V.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

#include "../../kernels/half_atomics_reference.h"
#include "kernel_runner.h"

namespace loom::compiler::test {
namespace {

namespace half_atomics = loom::test::half_atomics;

enum Operation { Add, Sub, Min, Max };
enum Space { Global, Local, Generic };
constexpr uint32_t kGroup = 64;  // the kernels' __local scratch arrays hold one group

template <typename T>
std::vector<T> edgeOperands() {
  using Limits = std::numeric_limits<T>;
  return {T(0),         -T(0),         T(1),           T(-1),           T(-2.5),          T(3.25),          Limits::infinity(),
          -Limits::infinity(), Limits::quiet_NaN(), Limits::max(), -Limits::max(), Limits::denorm_min(), -Limits::denorm_min(),
          T(1e-30)};
}

// The extension's min and max: a quiet NaN operand loses; min(-0, +0) may be either zero.
template <typename T>
bool isExtremum(Operation operation, T x, T y, T result) {
  if (std::isnan(x) && std::isnan(y)) return std::isnan(result);
  if (std::isnan(x)) return result == y && std::signbit(result) == std::signbit(y);
  if (std::isnan(y)) return result == x && std::signbit(result) == std::signbit(x);
  if (x == y) return result == x;  // -0 and +0 alike
  const T expected = (operation == Min) == (x < y) ? x : y;
  return result == expected;
}

template <typename T>
bool isResult(Operation operation, T x, T y, T result) {
  if (operation == Min || operation == Max) return isExtremum(operation, x, y, result);
  const T expected = operation == Add ? x + y : x - y;
  if (std::isnan(expected)) return std::isnan(result);
  return result == expected && std::signbit(result) == std::signbit(expected);
}

template <typename T>
bool sameBits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0 || (std::isnan(a) && std::isnan(b));
}

// Every pair of edge operands, one per work-item: location x, operand y.
template <typename T>
void checkPairs(const char* kernelName, Operation operation, Space space) {
  const Kernel apply = findKernel("float_atomics", kernelName);
  ASSERT_NE(apply.function, nullptr);
  const std::vector<T> edges = edgeOperands<T>();
  std::vector<T> x, y;
  for (T a : edges)
    for (T b : edges) x.push_back(a), y.push_back(b);
  const size_t pairs = x.size();
  const size_t items = (pairs + kGroup - 1) / kGroup * kGroup;
  x.resize(items, T(0)), y.resize(items, T(0));
  std::vector<T> location = x, old(items, T(7));
  Arguments(*apply.descriptor)
      .set(0, location.data())
      .set(1, y.data())
      .set(2, old.data())
      .set(3, int32_t(operation))
      .set(4, int32_t(space))
      .run(apply.function, range1d(items, kGroup));
  for (size_t i = 0; i < pairs; ++i) {
    EXPECT_TRUE(sameBits(old[i], x[i])) << kernelName << " operation " << operation << " space " << space << ": returned "
                                        << old[i] << " for " << x[i];
    EXPECT_TRUE(isResult(operation, x[i], y[i], location[i]))
        << kernelName << " operation " << operation << " space " << space << ": " << x[i] << ", " << y[i] << " gave "
        << location[i];
  }
}

class FloatAtomicPairs : public testing::TestWithParam<std::tuple<Operation, Space>> {};

TEST_P(FloatAtomicPairs, FloatMatchesTheHost) {
  checkPairs<float>("apply_float_atomics", std::get<0>(GetParam()), std::get<1>(GetParam()));
}

TEST_P(FloatAtomicPairs, DoubleMatchesTheHost) {
  checkPairs<double>("apply_double_atomics", std::get<0>(GetParam()), std::get<1>(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(EveryOperationAndSpace, FloatAtomicPairs,
                         testing::Combine(testing::Values(Add, Sub, Min, Max), testing::Values(Global, Local, Generic)));

// Integer values: every order of additions gives the exact sum.
template <typename T>
void checkHammer(const char* kernelName) {
  const Kernel hammer = findKernel("float_atomics", kernelName);
  ASSERT_NE(hammer.function, nullptr);
  constexpr size_t kItems = 1024, kGroups = kItems / kGroup;
  std::vector<T> values(kItems);
  for (size_t i = 0; i < kItems; ++i) values[i] = T(int((i * 37) % 201) - 100);
  values[5] = -T(0), values[6] = T(0);
  const T nan = std::numeric_limits<T>::quiet_NaN();
  T counter = 0, sum = 0;
  std::vector<T> taken(kItems, T(-1)), extremes = {nan, nan}, groups(3 * kGroups);
  Arguments(*hammer.descriptor)
      .set(0, &counter)
      .set(1, taken.data())
      .set(2, &sum)
      .set(3, extremes.data())
      .set(4, values.data())
      .set(5, groups.data())
      .run(hammer.function, range1d(kItems, kGroup));
  EXPECT_EQ(counter, T(kItems));
  std::sort(taken.begin(), taken.end());
  for (size_t i = 0; i < kItems; ++i) ASSERT_EQ(taken[i], T(i)) << "each old value of the counter once";
  EXPECT_EQ(sum, std::accumulate(values.begin(), values.end(), T(0)));
  EXPECT_EQ(extremes[0], T(-100)) << "a stored NaN loses";
  EXPECT_EQ(extremes[1], T(100));
  for (size_t g = 0; g < kGroups; ++g) {
    const auto first = values.begin() + g * kGroup, last = first + kGroup;
    EXPECT_EQ(groups[3 * g], -std::accumulate(first, last, T(0))) << g;
    EXPECT_EQ(groups[3 * g + 1], *std::min_element(first, last)) << g;
    EXPECT_EQ(groups[3 * g + 2], *std::max_element(first, last)) << g;
  }
}

TEST(FloatAtomics, ManyWorkItemsOnOneFloatLocation) { checkHammer<float>("hammer_float"); }
TEST(FloatAtomics, ManyWorkItemsOnOneDoubleLocation) { checkHammer<double>("hammer_double"); }

// OpAtomicFMinEXT, OpAtomicFMaxEXT and OpAtomicFAddEXT on CrossWorkgroup and Workgroup pointers.
template <typename T>
void checkSpirvBuiltins(const char* kernelName) {
  const Kernel extremes = findKernel("float_atomics", kernelName);
  ASSERT_NE(extremes.function, nullptr);
  const T nan = std::numeric_limits<T>::quiet_NaN();
  std::vector<T> low = {T(1), T(-3), nan, T(2), -T(0), T(5)}, high = low;
  const std::vector<T> operand = {T(-2), T(4), T(7), nan, T(-1), T(5)};
  const std::vector<T> initial = low;
  low.resize(kGroup, T(0)), high.resize(kGroup, T(0));
  std::vector<T> operands = operand, old(2 * kGroup);
  operands.resize(kGroup, T(0));
  Arguments(*extremes.descriptor)
      .set(0, low.data())
      .set(1, high.data())
      .set(2, operands.data())
      .set(3, old.data())
      .run(extremes.function, range1d(kGroup, kGroup));
  for (size_t i = 0; i < initial.size(); ++i) {
    EXPECT_TRUE(sameBits(old[2 * i], initial[i])) << i;
    EXPECT_TRUE(sameBits(old[2 * i + 1], initial[i])) << i;
    // The global minimum (maximum), then the same computed in local memory added to it: twice.
    const T minimum = std::isnan(initial[i]) ? operand[i] : std::isnan(operand[i]) ? initial[i] : std::min(initial[i], operand[i]);
    const T maximum = std::isnan(initial[i]) ? operand[i] : std::isnan(operand[i]) ? initial[i] : std::max(initial[i], operand[i]);
    EXPECT_EQ(low[i], 2 * minimum) << i;
    EXPECT_EQ(high[i], 2 * maximum) << i;
  }
}

TEST(FloatAtomics, SpirvBuiltinsOnGlobalAndLocalFloats) { checkSpirvBuiltins<float>("spirv_float_extremes"); }
TEST(FloatAtomics, SpirvBuiltinsOnGlobalAndLocalDoubles) { checkSpirvBuiltins<double>("spirv_double_extremes"); }

float floatWithBits(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

// The translator reads atomic floats as atomic_add(pointer, 0.0f), which would write +0 over -0.
TEST(FloatAtomics, LoadsAndStoresKeepEveryBit) {
  const Kernel loadStore = findKernel("float_atomics", "load_store_float");
  ASSERT_NE(loadStore.function, nullptr);
  const std::vector<uint32_t> bits = {0x80000000u, 0x7fc12345u, 0xffc00001u, 0x3fc00000u, 0x00000001u, 0xff800000u};
  std::vector<float> from, loaded(bits.size()), to(bits.size());
  for (uint32_t b : bits) from.push_back(floatWithBits(b));
  const std::vector<float> stored(from.rbegin(), from.rend());
  Arguments(*loadStore.descriptor)
      .set(0, from.data())
      .set(1, loaded.data())
      .set(2, to.data())
      .set(3, stored.data())
      .run(loadStore.function, range1d(bits.size(), 1));
  for (size_t i = 0; i < bits.size(); ++i) {
    uint32_t source, read, written, wanted;
    std::memcpy(&source, &from[i], 4), std::memcpy(&read, &loaded[i], 4);
    std::memcpy(&written, &to[i], 4), std::memcpy(&wanted, &stored[i], 4);
    EXPECT_EQ(source, bits[i]) << "the load left memory as it was";
    EXPECT_EQ(read, bits[i]);
    EXPECT_EQ(written, wanted);
  }
}

// Loom's own OpenCL C frontend: the extension's functions are declared and reach the library.
// Kernel `k` of OpenCL C 3.0 `source`, compiled and loaded into `executable`; nulls, with a test
// failure, when that fails.
Kernel sourceKernel(const char* source, std::unique_ptr<CpuExecutable>& executable) {
  executable = load(compileOpenClSource({source, "-cl-std=CL3.0", {}}));
  if (!executable) return {};
  std::string log;
  const Kernel kernel{executable->program().info.findKernel("k"), executable->kernel("k", log)};
  EXPECT_TRUE(kernel.descriptor && kernel.function) << log;
  return kernel.descriptor ? kernel : Kernel{};
}

TEST(FloatAtomics, OpenClCSourceUsesTheExtension) {
  const char* source = R"(
    #if !defined(cl_ext_float_atomics) || !defined(__opencl_c_ext_fp32_local_atomic_add)
    #error the extension is supported
    #endif
    kernel void k(volatile global atomic_float* sum, volatile global atomic_double* low, global float* group_sums) {
      local atomic_float group_sum;
      if (get_local_id(0) == 0) atomic_init(&group_sum, 0.0f);
      work_group_barrier(CLK_LOCAL_MEM_FENCE);
      const float value = (float)get_global_id(0);
      atomic_fetch_add_explicit(sum, value, memory_order_relaxed, memory_scope_device);
      atomic_fetch_sub_explicit(&group_sum, value, memory_order_relaxed, memory_scope_work_group);
      atomic_fetch_min_explicit(low, -(double)value, memory_order_relaxed, memory_scope_device);
      work_group_barrier(CLK_LOCAL_MEM_FENCE);
      if (get_local_id(0) == 0) group_sums[get_group_id(0)] = atomic_load(&group_sum);
    })";
  std::unique_ptr<CpuExecutable> executable;
  const Kernel kernel = sourceKernel(source, executable);
  ASSERT_NE(kernel.function, nullptr);
  float sum = 0.5f;
  double low = 0.0;
  std::vector<float> groupSums(4, 1.0f);
  Arguments(*kernel.descriptor).set(0, &sum).set(1, &low).set(2, groupSums.data()).run(kernel.function, range1d(256, 64));
  EXPECT_EQ(sum, 0.5f + 255 * 256 / 2);
  EXPECT_EQ(low, -255.0);
  for (int g = 0; g < 4; ++g) EXPECT_EQ(groupSums[g], -float(64 * 64 * g + 63 * 64 / 2)) << g;
}

// Half atomics (lowerHalfAtomics): each work-item updates one half of a pair that shares a
// 32-bit word, through global, local and generic pointers; min and max follow fmin and fmax (a
// NaN operand loses), and the other half of each word keeps its bits.
TEST(FloatAtomics, HalfAtomicsChangeOnlyTheirHalfOfTheWord) {
  const char* source = R"(
    #pragma OPENCL EXTENSION cl_khr_fp16 : enable
    kernel void k(global ushort* bits, global const half* operands) {
      local atomic_half pair[2];
      const size_t i = get_global_id(0);
      volatile global atomic_half* halves = (volatile global atomic_half*)bits;
      const half operand = operands[i];
      atomic_fetch_min(&halves[8 * i], operand);
      atomic_fetch_max_explicit(&halves[8 * i + 2], operand, memory_order_relaxed);
      volatile atomic_half* unqualified = &halves[8 * i + 4];
      atomic_fetch_add(unqualified, operand);
      atomic_store(&pair[0], (half)1.5f);
      atomic_store(&pair[1], operand);
      atomic_fetch_sub(&pair[0], (half)0.25f);
      bits[8 * i + 6] = as_ushort(atomic_load(&pair[0]));
      bits[8 * i + 7] = as_ushort(atomic_exchange(&pair[1], (half)2.0f));
    })";
  std::unique_ptr<CpuExecutable> executable;
  const Kernel kernel = sourceKernel(source, executable);
  ASSERT_NE(kernel.function, nullptr);
  // Operands: 2, NaN, -3, 0.5; every location starts at 1 (0x3c00) beside a 0xabcd neighbour.
  const std::vector<uint16_t> operands = {0x4000, 0x7e00, 0xc200, 0x3800};
  std::vector<uint16_t> bits;
  for (size_t i = 0; i < operands.size(); ++i)
    for (uint16_t value : {0x3c00, 0xabcd, 0x3c00, 0xabcd, 0x3c00, 0xabcd, 0, 0}) bits.push_back(value);
  Arguments(*kernel.descriptor).set(0, bits.data()).set(1, operands.data()).run(kernel.function, range1d(4, 1));
  const uint16_t minima[] = {0x3c00, 0x3c00, 0xc200, 0x3800}, maxima[] = {0x4000, 0x3c00, 0x3c00, 0x3c00};
  const uint16_t sums[] = {0x4200, 0x7e00, 0xc000, 0x3e00};  // 3, NaN, -2, 1.5
  for (size_t i = 0; i < operands.size(); ++i) {
    EXPECT_EQ(bits[8 * i], minima[i]) << i;
    EXPECT_EQ(bits[8 * i + 2], maxima[i]) << i;
    EXPECT_EQ(bits[8 * i + 4] & 0x7c00, sums[i] & 0x7c00) << i;
    if (i != 1) {
      EXPECT_EQ(bits[8 * i + 4], sums[i]) << i;
    }
    for (size_t neighbour : {1, 3, 5}) EXPECT_EQ(bits[8 * i + neighbour], 0xabcd) << i << " " << neighbour;
    EXPECT_EQ(bits[8 * i + 6], 0x3d00) << i;  // 1.5 - 0.25
    EXPECT_EQ(bits[8 * i + 7], operands[i]) << i;
  }
}

// Half atomics in SPIR-V as other producers write them (tests/kernels/half_atomics.spvasm):
// OpAtomicFAddEXT of SPV_EXT_shader_atomic_float16_add, which LLVM 15's translator reads only as
// the float extension's, OpAtomicFMinEXT/FMaxEXT, loads, stores and exchanges of halves.
TEST(FloatAtomics, HalfAtomicsInSpirvOfOtherProducersChangeOnlyTheirHalfOfTheWord) {
  const Kernel kernel = findKernel("half_atomics", "half_atomics");
  ASSERT_NE(kernel.function, nullptr);
  std::vector<uint16_t> bits = half_atomics::startingBits();
  std::vector<uint16_t> operands = half_atomics::kOperands;
  Arguments(*kernel.descriptor).set(0, bits.data()).set(1, operands.data()).run(kernel.function, range1d(operands.size(), 1));
  half_atomics::expectResults(bits.data());
}

// Exchange on float and double swaps the bits: every value stored is seen once, by the next
// exchange or at the end.
TEST(FloatAtomics, ExchangeSwapsFloatsAndDoubles) {
  const char* source = R"(
    kernel void k(volatile global atomic_float* f, global float* seenF, volatile global atomic_double* d, global double* seenD) {
      const size_t i = get_global_id(0);
      seenF[i] = atomic_exchange(f, (float)i + 0.5f);
      seenD[i] = atomic_exchange(d, -(double)i - 0.25);
    })";
  std::unique_ptr<CpuExecutable> executable;
  const Kernel kernel = sourceKernel(source, executable);
  ASSERT_NE(kernel.function, nullptr);
  constexpr int kItems = 128;
  float f = -1.0f;
  double d = 1.0;
  std::vector<float> seenF(kItems, 0.0f);
  std::vector<double> seenD(kItems, 0.0);
  Arguments(*kernel.descriptor).set(0, &f).set(1, seenF.data()).set(2, &d).set(3, seenD.data()).run(kernel.function,
                                                                                               range1d(kItems, 32));
  seenF.push_back(f);
  seenD.push_back(d);
  std::sort(seenF.begin(), seenF.end());
  std::sort(seenD.begin(), seenD.end());
  std::vector<float> storedF{-1.0f};
  std::vector<double> storedD{1.0};
  for (int i = 0; i < kItems; ++i) storedF.push_back(float(i) + 0.5f), storedD.push_back(-double(i) - 0.25);
  std::sort(storedF.begin(), storedF.end());
  std::sort(storedD.begin(), storedD.end());
  EXPECT_EQ(seenF, storedF);
  EXPECT_EQ(seenD, storedD);
}

}  // namespace
}  // namespace loom::compiler::test
