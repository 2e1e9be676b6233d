// What core decides once for both APIs, seen through Level Zero: the group size it suggests and
// how large an allocation of a context may be.
#include <algorithm>
#include <vector>

#include "ze_test_helpers.h"

namespace loom::test {
namespace {

class DevicePoliciesTest : public ZeTest {};

// 8160 = 32 * 255: 255 divides it, but a multiple of what the device prefers (a warp, the CPU's
// vector lanes) divides it too, and is suggested.
TEST_F(DevicePoliciesTest, TheSuggestedGroupSizeIsAMultipleOfWhatTheDevicePrefers) {
  ze_kernel_handle_t add = apiKernel("add_vectors");
  ze_kernel_preferred_group_size_properties_t preferred{ZE_STRUCTURE_TYPE_KERNEL_PREFERRED_GROUP_SIZE_PROPERTIES};
  ze_kernel_properties_t properties{ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES, &preferred};
  ASSERT_ZE(zeKernelGetProperties(add, &properties));
  ASSERT_GT(preferred.preferredMultiple, 1u);
  uint32_t x = 0, y = 0, z = 0;
  ASSERT_ZE(zeKernelSuggestGroupSize(add, 8160, 1, 1, &x, &y, &z));
  EXPECT_EQ(8160u % x, 0u) << x;
  EXPECT_EQ(x % preferred.preferredMultiple, 0u) << x << " is no multiple of " << preferred.preferredMultiple;
  EXPECT_EQ(y, 1u);
  EXPECT_EQ(z, 1u);
}

// Host memory, and shared memory of no device, may be used by every device of the context: each
// must be able to hold it.
TEST_F(DevicePoliciesTest, AnAllocationOfNoDeviceFitsEveryDeviceOfTheContext) {
  uint32_t count = 0;
  ASSERT_ZE(zeDeviceGet(driver, &count, nullptr));
  std::vector<ze_device_handle_t> devices(count);
  ASSERT_ZE(zeDeviceGet(driver, &count, devices.data()));
  uint64_t smallest = UINT64_MAX;
  for (ze_device_handle_t each : devices) {
    ze_device_properties_t properties{ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    ASSERT_ZE(zeDeviceGetProperties(each, &properties));
    smallest = std::min(smallest, properties.maxMemAllocSize);
  }
  ze_context_handle_t all = nullptr;
  ze_context_desc_t desc{ZE_STRUCTURE_TYPE_CONTEXT_DESC};
  ASSERT_ZE(zeContextCreateEx(driver, &desc, count, devices.data(), &all));
  ze_host_mem_alloc_desc_t hostDesc{ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
  ze_device_mem_alloc_desc_t deviceDesc{ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
  void* memory = nullptr;
  EXPECT_EQ(zeMemAllocHost(all, &hostDesc, smallest + 4096, 0, &memory), ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
  EXPECT_EQ(zeMemAllocShared(all, &deviceDesc, &hostDesc, smallest + 4096, 0, nullptr, &memory), ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
  EXPECT_ZE(zeContextDestroy(all));
}

}  // namespace
}  // namespace loom::test
