#include "ze_test.h"

namespace loom::test {
namespace {

using DriverTest = ZeTest;

TEST_F(DriverTest, LoaderFindsOneLoomDriverWithApi14) {
  uint32_t count = 0;
  ASSERT_ZE(zeDriverGet(&count, nullptr));
  EXPECT_EQ(count, 1u);
  ze_api_version_t version{};
  ASSERT_ZE(zeDriverGetApiVersion(driver, &version));
  EXPECT_EQ(version, ZE_API_VERSION_1_4);
}

TEST_F(DriverTest, PropertiesAndIpcPropertiesAreTrue) {
  ze_driver_properties_t properties{ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES};
  ASSERT_ZE(zeDriverGetProperties(driver, &properties));
  EXPECT_NE(properties.driverVersion, 0u);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(properties.uuid.id), 4), "loom");
  ze_driver_ipc_properties_t ipc{ZE_STRUCTURE_TYPE_DRIVER_IPC_PROPERTIES};
  ASSERT_ZE(zeDriverGetIpcProperties(driver, &ipc));
  EXPECT_TRUE(ipc.flags & ZE_IPC_PROPERTY_FLAG_MEMORY);
  EXPECT_TRUE(ipc.flags & ZE_IPC_PROPERTY_FLAG_EVENT_POOL);
}

TEST_F(DriverTest, NoExtensionIsClaimedAndUnknownFunctionsAreRefused) {
  uint32_t count = 99;
  ASSERT_ZE(zeDriverGetExtensionProperties(driver, &count, nullptr));
  EXPECT_EQ(count, 0u);
  void* function = reinterpret_cast<void*>(1);
  EXPECT_EQ(zeDriverGetExtensionFunctionAddress(driver, "zexNoSuchFunction", &function), ZE_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(function, nullptr);
}

TEST_F(DriverTest, UnimplementedEntryPointsSayUnsupported) {
  ze_image_desc_t desc{ZE_STRUCTURE_TYPE_IMAGE_DESC};
  ze_image_handle_t image = nullptr;
  EXPECT_EQ(zeImageCreate(context, device, &desc, &image), ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
}

}  // namespace
}  // namespace loom::test
