#include <algorithm>

#include "ze_test.h"

namespace loom::test {
namespace {

using DeviceTest = ZeTest;

TEST_F(DeviceTest, TheCpuDeviceDescribesTheMachine) {
  ze_device_properties_t properties{ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
  ASSERT_ZE(zeDeviceGetProperties(device, &properties));
  EXPECT_EQ(properties.type, ZE_DEVICE_TYPE_CPU);
  EXPECT_GT(std::string(properties.name).size(), 0u);
  EXPECT_GT(properties.maxMemAllocSize, 0u);
  EXPECT_GE(properties.numEUsPerSubslice * properties.numSubslicesPerSlice * properties.numSlices, 1u);
  EXPECT_EQ(properties.timerResolution, 1u);  // nanoseconds per tick
  EXPECT_FALSE(properties.flags & ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE);
  ze_device_properties_t hertz{ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES_1_2};
  ASSERT_ZE(zeDeviceGetProperties(device, &hertz));
  EXPECT_EQ(hertz.timerResolution, 1'000'000'000u);  // ticks per second with the 1.2 structure
}

TEST_F(DeviceTest, ComputeAndModulePropertiesAreConsistent) {
  ze_device_compute_properties_t compute{ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES};
  ASSERT_ZE(zeDeviceGetComputeProperties(device, &compute));
  EXPECT_GE(compute.maxTotalGroupSize, 256u);
  EXPECT_LE(compute.maxGroupSizeX, compute.maxTotalGroupSize);
  EXPECT_GT(compute.maxSharedLocalMemory, 0u);
  ASSERT_GE(compute.numSubGroupSizes, 1u);
  ze_device_module_properties_t module{ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES};
  ASSERT_ZE(zeDeviceGetModuleProperties(device, &module));
  EXPECT_GE(module.spirvVersionSupported, ZE_MAKE_VERSION(1, 2));
  EXPECT_TRUE(module.flags & ZE_DEVICE_MODULE_FLAG_FP64);
  EXPECT_TRUE(module.flags & ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS);
  EXPECT_FALSE(module.flags & ZE_DEVICE_MODULE_FLAG_FP16);  // no half support yet
  EXPECT_NE(module.fp64flags, 0u);
}

TEST_F(DeviceTest, QueueGroupsOfferComputeAndCopyWithSeveralQueues) {
  uint32_t count = 0;
  ASSERT_ZE(zeDeviceGetCommandQueueGroupProperties(device, &count, nullptr));
  ASSERT_EQ(count, 2u);
  std::vector<ze_command_queue_group_properties_t> groups(count, {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES});
  ASSERT_ZE(zeDeviceGetCommandQueueGroupProperties(device, &count, groups.data()));
  EXPECT_TRUE(groups[0].flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE);
  EXPECT_FALSE(groups[1].flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE);
  EXPECT_TRUE(groups[1].flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY);
  for (const auto& group : groups) {
    EXPECT_GT(group.numQueues, 1u);
    EXPECT_GE(group.maxMemoryFillPatternSize, 128u);
  }
}

TEST_F(DeviceTest, MemoryCacheImageAndP2PPropertiesAreTruthful) {
  uint32_t count = 0;
  ASSERT_ZE(zeDeviceGetMemoryProperties(device, &count, nullptr));
  ASSERT_EQ(count, 1u);
  ze_device_memory_properties_t memory{ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES};
  ASSERT_ZE(zeDeviceGetMemoryProperties(device, &count, &memory));
  EXPECT_GT(memory.totalSize, 0u);
  ze_device_memory_access_properties_t access{ZE_STRUCTURE_TYPE_DEVICE_MEMORY_ACCESS_PROPERTIES};
  ASSERT_ZE(zeDeviceGetMemoryAccessProperties(device, &access));
  EXPECT_TRUE(access.sharedSingleDeviceAllocCapabilities & ZE_MEMORY_ACCESS_CAP_FLAG_RW);
  count = 0;
  ASSERT_ZE(zeDeviceGetCacheProperties(device, &count, nullptr));
  EXPECT_GE(count, 1u);
  ze_device_image_properties_t image{ZE_STRUCTURE_TYPE_DEVICE_IMAGE_PROPERTIES};
  ASSERT_ZE(zeDeviceGetImageProperties(device, &image));
  EXPECT_EQ(image.maxImageDims2D, 0u);  // no images yet
  ze_bool_t canAccess = false;
  ASSERT_ZE(zeDeviceCanAccessPeer(device, device, &canAccess));
  EXPECT_TRUE(canAccess);
  ze_device_p2p_properties_t p2p{ZE_STRUCTURE_TYPE_DEVICE_P2P_PROPERTIES};
  ASSERT_ZE(zeDeviceGetP2PProperties(device, device, &p2p));
  EXPECT_TRUE(p2p.flags & ZE_DEVICE_P2P_PROPERTY_FLAG_ACCESS);
}

TEST_F(DeviceTest, GlobalTimestampsAdvanceTogether) {
  uint64_t host0 = 0, device0 = 0, host1 = 0, device1 = 0;
  ASSERT_ZE(zeDeviceGetGlobalTimestamps(device, &host0, &device0));
  ASSERT_ZE(zeDeviceGetGlobalTimestamps(device, &host1, &device1));
  EXPECT_GT(host1, host0);
  EXPECT_GT(device1, device0);
  EXPECT_ZE(zeDeviceGetStatus(device));
}

TEST_F(DeviceTest, NoSubDevicesByDefault) {
  uint32_t count = 5;
  ASSERT_ZE(zeDeviceGetSubDevices(device, &count, nullptr));
  if (std::getenv("LOOM_CpuSubDevices")) GTEST_SKIP() << "sub-devices were requested";
  EXPECT_EQ(count, 0u);
}

}  // namespace
}  // namespace loom::test
