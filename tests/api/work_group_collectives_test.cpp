// Work-group collective functions in real kernels from SPIR-V (OpGroup* instructions made by
// clang and llvm-spirv from OpenCL C): reduce, scans, broadcast and votes in 3-D groups and in
// 1-D groups of the device's largest size.
#include "../kernels/collective_reference.h"
#include "ze_test_helpers.h"

namespace loom::test {
namespace {

class CollectivesTest : public ZeTest {
 protected:
  // Launches group_collectives over `count` groups of `group` and compares every result.
  void check(const std::array<uint32_t, 3>& group, const std::array<uint32_t, 3>& count) {
    if (!collectives) collectives = kernel(module("collective_kernels.spv"), "group_collectives");
    ASSERT_NE(collectives, nullptr);
    const std::array<size_t, 3> global{size_t(group[0]) * count[0], size_t(group[1]) * count[1], size_t(group[2]) * count[2]};
    const std::array<size_t, 3> local{group[0], group[1], group[2]};
    const size_t n = global[0] * global[1] * global[2];
    const std::vector<int> values = collectiveInputs(workGroups(global, local), n);
    int* in = deviceMemory<int>(n);
    int64_t* out = deviceMemory<int64_t>(5 * n);
    float* maxima = deviceMemory<float>(n);
    upload(in, values);
    setArguments(collectives, in, out, maxima);
    ASSERT_ZE(zeKernelSetGroupSize(collectives, group[0], group[1], group[2]));
    ze_group_count_t groups{count[0], count[1], count[2]};
    ASSERT_ZE(zeCommandListAppendLaunchKernel(list, collectives, &groups, nullptr, 0, nullptr));
    const CollectiveResults expected = expectedCollectives(values, global, local);
    EXPECT_EQ(download(out, 5 * n), expected.out);
    EXPECT_EQ(download(maxima, n), expected.maxima);
  }

  ze_kernel_handle_t collectives = nullptr;
};

TEST_F(CollectivesTest, ReduceScanBroadcastAndVoteInThreeDimensionalGroups) { check({16, 4, 2}, {3, 2, 5}); }

TEST_F(CollectivesTest, WorkInGroupsOfTheLargestSize) {
  ze_device_compute_properties_t properties{ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES};
  ASSERT_ZE(zeDeviceGetComputeProperties(device, &properties));
  check({properties.maxTotalGroupSize, 1, 1}, {3, 1, 1});
}

}  // namespace
}  // namespace loom::test
