// Runs as its own CTest entry with LOOM_CpuSubDevices=2 (see CMakeLists.txt).
#include <cstdlib>

#include "ze_test.h"

namespace loom::test {
namespace {

using SubDeviceTest = ZeTest;

TEST_F(SubDeviceTest, TwoTilesRunKernelsOfTheirOwn) {
  const char* tiles = std::getenv("LOOM_CpuSubDevices");
  if (!tiles || std::string(tiles) != "2") GTEST_SKIP() << "run with LOOM_CpuSubDevices=2";
  uint32_t count = 0;
  ASSERT_ZE(zeDeviceGetSubDevices(device, &count, nullptr));
  ASSERT_EQ(count, 2u);
  std::vector<ze_device_handle_t> subDevices(count);
  ASSERT_ZE(zeDeviceGetSubDevices(device, &count, subDevices.data()));
  for (uint32_t i = 0; i < count; ++i) {
    ze_device_properties_t properties{ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    ASSERT_ZE(zeDeviceGetProperties(subDevices[i], &properties));
    EXPECT_TRUE(properties.flags & ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE);
    EXPECT_EQ(properties.subdeviceId, i);
  }
  // A kernel on tile 1: module, kernel and list all on the sub-device.
  device = subDevices[1];
  ze_kernel_handle_t add = apiKernel("add_vectors");
  ze_command_list_handle_t tileList = immediateList(ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
  const uint32_t n = 1024;
  float *a = shared<float>(n), *b = shared<float>(n), *sum = shared<float>(n);
  for (uint32_t i = 0; i < n; ++i) a[i] = float(i), b[i] = 1.0f, sum[i] = 0.0f;
  setArguments(add, a, b, sum);
  launch(add, n / 64, 64, tileList);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(sum[i], float(i) + 1.0f);
}

// Runs as its own CTest entry with LOOM_CpuSubDevices=2 and ZE_AFFINITY_MASK=0.1.
TEST_F(SubDeviceTest, AnAffinityMaskOfOneTileExposesThatTileAlone) {
  const char* mask = std::getenv("ZE_AFFINITY_MASK");
  if (!mask || std::string(mask) != "0.1") GTEST_SKIP() << "run with ZE_AFFINITY_MASK=0.1";
  uint32_t count = 0;
  ASSERT_ZE(zeDeviceGet(driver, &count, nullptr));
  ASSERT_EQ(count, 1u);
  ze_device_properties_t properties{ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
  ASSERT_ZE(zeDeviceGetProperties(device, &properties));
  EXPECT_EQ(properties.subdeviceId, 1u);
  uint32_t subDevices = 5;
  ASSERT_ZE(zeDeviceGetSubDevices(device, &subDevices, nullptr));
  EXPECT_EQ(subDevices, 0u);
}

}  // namespace
}  // namespace loom::test
