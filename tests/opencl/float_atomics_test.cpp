// cl_ext_float_atomics: the device reports the extension and its capabilities, and kernels from
// OpenCL C (3.0 and 2.0) and from IL add, subtract, take minima and maxima of float and double in
// global and local memory, many work-items on each location, exactly.
#include <algorithm>

#include "../kernels/float_atomic_reference.h"
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
