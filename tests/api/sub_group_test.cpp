// Sub-groups through Level Zero: the sizes the device and kernels report, a SPIR-V kernel using
// sub-group functions and Intel's shuffles, and a required sub-group size the device lacks.
// Expectations follow the reported size (1 on the CPU, 32 on NVIDIA GPUs).
#include <algorithm>

#include "ze_test_helpers.h"

namespace loom::test {
namespace {

using SubGroupTest = ZeTest;

uint32_t deviceSubGroupSize(ze_device_handle_t device) {
  ze_device_compute_properties_t compute{ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES};
  EXPECT_ZE(zeDeviceGetComputeProperties(device, &compute));
  EXPECT_EQ(compute.numSubGroupSizes, 1u) << "each device has one sub-group size";
  return compute.numSubGroupSizes ? compute.subGroupSizes[0] : 0;
}

TEST_F(SubGroupTest, KernelPropertiesFollowTheDevicesSubGroupSize) {
  const uint32_t size = deviceSubGroupSize(device);
  ASSERT_GE(size, 1u);
  if (deviceType() == ZE_DEVICE_TYPE_CPU) EXPECT_EQ(size, 1u);
  ze_device_compute_properties_t compute{ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES};
  ASSERT_ZE(zeDeviceGetComputeProperties(device, &compute));
  ze_kernel_properties_t properties{ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
  ASSERT_ZE(zeKernelGetProperties(kernel(module("sub_group_kernels.spv"), "sub_groups"), &properties));
  EXPECT_EQ(properties.maxSubgroupSize, size);
  EXPECT_EQ(properties.maxNumSubgroups, (compute.maxTotalGroupSize + size - 1) / size);
  EXPECT_EQ(properties.requiredSubgroupSize, 0u) << "the kernel requires none";
}

TEST_F(SubGroupTest, SpirvKernelUsesSubGroupFunctionsAndIntelShuffles) {
  const uint32_t size = deviceSubGroupSize(device);
  ASSERT_GE(size, 1u);
  ze_kernel_handle_t k = kernel(module("sub_group_kernels.spv"), "sub_groups");
  ASSERT_NE(k, nullptr);
  // Two groups of 96: full sub-groups of any size dividing 96 (1 or 32).
  constexpr uint32_t kLocal = 96, kGroups = 2, kItems = kLocal * kGroups, kRecord = 10;
  std::vector<int> in(kItems);
  for (uint32_t i = 0; i < kItems; ++i) in[i] = int(i * 29 % 53) - 20;
  int* input = deviceMemory<int>(kItems);
  int* output = deviceMemory<int>(kItems * kRecord);
  upload(input, in);
  setArguments(k, input, output);
  launch(k, kGroups, kLocal);
  const std::vector<int> out = download(output, kItems * kRecord);
  ASSERT_EQ(kLocal % size, 0u) << "the expectations below assume full sub-groups";
  const uint32_t step = size > 1 ? 1 : 0;
  for (uint32_t i = 0; i < kItems; ++i) {
    SCOPED_TRACE(i);
    const uint32_t local = i % kLocal, id = local % size, first = i - id;
    const int* record = &out[i * kRecord];
    EXPECT_EQ(uint32_t(record[0]), size);
    EXPECT_EQ(uint32_t(record[1]), size);
    EXPECT_EQ(uint32_t(record[2]), kLocal / size);
    EXPECT_EQ(uint32_t(record[3]), local / size);
    EXPECT_EQ(uint32_t(record[4]), id);
    int sum = 0, highest = in[first];
    for (uint32_t j = first; j < first + size; ++j) sum += in[j];
    for (uint32_t j = first; j <= i; ++j) highest = std::max(highest, in[j]);
    EXPECT_EQ(record[5], sum);
    EXPECT_EQ(record[6], highest);
    EXPECT_EQ(record[7], in[first + (id + 1) % size]);
    EXPECT_EQ(record[8], id + 1 < size ? in[i + 1] : -in[first]);
    EXPECT_EQ(record[9], in[first + (id ^ step)]);
  }
}

TEST_F(SubGroupTest, ARequiredSubGroupSizeTheDeviceLacksFailsTheBuild) {
  const std::vector<uint8_t> spirv = readKernelFile("sub_group_size_16.spv");
  ASSERT_FALSE(spirv.empty());
  ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC};
  desc.format = ZE_MODULE_FORMAT_IL_SPIRV;
  desc.inputSize = spirv.size();
  desc.pInputModule = spirv.data();
  ze_module_handle_t m = nullptr;
  ze_module_build_log_handle_t log = nullptr;
  EXPECT_EQ(zeModuleCreate(context, device, &desc, &m, &log), ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
  EXPECT_EQ(m, nullptr);
  const std::string text = takeBuildLog(log);
  EXPECT_NE(text.find("requires a sub-group size of 16"), std::string::npos) << text;
}

}  // namespace
}  // namespace loom::test
