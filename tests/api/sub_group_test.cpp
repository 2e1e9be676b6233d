// Sub-groups through Level Zero: the sizes the device and kernels report, a SPIR-V kernel using
// sub-group functions, Intel's shuffles and block reads and non-uniform instructions, and a
// required sub-group size the device lacks.
// Expectations follow the reported size (1 on the CPU, 32 on NVIDIA GPUs).
#include <algorithm>
#include <climits>

#include "ze_test_helpers.h"

namespace loom::test {
namespace {

// The device's sub-group size, and the kernels of sub_group_kernels.spv.
class SubGroupTest : public ZeTest {
 protected:
  void SetUp() override {
    ZeTest::SetUp();
    if (HasFatalFailure() || IsSkipped()) return;
    ASSERT_ZE(zeDeviceGetComputeProperties(device, &compute));
    EXPECT_EQ(compute.numSubGroupSizes, 1u) << "each device has one sub-group size";
    size = compute.numSubGroupSizes ? compute.subGroupSizes[0] : 0;
    ASSERT_GE(size, 1u);
  }

  ze_kernel_handle_t subGroupKernel(const char* name) { return kernel(module("sub_group_kernels.spv"), name); }

  ze_device_compute_properties_t compute{ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES};
  uint32_t size = 0;
};

TEST_F(SubGroupTest, KernelPropertiesFollowTheDevicesSubGroupSize) {
  if (deviceType() == ZE_DEVICE_TYPE_CPU) {
    EXPECT_EQ(size, 1u);
  }
  ze_kernel_properties_t properties{ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
  ASSERT_ZE(zeKernelGetProperties(subGroupKernel("sub_groups"), &properties));
  EXPECT_EQ(properties.maxSubgroupSize, size);
  EXPECT_EQ(properties.maxNumSubgroups, (compute.maxTotalGroupSize + size - 1) / size);
  EXPECT_EQ(properties.requiredSubgroupSize, 0u) << "the kernel requires none";
}

TEST_F(SubGroupTest, SpirvKernelUsesSubGroupFunctionsAndIntelShuffles) {
  ze_kernel_handle_t k = subGroupKernel("sub_groups");
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

// SPIR-V's non-uniform group instructions act among the work-items that reach them (those with
// odd input here); Intel's block reads and writes copy each sub-group's block unchanged.
TEST_F(SubGroupTest, SpirvNonUniformInstructionsAndIntelBlockIo) {
  ze_kernel_handle_t k = subGroupKernel("non_uniform_and_blocks");
  ASSERT_NE(k, nullptr);
  constexpr uint32_t kLocal = 96, kGroups = 2, kItems = kLocal * kGroups, kRecord = 6;
  ASSERT_EQ(kLocal % size, 0u) << "block reads need full sub-groups";
  std::vector<int> in(kItems), none(kItems * kRecord, -1);
  std::vector<uint32_t> words(kItems * 2), zeros(kItems * 2, 0);
  for (uint32_t i = 0; i < kItems; ++i) in[i] = int(i * 31 % 47);
  for (uint32_t e = 0; e < kItems * 2; ++e) words[e] = e * 2654435761u;
  int* input = deviceMemory<int>(kItems);
  int* output = deviceMemory<int>(kItems * kRecord);
  uint32_t* wordsIn = deviceMemory<uint32_t>(kItems * 2);
  uint32_t* copy = deviceMemory<uint32_t>(kItems * 2);
  upload(input, in);
  upload(output, none);
  upload(wordsIn, words);
  upload(copy, zeros);
  setArguments(k, input, output, wordsIn, copy);
  launch(k, kGroups, kLocal);
  EXPECT_EQ(download(copy, kItems * 2), words);
  const std::vector<int> out = download(output, kItems * kRecord);
  for (uint32_t i = 0; i < kItems; ++i) {
    SCOPED_TRACE(i);
    const int* record = &out[i * kRecord];
    if (in[i] % 2 == 0) {
      for (uint32_t r = 0; r < kRecord; ++r) EXPECT_EQ(record[r], -1);
      continue;
    }
    const uint32_t first = i - i % kLocal % size;
    std::vector<uint32_t> active;
    for (uint32_t j = first; j < first + size; ++j)
      if (in[j] % 2 != 0) active.push_back(j);
    uint32_t ballot = 0;
    int sum = 0, lowest = INT_MAX;
    bool equal = true, any = false;
    for (uint32_t j : active) {
      if (in[j] > 10) ballot |= 1u << (j - first);
      sum += in[j], equal = equal && in[j] == in[active.front()], any = any || in[j] > 40;
      if (j < i) lowest = std::min(lowest, in[j]);
    }
    EXPECT_EQ(record[0], active.front() == i ? 1 : 0);
    EXPECT_EQ(uint32_t(record[1]), ballot);
    EXPECT_EQ(record[2], in[active.front()]);
    EXPECT_EQ(record[3], sum);
    EXPECT_EQ(record[4], lowest);
    EXPECT_EQ(record[5], (equal ? 10 : 0) + (any ? 1 : 0));
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
