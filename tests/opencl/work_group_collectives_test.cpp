// Work-group collective functions in real kernels, from OpenCL C (3.0 and 2.0) and from IL:
// reduce, scans, broadcast and votes over non-uniform 1-, 2- and 3-D ranges, up to groups of
// the device's largest size; and the device reports them.
#include <array>

#include "../kernels/collective_reference.h"
#include "cl_test_helpers.h"

namespace loom::test {
namespace {

class WorkGroupCollectivesTest : public ClTest, public testing::WithParamInterface<ProgramKind> {
 protected:
  cl_kernel collectives() {
    return kernelOfKind(GetParam(), "collective_kernels", "group_collectives");
  }

  // Runs group_collectives over `global` work-items in groups of `local` and compares every result.
  void check(cl_uint dims, std::array<size_t, 3> global, std::array<size_t, 3> local) {
    cl_kernel k = collectives();
    ASSERT_NE(k, nullptr);
    const size_t n = global[0] * global[1] * global[2];
    const std::vector<int> values = collectiveInputs(workGroups(global, local), n);
    cl_mem in = bufferWith(values);
    cl_mem out = buffer(CL_MEM_READ_WRITE, 5 * n * sizeof(cl_long));
    cl_mem maxima = buffer(CL_MEM_READ_WRITE, n * sizeof(float));
    setArgs(k, in, out, maxima);
    ASSERT_CL_OK(clEnqueueNDRangeKernel(queue, k, dims, nullptr, global.data(), local.data(), 0, nullptr, nullptr));
    const CollectiveResults expected = expectedCollectives(values, global, local);
    EXPECT_EQ(readBack<int64_t>(out, 5 * n), expected.out);
    EXPECT_EQ(readBack<float>(maxima, n), expected.maxima);
  }
};

TEST_P(WorkGroupCollectivesTest, TwoDimensionalRangeWithSmallerLastGroups) { check(2, {30, 7, 1}, {8, 4, 1}); }

TEST_P(WorkGroupCollectivesTest, ThreeDimensionalRangeWithSmallerLastGroups) { check(3, {10, 6, 5}, {4, 3, 2}); }

TEST_P(WorkGroupCollectivesTest, GroupsOfTheLargestSizeAndASmallLastOne) {
  const size_t largest = deviceInfo<size_t>(CL_DEVICE_MAX_WORK_GROUP_SIZE);
  check(1, {3 * largest + 5, 1, 1}, {largest, 1, 1});
}

LOOM_INSTANTIATE_FOR_PROGRAM_KINDS(WorkGroupCollectivesTest);

TEST_F(ClTest, DeviceReportsWorkGroupCollectiveFunctions) {
  EXPECT_EQ(deviceInfo<cl_bool>(CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT), cl_bool(CL_TRUE));
  const auto features = infoArray<cl_name_version>(
      [&](size_t s, void* v, size_t* r) { return clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, s, v, r); });
  EXPECT_TRUE(std::any_of(features.begin(), features.end(), [](const cl_name_version& feature) {
    return std::string(feature.name) == "__opencl_c_work_group_collective_functions";
  }));
}

}  // namespace
}  // namespace loom::test
