// The kernel object: creation, group sizes, arguments, properties, attributes and settings.
// (kernel_execution_test.cpp runs kernels and checks what they compute.)
#include "ze_test_helpers.h"

namespace loom::test {
namespace {

using KernelTest = ZeTest;

TEST_F(KernelTest, AKernelOfTheModuleIsCreated) {
  ze_kernel_handle_t add = apiKernel("add_vectors");
  EXPECT_NE(add, nullptr);
}

TEST_F(KernelTest, AnUnknownNameIsAnInvalidKernelName) {
  ze_module_handle_t m = module("api_kernels.spv");
  ze_kernel_desc_t desc{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "no_such_kernel"};
  ze_kernel_handle_t handle = nullptr;
  EXPECT_EQ(zeKernelCreate(m, &desc, &handle), ZE_RESULT_ERROR_INVALID_KERNEL_NAME);
  EXPECT_EQ(handle, nullptr);
  desc.pKernelName = "exported_helper";  // a function, not a kernel
  EXPECT_EQ(zeKernelCreate(m, &desc, &handle), ZE_RESULT_ERROR_INVALID_KERNEL_NAME);
}

TEST_F(KernelTest, TheNameIsReturnedWithItsSize) {
  ze_kernel_handle_t fixed = apiKernel("fixed_group");
  size_t size = 0;
  ASSERT_ZE(zeKernelGetName(fixed, &size, nullptr));
  EXPECT_EQ(size, sizeof("fixed_group"));
  std::string name(size, '\0');
  ASSERT_ZE(zeKernelGetName(fixed, &size, name.data()));
  EXPECT_STREQ(name.c_str(), "fixed_group");
}

TEST_F(KernelTest, GroupSizesWithinTheDeviceLimitsAreAccepted) {
  ze_kernel_handle_t add = apiKernel("add_vectors");
  ze_device_compute_properties_t compute{ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES};
  ASSERT_ZE(zeDeviceGetComputeProperties(device, &compute));
  EXPECT_ZE(zeKernelSetGroupSize(add, 16, 4, 2));
  EXPECT_ZE(zeKernelSetGroupSize(add, 1, 1, 1));
  EXPECT_ZE(zeKernelSetGroupSize(add, compute.maxTotalGroupSize, 1, 1));
}

TEST_F(KernelTest, ZeroOrOversizedGroupSizesAreInvalidDimensions) {
  ze_kernel_handle_t add = apiKernel("add_vectors");
  ze_device_compute_properties_t compute{ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES};
  ASSERT_ZE(zeDeviceGetComputeProperties(device, &compute));
  EXPECT_EQ(zeKernelSetGroupSize(add, 0, 1, 1), ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION);
  EXPECT_EQ(zeKernelSetGroupSize(add, 1, 0, 1), ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION);
  EXPECT_EQ(zeKernelSetGroupSize(add, 1, 1, 0), ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION);
  EXPECT_EQ(zeKernelSetGroupSize(add, compute.maxGroupSizeX + 1, 1, 1), ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION);
  EXPECT_EQ(zeKernelSetGroupSize(add, compute.maxTotalGroupSize, 2, 1), ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION)
      << "the product exceeds maxTotalGroupSize";
}

TEST_F(KernelTest, ARequiredGroupSizeIsTheOnlyGroupSizeAccepted) {
  ze_kernel_handle_t fixed = apiKernel("fixed_group");
  EXPECT_EQ(zeKernelSetGroupSize(fixed, 16, 1, 1), ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION);
  EXPECT_ZE(zeKernelSetGroupSize(fixed, 8, 1, 1));
}

TEST_F(KernelTest, SuggestedGroupSizesDivideTheGlobalSize) {
  ze_kernel_handle_t add = apiKernel("add_vectors");
  ze_device_compute_properties_t compute{ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES};
  ASSERT_ZE(zeDeviceGetComputeProperties(device, &compute));
  const uint32_t globals[][3] = {{1000, 6, 1}, {1 << 20, 1, 1}, {17, 19, 23}, {1, 1, 1}, {96, 96, 8}};
  for (const auto& global : globals) {
    uint32_t x = 0, y = 0, z = 0;
    ASSERT_ZE(zeKernelSuggestGroupSize(add, global[0], global[1], global[2], &x, &y, &z));
    ASSERT_GT(x * y * z, 0u);
    EXPECT_EQ(global[0] % x, 0u) << global[0];
    EXPECT_EQ(global[1] % y, 0u) << global[1];
    EXPECT_EQ(global[2] % z, 0u) << global[2];
    EXPECT_LE(x * y * z, compute.maxTotalGroupSize);
  }
}

TEST_F(KernelTest, AZeroGlobalSizeHasNoSuggestedGroupSize) {
  uint32_t x = 0, y = 0, z = 0;
  EXPECT_EQ(zeKernelSuggestGroupSize(apiKernel("add_vectors"), 0, 1, 1, &x, &y, &z),
            ZE_RESULT_ERROR_INVALID_GLOBAL_WIDTH_DIMENSION);
}

TEST_F(KernelTest, TheSuggestedGroupSizeOfAFixedKernelIsItsRequiredSize) {
  uint32_t x = 0, y = 0, z = 0;
  ASSERT_ZE(zeKernelSuggestGroupSize(apiKernel("fixed_group"), 64, 1, 1, &x, &y, &z));
  EXPECT_EQ(x, 8u);
  EXPECT_EQ(y, 1u);
  EXPECT_EQ(z, 1u);
}

TEST_F(KernelTest, TheMaxCooperativeGroupCountIsPositive) {
  ze_kernel_handle_t add = apiKernel("add_vectors");
  ASSERT_ZE(zeKernelSetGroupSize(add, 64, 1, 1));
  uint32_t count = 0;
  ASSERT_ZE(zeKernelSuggestMaxCooperativeGroupCount(add, &count));
  EXPECT_GT(count, 0u);
}

TEST_F(KernelTest, AnArgumentIndexBeyondTheKernelsArgumentsIsRejected) {
  ze_kernel_handle_t reduce = apiKernel("reduce_in_groups");  // 3 arguments
  void* pointer = nullptr;
  EXPECT_EQ(zeKernelSetArgumentValue(reduce, 3, sizeof(pointer), &pointer), ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX);
  EXPECT_EQ(zeKernelSetArgumentValue(reduce, 100, sizeof(pointer), &pointer), ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX);
}

TEST_F(KernelTest, AnArgumentOfTheWrongSizeIsRejected) {
  ze_kernel_handle_t reduce = apiKernel("reduce_in_groups");
  void* pointer = nullptr;
  EXPECT_EQ(zeKernelSetArgumentValue(reduce, 0, 4, &pointer), ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE);
  ze_kernel_handle_t mixed = apiKernel("mixed_arguments");
  const double d = 1.0;
  EXPECT_EQ(zeKernelSetArgumentValue(mixed, 2, sizeof(d), &d), ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE)
      << "argument 2 is a char";
}

TEST_F(KernelTest, NullValuesAreNullPointersOrLocalMemorySizes) {
  ze_kernel_handle_t reduce = apiKernel("reduce_in_groups");
  EXPECT_ZE(zeKernelSetArgumentValue(reduce, 0, sizeof(void*), nullptr));  // a null global pointer
  EXPECT_ZE(zeKernelSetArgumentValue(reduce, 2, 1024, nullptr));           // local memory by size
}

TEST_F(KernelTest, ALaunchWithAnArgumentNeverSetIsRefused) {
  ze_kernel_handle_t reduce = apiKernel("reduce_in_groups");
  int* memory = shared<int>(64);
  ASSERT_ZE(zeKernelSetArgumentValue(reduce, 0, sizeof(memory), &memory));
  ASSERT_ZE(zeKernelSetArgumentValue(reduce, 2, 64 * sizeof(int), nullptr));
  ASSERT_ZE(zeKernelSetGroupSize(reduce, 64, 1, 1));
  ze_group_count_t groups{1, 1, 1};
  EXPECT_EQ(zeCommandListAppendLaunchKernel(list, reduce, &groups, nullptr, 0, nullptr), ZE_RESULT_ERROR_INVALID_ARGUMENT)
      << "argument 1 was never set";
}

TEST_F(KernelTest, LocalMemoryBeyondTheDevicesIsRefusedAtLaunch) {
  ze_kernel_handle_t reduce = apiKernel("reduce_in_groups");
  int* memory = shared<int>(64);
  ASSERT_ZE(zeKernelSetArgumentValue(reduce, 0, sizeof(memory), &memory));
  ASSERT_ZE(zeKernelSetArgumentValue(reduce, 1, sizeof(memory), &memory));
  ASSERT_ZE(zeKernelSetGroupSize(reduce, 64, 1, 1));
  ze_device_compute_properties_t compute{ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES};
  ASSERT_ZE(zeDeviceGetComputeProperties(device, &compute));
  ze_group_count_t groups{1, 1, 1};
  // Just over the limit, 2^32 bytes (which a 32-bit size would wrap to 0), 2^62 and SIZE_MAX bytes.
  for (size_t size : {size_t(compute.maxSharedLocalMemory) + 1, size_t(1) << 32, size_t(1) << 62, SIZE_MAX}) {
    ASSERT_ZE(zeKernelSetArgumentValue(reduce, 2, size, nullptr));
    EXPECT_EQ(zeCommandListAppendLaunchKernel(list, reduce, &groups, nullptr, 0, nullptr), ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY)
        << size << " bytes of local memory";
  }
  // Within the limit the same kernel launches and runs.
  for (int i = 0; i < 64; ++i) memory[i] = 1;
  ASSERT_ZE(zeKernelSetArgumentValue(reduce, 2, 64 * sizeof(int), nullptr));
  ASSERT_ZE(zeCommandListAppendLaunchKernel(list, reduce, &groups, nullptr, 0, nullptr));  // synchronous
  EXPECT_EQ(memory[0], 64);
}

TEST_F(KernelTest, PropertiesCountArgumentsAndReportTheRequiredGroupSize) {
  ze_kernel_properties_t properties{ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
  ASSERT_ZE(zeKernelGetProperties(apiKernel("fixed_group"), &properties));
  EXPECT_EQ(properties.numKernelArgs, 1u);
  EXPECT_EQ(properties.requiredGroupSizeX, 8u);
  EXPECT_EQ(properties.requiredGroupSizeY, 1u);
  EXPECT_EQ(properties.requiredGroupSizeZ, 1u);
  ze_kernel_properties_t mixed{ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
  ASSERT_ZE(zeKernelGetProperties(apiKernel("mixed_arguments"), &mixed));
  EXPECT_EQ(mixed.numKernelArgs, 8u);
  EXPECT_EQ(mixed.requiredGroupSizeX, 0u) << "no required size";
  ze_kernel_properties_t reverse{ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
  ASSERT_ZE(zeKernelGetProperties(apiKernel("reverse_in_groups"), &reverse));
  EXPECT_GE(reverse.localMemSize, 64 * sizeof(int)) << "the static __local array";
}

TEST_F(KernelTest, SourceAttributesNameTheRequiredGroupSize) {
  ze_kernel_handle_t fixed = apiKernel("fixed_group");
  uint32_t size = 0;
  ASSERT_ZE(zeKernelGetSourceAttributes(fixed, &size, nullptr));
  ASSERT_GT(size, 0u);
  std::string attributes(size, '\0');
  char* text = attributes.data();
  ASSERT_ZE(zeKernelGetSourceAttributes(fixed, &size, &text));
  EXPECT_STREQ(text, "reqd_work_group_size(8,1,1)");
}

TEST_F(KernelTest, IndirectAccessFlagsRoundTrip) {
  ze_kernel_handle_t add = apiKernel("add_vectors");
  ze_kernel_indirect_access_flags_t flags = 0xff;
  ASSERT_ZE(zeKernelGetIndirectAccess(add, &flags));
  EXPECT_EQ(flags, 0u) << "none by default";
  for (ze_kernel_indirect_access_flags_t set :
       {ze_kernel_indirect_access_flags_t(ZE_KERNEL_INDIRECT_ACCESS_FLAG_DEVICE | ZE_KERNEL_INDIRECT_ACCESS_FLAG_HOST),
        ze_kernel_indirect_access_flags_t(ZE_KERNEL_INDIRECT_ACCESS_FLAG_SHARED), ze_kernel_indirect_access_flags_t(0)}) {
    ASSERT_ZE(zeKernelSetIndirectAccess(add, set));
    ASSERT_ZE(zeKernelGetIndirectAccess(add, &flags));
    EXPECT_EQ(flags, set);
  }
  EXPECT_EQ(zeKernelSetIndirectAccess(add, 0x8), ZE_RESULT_ERROR_INVALID_ENUMERATION);
}

TEST_F(KernelTest, CacheConfigurationsAreAcceptedAndUnknownOnesRejected) {
  ze_kernel_handle_t add = apiKernel("add_vectors");
  EXPECT_ZE(zeKernelSetCacheConfig(add, ZE_CACHE_CONFIG_FLAG_LARGE_SLM));
  EXPECT_ZE(zeKernelSetCacheConfig(add, ZE_CACHE_CONFIG_FLAG_LARGE_DATA));
  EXPECT_ZE(zeKernelSetCacheConfig(add, 0));
  EXPECT_EQ(zeKernelSetCacheConfig(add, 0x10), ZE_RESULT_ERROR_INVALID_ENUMERATION);
}

}  // namespace
}  // namespace loom::test
