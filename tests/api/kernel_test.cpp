#include <cmath>
#include <cstring>

#include "ze_test.h"

namespace loom::test {
namespace {

using KernelTest = ZeTest;

TEST_F(KernelTest, UnknownNamesAndBadGroupSizesAreRejected) {
  ze_module_handle_t m = module("api_kernels.spv");
  ze_kernel_desc_t desc{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "no_such_kernel"};
  ze_kernel_handle_t handle = nullptr;
  EXPECT_EQ(zeKernelCreate(m, &desc, &handle), ZE_RESULT_ERROR_INVALID_KERNEL_NAME);
  ze_kernel_handle_t add = apiKernel("add_vectors");
  EXPECT_EQ(zeKernelSetGroupSize(add, 0, 1, 1), ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION);
  EXPECT_EQ(zeKernelSetGroupSize(add, 4096, 4096, 1), ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION);
  EXPECT_ZE(zeKernelSetGroupSize(add, 16, 4, 2));
  ze_kernel_handle_t fixed = apiKernel("fixed_group");
  EXPECT_EQ(zeKernelSetGroupSize(fixed, 16, 1, 1), ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION);
  EXPECT_ZE(zeKernelSetGroupSize(fixed, 8, 1, 1));
}

TEST_F(KernelTest, SuggestedGroupSizesDivideTheGlobalSize) {
  ze_kernel_handle_t add = apiKernel("add_vectors");
  uint32_t x = 0, y = 0, z = 0;
  ASSERT_ZE(zeKernelSuggestGroupSize(add, 1000, 6, 1, &x, &y, &z));
  EXPECT_EQ(1000 % x, 0u);
  EXPECT_EQ(6 % y, 0u);
  EXPECT_LE(x * y * z, 256u);
  ASSERT_ZE(zeKernelSuggestGroupSize(apiKernel("fixed_group"), 64, 1, 1, &x, &y, &z));
  EXPECT_EQ(x, 8u);
}

TEST_F(KernelTest, ArgumentsAreCheckedByIndexSizeAndKind) {
  ze_kernel_handle_t reduce = apiKernel("reduce_in_groups");
  void* pointer = nullptr;
  EXPECT_EQ(zeKernelSetArgumentValue(reduce, 3, sizeof(pointer), &pointer), ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX);
  EXPECT_EQ(zeKernelSetArgumentValue(reduce, 0, 4, &pointer), ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE);
  EXPECT_ZE(zeKernelSetArgumentValue(reduce, 0, sizeof(pointer), nullptr));  // a null pointer
  EXPECT_ZE(zeKernelSetArgumentValue(reduce, 2, 1024, nullptr));            // local memory by size
  ze_group_count_t groups{1, 1, 1};
  EXPECT_EQ(zeCommandListAppendLaunchKernel(list, reduce, &groups, nullptr, 0, nullptr), ZE_RESULT_ERROR_INVALID_ARGUMENT)
      << "argument 1 was never set";
}

TEST_F(KernelTest, PropertiesAttributesNameAndSettingsRoundTrip) {
  ze_kernel_handle_t fixed = apiKernel("fixed_group");
  ze_kernel_properties_t properties{ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
  ASSERT_ZE(zeKernelGetProperties(fixed, &properties));
  EXPECT_EQ(properties.numKernelArgs, 1u);
  EXPECT_EQ(properties.requiredGroupSizeX, 8u);
  EXPECT_EQ(properties.requiredGroupSizeY, 1u);
  uint32_t size = 0;
  ASSERT_ZE(zeKernelGetSourceAttributes(fixed, &size, nullptr));
  std::string attributes(size, '\0');
  char* text = attributes.data();
  ASSERT_ZE(zeKernelGetSourceAttributes(fixed, &size, &text));
  EXPECT_STREQ(text, "reqd_work_group_size(8,1,1)");
  size_t nameSize = 0;
  ASSERT_ZE(zeKernelGetName(fixed, &nameSize, nullptr));
  std::string name(nameSize, '\0');
  ASSERT_ZE(zeKernelGetName(fixed, &nameSize, name.data()));
  EXPECT_STREQ(name.c_str(), "fixed_group");
  ASSERT_ZE(zeKernelSetIndirectAccess(fixed, ZE_KERNEL_INDIRECT_ACCESS_FLAG_DEVICE | ZE_KERNEL_INDIRECT_ACCESS_FLAG_HOST));
  ze_kernel_indirect_access_flags_t flags = 0;
  ASSERT_ZE(zeKernelGetIndirectAccess(fixed, &flags));
  EXPECT_EQ(flags, ZE_KERNEL_INDIRECT_ACCESS_FLAG_DEVICE | ZE_KERNEL_INDIRECT_ACCESS_FLAG_HOST);
  EXPECT_ZE(zeKernelSetCacheConfig(fixed, ZE_CACHE_CONFIG_FLAG_LARGE_SLM));
  EXPECT_EQ(zeKernelSetCacheConfig(fixed, 0x10), ZE_RESULT_ERROR_INVALID_ENUMERATION);
}

TEST_F(KernelTest, WorkItemFunctionsDescribeA3dRange) {
  ze_kernel_handle_t ids = apiKernel("work_item_ids");
  const uint32_t group[3] = {4, 3, 2}, count[3] = {3, 2, 2};
  const uint32_t total = group[0] * group[1] * group[2] * count[0] * count[1] * count[2];
  uint64_t* out = shared<uint64_t>(total * 16);
  setArguments(ids, out);
  ASSERT_ZE(zeKernelSetGroupSize(ids, group[0], group[1], group[2]));
  ze_group_count_t groups{count[0], count[1], count[2]};
  ASSERT_ZE(zeCommandListAppendLaunchKernel(list, ids, &groups, nullptr, 0, nullptr));
  const uint32_t global[3] = {group[0] * count[0], group[1] * count[1], group[2] * count[2]};
  for (uint32_t z = 0; z < global[2]; ++z)
    for (uint32_t y = 0; y < global[1]; ++y)
      for (uint32_t x = 0; x < global[0]; ++x) {
        const uint64_t* record = out + ((z * global[1] + y) * global[0] + x) * 16;
        const uint32_t id[3] = {x, y, z};
        for (int d = 0; d < 3; ++d) {
          ASSERT_EQ(record[d], id[d]);
          ASSERT_EQ(record[3 + d], id[d] % group[d]);
          ASSERT_EQ(record[6 + d], id[d] / group[d]);
          ASSERT_EQ(record[9 + d], group[d]);
          ASSERT_EQ(record[12 + d], count[d]);
        }
        ASSERT_EQ(record[15], 3u);
      }
}

TEST_F(KernelTest, BarriersInLoopsAndInCalledFunctionsSynchronizeTheGroup) {
  const uint32_t groupSize = 256, groups = 8, n = groupSize * groups;
  int *in = shared<int>(n), *sums = shared<int>(groups);
  for (uint32_t i = 0; i < n; ++i) in[i] = int(i % 97) - 40;
  ze_kernel_handle_t reduce = apiKernel("reduce_in_groups");
  setArguments(reduce, in, sums);
  ASSERT_ZE(zeKernelSetArgumentValue(reduce, 2, groupSize * sizeof(int), nullptr));
  launch(reduce, groups, groupSize);
  for (uint32_t g = 0; g < groups; ++g) {
    int expected = 0;
    for (uint32_t i = 0; i < groupSize; ++i) expected += in[g * groupSize + i];
    EXPECT_EQ(sums[g], expected) << "group " << g;
  }
  int* data = shared<int>(128);
  for (int i = 0; i < 128; ++i) data[i] = i;
  ze_kernel_handle_t reverse = apiKernel("reverse_in_groups");
  setArguments(reverse, data);
  launch(reverse, 2, 64);
  for (int i = 0; i < 128; ++i) ASSERT_EQ(data[i], (i / 64) * 64 + 63 - i % 64);
}

TEST_F(KernelTest, WorkItemsThatReturnBeforeABarrierDoNotStopTheOthers) {
  int* data = shared<int>(64);
  for (int i = 0; i < 64; ++i) data[i] = 7 * i + 5;
  ze_kernel_handle_t k = apiKernel("early_exit_then_barrier");
  setArguments(k, data, 40);
  launch(k, 1, 64);
  for (int i = 0; i < 40; ++i) ASSERT_EQ(data[i], 5 + i) << i;           // data[0] + local id
  for (int i = 40; i < 64; ++i) ASSERT_EQ(data[i], 7 * i + 5) << i;      // returned early: untouched
}

TEST_F(KernelTest, ScalarAndStructArgumentsArriveIntact) {
  struct Mixed {
    char c;
    int i;
    double d;
    short s;
  } mixed{3, 1000, 0.25, -7};
  double* out = shared<double>(2);
  ze_kernel_handle_t k = apiKernel("mixed_arguments");
  setArguments(k, out, mixed, char(-2), short(300), long(1) << 40, 1.5f, 2.25, uint8_t(200));
  launch(k, 1, 1);
  EXPECT_DOUBLE_EQ(out[0], 3 + 1000 + 0.25 - 7);
  // OpenCL C arithmetic: char + short + long is a long, + float is a float, + double a double.
  const float inFloat = float((1L << 40) - 2 + 300) + 1.5f;
  EXPECT_DOUBLE_EQ(out[1], double(inFloat) + 2.25 + 200);
}

TEST_F(KernelTest, AtomicsOnGlobalAndLocalMemoryCountEveryWorkItem) {
  const uint32_t groupSize = 64, groups = 16;
  int *counter = shared<int>(1), *maximum = shared<int>(1), *totals = shared<int>(groups);
  uint32_t* exchanged = shared<uint32_t>(1);
  *counter = 0, *maximum = -1, *exchanged = 0;
  ze_kernel_handle_t k = apiKernel("atomics");
  setArguments(k, counter, maximum, exchanged, totals);
  launch(k, groups, groupSize);
  EXPECT_EQ(*counter, int(groupSize * groups));
  EXPECT_EQ(*maximum, int(groupSize * groups - 1));
  EXPECT_EQ(*exchanged, 7u);
  for (uint32_t g = 0; g < groups; ++g) EXPECT_EQ(totals[g], int(groupSize));
}

TEST_F(KernelTest, MathBuiltinsMatchTheHost) {
  const uint32_t n = 64;
  float *in = shared<float>(n), *out = shared<float>(4 * n);
  for (uint32_t i = 0; i < n; ++i) in[i] = 0.1f + 0.37f * float(i);
  ze_kernel_handle_t k = apiKernel("math_functions");
  setArguments(k, in, out);
  launch(k, n / 16, 16);
  for (uint32_t i = 0; i < n; ++i) {
    const float x = in[i];
    EXPECT_NEAR(out[4 * i + 0], std::sqrt(x), 1e-6f * std::sqrt(x));
    EXPECT_NEAR(out[4 * i + 1], std::exp(x), 1e-5f * std::exp(x));
    EXPECT_NEAR(out[4 * i + 2], std::sin(x), 1e-6f);
    EXPECT_NEAR(out[4 * i + 3], std::pow(x, 1.5f), 1e-5f * std::pow(x, 1.5f));
  }
}

}  // namespace
}  // namespace loom::test
