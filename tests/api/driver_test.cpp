// The driver object: what the loader finds, its version, properties and extensions, and Intel's
// host-pointer import through zeDriverGetExtensionFunctionAddress.
#include <cstring>
#include <vector>

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

// Intel's host-pointer import (zexDriverImportExternalPointer and its two companions), found
// through the loader: the application's own memory, imported, is where a kernel reads and writes.
class ExternalPointerTest : public ZeTest {
 protected:
  void SetUp() override {
    ZeTest::SetUp();
    function("zexDriverImportExternalPointer", import);
    function("zexDriverReleaseImportedPointer", release);
    function("zexDriverGetHostPointerBaseAddress", baseAddress);
  }
  template <typename Function>
  void function(const char* name, Function& out) {
    void* address = nullptr;
    EXPECT_ZE(zeDriverGetExtensionFunctionAddress(driver, name, &address));
    out = reinterpret_cast<Function>(address);
  }
  ze_result_t (*import)(ze_driver_handle_t, void*, size_t) = nullptr;
  ze_result_t (*release)(ze_driver_handle_t, void*) = nullptr;
  ze_result_t (*baseAddress)(ze_driver_handle_t, void*, void**) = nullptr;
};

TEST_F(ExternalPointerTest, ImportsAreFoundOverlapsRefusedAndReleasesTakeTheStart) {
  ASSERT_TRUE(import && release && baseAddress);
  std::vector<char> memory(1 << 16);
  char* start = memory.data();
  ASSERT_ZE(import(driver, start + 4096, 8192));
  void* base = nullptr;
  ASSERT_ZE(baseAddress(driver, start + 5000, &base));
  EXPECT_EQ(base, start + 4096);
  EXPECT_EQ(baseAddress(driver, start, &base), ZE_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_ZE(import(driver, start + 5000, 100)) << "inside an import";
  EXPECT_EQ(import(driver, start + 8192, 8192), ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE);
  EXPECT_EQ(import(driver, start, 8192), ZE_RESULT_ERROR_INVALID_SIZE);
  EXPECT_EQ(import(driver, nullptr, 8192), ZE_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(import(driver, start, 0), ZE_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(import(driver, start, SIZE_MAX), ZE_RESULT_ERROR_INVALID_SIZE) << "past the end of the address space";
  EXPECT_EQ(import(nullptr, start, 8192), ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  EXPECT_EQ(release(driver, start + 5000), ZE_RESULT_ERROR_INVALID_ARGUMENT) << "not the start";
  EXPECT_ZE(release(driver, start + 4096));
  EXPECT_EQ(release(driver, start + 4096), ZE_RESULT_ERROR_INVALID_ARGUMENT) << "released already";
}

// On a GPU the import pins the memory where kernels can address it (without an import, malloc'ed
// memory is out of a GPU's reach unless it has pageable memory access).
TEST_F(ExternalPointerTest, AKernelAddsVectorsInImportedMemory) {
  ASSERT_TRUE(import && release);
  constexpr uint32_t n = 4096;
  std::vector<float> a(n), b(n), sum(n, -1.0f);
  for (uint32_t i = 0; i < n; ++i) a[i] = float(i), b[i] = 2.0f * float(i);
  for (std::vector<float>* each : {&a, &b, &sum}) ASSERT_ZE(import(driver, each->data(), n * sizeof(float)));
  ze_kernel_handle_t add = apiKernel("add_vectors");
  setArguments(add, a.data(), b.data(), sum.data());
  launch(add, n / 64, 64);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(sum[i], 3.0f * float(i)) << i;
  for (std::vector<float>* each : {&a, &b, &sum}) EXPECT_ZE(release(driver, each->data()));
}

}  // namespace
}  // namespace loom::test
