// cl_ext_float_atomics: the device reports the extension and its capabilities, and kernels from
// OpenCL C (3.0 and 2.0) and from IL add, subtract, take minima and maxima of float and double in
// global and local memory, many work-items on each location, exactly.
#include <algorithm>

#include "../kernels/float_atomic_reference.h"
#include "../kernels/half_reference.h"
#include "cl_test_helpers.h"
#include "opencl/float_atomics.h"

namespace loom::test {
namespace {

class FloatAtomicsTest : public ClTest, public testing::WithParamInterface<ProgramKind> {
 protected:
  cl_kernel floatAtomicSums() {
    return kernelOfKind(GetParam(), "float_atomic_kernels", "float_atomic_sums");
  }
};

TEST_P(FloatAtomicsTest, ManyWorkItemsAddTakeMinimaAndMaximaExactly) {
  constexpr size_t kGroups = 64, kGroupSize = 128, kItems = kGroups * kGroupSize;
  cl_kernel k = floatAtomicSums();
  ASSERT_NE(k, nullptr);
  const std::vector<float> values = floatAtomicValues(kItems);
  cl_mem in = bufferWith(values);
  cl_mem counter = bufferWith(std::vector<float>{0.0f});
  cl_mem taken = buffer(CL_MEM_READ_WRITE, kItems * sizeof(float));
  cl_mem floats = bufferWith(floatAtomicInitialFloats());
  cl_mem doubles = bufferWith(floatAtomicInitialDoubles());
  cl_mem groups = buffer(CL_MEM_READ_WRITE, 3 * kGroups * sizeof(double));
  setArgs(k, in, counter, taken, floats, doubles, groups);
  const size_t local = kGroupSize;
  ASSERT_NO_FATAL_FAILURE(run1d(k, kItems, &local));
  const FloatAtomicResults expected = expectedFloatAtomics(values, kGroupSize);
  EXPECT_EQ(readBack<float>(counter, 1), std::vector<float>{float(kItems)});
  std::vector<float> seen = readBack<float>(taken, kItems);
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(seen, expected.taken) << "each old value of the counter once";
  EXPECT_EQ(readBack<float>(floats, 3), expected.floats);
  EXPECT_EQ(readBack<double>(doubles, 3), expected.doubles);
  EXPECT_EQ(readBack<double>(groups, 3 * kGroups), expected.groups);
}

LOOM_INSTANTIATE_FOR_PROGRAM_KINDS(FloatAtomicsTest);

// Half atomics (the extension's atomic_half functions): many work-items on two halves of one
// 32-bit word, each must see the other's updates and keep its neighbour's bits.
constexpr const char* kHalfAtomicsSource = R"(
  #pragma OPENCL EXTENSION cl_khr_fp16 : enable
  kernel void half_atomics(global const half* values, volatile global atomic_half* counters, global half* taken,
                           volatile global atomic_half* extremes, global half* group_results) {
    local atomic_half group_counters[2];
    const size_t i = get_global_id(0);
    const half value = values[i];
    if (get_local_id(0) == 0) {
      atomic_store(&group_counters[0], (half)0);
      atomic_store_explicit(&group_counters[1], value, memory_order_relaxed);
    }
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    taken[i] = atomic_fetch_add_explicit(&counters[0], (half)1, memory_order_relaxed, memory_scope_device);
    atomic_fetch_sub(&counters[1], (half)1);
    atomic_fetch_min(&extremes[0], value);
    atomic_fetch_max_explicit(&extremes[1], value, memory_order_relaxed, memory_scope_device);
    atomic_exchange(&extremes[2], (half)7);
    atomic_fetch_add_explicit(&group_counters[0], (half)1, memory_order_relaxed, memory_scope_work_group);
    atomic_fetch_max_explicit(&group_counters[1], value, memory_order_relaxed, memory_scope_work_group);
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) {
      group_results[2 * get_group_id(0)] = atomic_load(&group_counters[0]);
      group_results[2 * get_group_id(0) + 1] = atomic_load_explicit(&group_counters[1], memory_order_relaxed);
    }
  })";

