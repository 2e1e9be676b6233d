// The driver object: what the loader finds, its version, properties and extensions.
#include <cstring>

#include "ze_test_helpers.h"

namespace loom::test {
namespace {

using DriverTest = ZeTest;

TEST_F(DriverTest, InitTwiceSucceeds) {
  EXPECT_ZE(zeInit(0));
  EXPECT_ZE(zeInit(0));
}

TEST_F(DriverTest, TheLoaderFindsExactlyOneLoomDriver) {
  uint32_t count = 0;
  ASSERT_ZE(zeDriverGet(&count, nullptr));
  EXPECT_EQ(count, 1u);
  // Asking for more handles than there are returns the real count and leaves the rest alone.
  ze_driver_handle_t handles[3] = {nullptr, nullptr, reinterpret_cast<ze_driver_handle_t>(0x1)};
  count = 3;
  ASSERT_ZE(zeDriverGet(&count, handles));
  EXPECT_EQ(count, 1u);
  EXPECT_EQ(handles[0], driver);
}

TEST_F(DriverTest, ApiVersionIs14) {
  ze_api_version_t version{};
  ASSERT_ZE(zeDriverGetApiVersion(driver, &version));
  EXPECT_EQ(version, ZE_API_VERSION_1_4);
  EXPECT_EQ(ZE_MAJOR_VERSION(version), 1);
  EXPECT_EQ(ZE_MINOR_VERSION(version), 4);
}

TEST_F(DriverTest, PropertiesNameLoomAndHaveAVersion) {
  ze_driver_properties_t properties{ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES};
  ASSERT_ZE(zeDriverGetProperties(driver, &properties));
  EXPECT_NE(properties.driverVersion, 0u);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(properties.uuid.id), 4), "loom");
}

TEST_F(DriverTest, IpcPropertiesOfferMemoryAndEventPools) {
  ze_driver_ipc_properties_t ipc{ZE_STRUCTURE_TYPE_DRIVER_IPC_PROPERTIES};
  ASSERT_ZE(zeDriverGetIpcProperties(driver, &ipc));
  EXPECT_TRUE(ipc.flags & ZE_IPC_PROPERTY_FLAG_MEMORY);
  EXPECT_TRUE(ipc.flags & ZE_IPC_PROPERTY_FLAG_EVENT_POOL);
}

TEST_F(DriverTest, ExtensionPropertiesAreCountedAndNamed) {
  uint32_t count = 0;
  ASSERT_ZE(zeDriverGetExtensionProperties(driver, &count, nullptr));
  std::vector<ze_driver_extension_properties_t> extensions(count);
  ASSERT_ZE(zeDriverGetExtensionProperties(driver, &count, extensions.data()));
  EXPECT_EQ(count, extensions.size());
  for (const auto& extension : extensions) {
    EXPECT_GT(std::strlen(extension.name), 0u);
    EXPECT_LT(std::strlen(extension.name), sizeof(extension.name));
    EXPECT_NE(extension.version, 0u) << extension.name;
  }
}

TEST_F(DriverTest, AnUnknownExtensionFunctionIsRefused) {
  void* function = reinterpret_cast<void*>(1);
  EXPECT_EQ(zeDriverGetExtensionFunctionAddress(driver, "zexNoSuchFunction", &function), ZE_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(function, nullptr);
}

}  // namespace
}  // namespace loom::test