class HalfAtomicsTest : public ClTest, public testing::WithParamInterface<const char*> {};

TEST_P(HalfAtomicsTest, ManyWorkItemsUpdateHalvesOfOneWordExactly) {
  constexpr size_t kGroups = 8, kGroupSize = 128, kItems = kGroups * kGroupSize;  // counts below 2048 are exact halves
  cl_program p = build(kHalfAtomicsSource, GetParam());
  ASSERT_NE(p, nullptr);
  cl_kernel k = kernel(p, "half_atomics");
  std::vector<cl_half> values(kItems);
  for (size_t i = 0; i < kItems; ++i) values[i] = halfBits(float((i * 37) % kItems) / 2 - 256.0f);  // -256 .. 255.5, exact
  cl_mem counters = bufferWith(std::vector<cl_half>{halfBits(0.0f), halfBits(2000.0f)});
  cl_mem taken = buffer(CL_MEM_READ_WRITE, kItems * sizeof(cl_half));
  cl_mem extremes = bufferWith(std::vector<cl_half>{halfBits(1000.0f), halfBits(-1000.0f), halfBits(0.0f), halfBits(3.0f)});
  cl_mem groups = buffer(CL_MEM_READ_WRITE, 2 * kGroups * sizeof(cl_half));
  setArgs(k, bufferWith(values), counters, taken, extremes, groups);
  const size_t local = kGroupSize;
  ASSERT_NO_FATAL_FAILURE(run1d(k, kItems, &local));
  EXPECT_EQ(readBack<cl_half>(counters, 2), (std::vector<cl_half>{halfBits(float(kItems)), halfBits(2000.0f - kItems)}));
  std::vector<float> seen;
  for (cl_half old : readBack<cl_half>(taken, kItems)) seen.push_back(halfToFloat(old));
  std::sort(seen.begin(), seen.end());
  for (size_t i = 0; i < kItems; ++i) ASSERT_EQ(seen[i], float(i)) << "each old value of the counter once";
  // The fourth half shares a word with the exchanged third and keeps its bits.
  EXPECT_EQ(readBack<cl_half>(extremes, 4),
            (std::vector<cl_half>{halfBits(-256.0f), halfBits(255.5f), halfBits(7.0f), halfBits(3.0f)}));
  const std::vector<cl_half> group = readBack<cl_half>(groups, 2 * kGroups);
  for (size_t g = 0; g < kGroups; ++g) {
    float groupMax = -1000.0f;
    for (size_t i = g * kGroupSize; i < (g + 1) * kGroupSize; ++i) groupMax = std::max(groupMax, halfToFloat(values[i]));
    EXPECT_EQ(halfToFloat(group[2 * g]), float(kGroupSize)) << g;
    EXPECT_EQ(halfToFloat(group[2 * g + 1]), groupMax) << g;
  }
}

INSTANTIATE_TEST_SUITE_P(Programs, HalfAtomicsTest, testing::Values("-cl-std=CL3.0", "-cl-std=CL2.0"),
                         [](const testing::TestParamInfo<const char*>& info) { return info.index == 0 ? "OpenClC30" : "OpenClC20"; });

TEST_F(ClTest, DeviceReportsFloatAtomics) {
  const std::set<std::string> extensions = splitWords(deviceString(CL_DEVICE_EXTENSIONS));
  EXPECT_TRUE(extensions.count("cl_ext_float_atomics"));
  const cl_device_fp_atomic_capabilities_ext addMinMax = CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT | CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT |
                                                         CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT | CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT;
  const auto single = deviceInfo<cl_device_fp_atomic_capabilities_ext>(CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT);
  EXPECT_EQ(single & addMinMax, addMinMax);
  const auto doubles = deviceInfo<cl_device_fp_atomic_capabilities_ext>(CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT);
  EXPECT_EQ(doubles, extensions.count("cl_khr_fp64") ? single : 0u);
}

}  // namespace
}  // namespace loom::test
