// The device object: the CPU device's properties, queue groups, timers, PCI properties and
// sub-devices.
#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "ze_test_helpers.h"

namespace loom::test {
namespace {

using DeviceTest = ZeTest;

ze_device_properties_t deviceProperties(ze_device_handle_t device) {
  ze_device_properties_t properties{ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
  EXPECT_ZE(zeDeviceGetProperties(device, &properties));
  return properties;
}

// Every entry of one of the device's property arrays, by the two-call idiom.
template <typename Properties, typename Query>
std::vector<Properties> propertiesArray(ze_device_handle_t device, Query query, ze_structure_type_t type) {
  uint32_t count = 0;
  EXPECT_ZE(query(device, &count, nullptr));
  std::vector<Properties> entries(count, Properties{type});
  EXPECT_ZE(query(device, &count, entries.data()));
  return entries;
}

bool requested(const char* variable, const char* value) {
  const char* set = std::getenv(variable);
  return set && std::string(set) == value;
}

TEST_F(DeviceTest, TheDriverListsGpusFirstThenItsOneCpuDevice) {
  uint32_t count = 0;
  ASSERT_ZE(zeDeviceGet(driver, &count, nullptr));
  std::vector<ze_device_handle_t> devices(count);
  ASSERT_ZE(zeDeviceGet(driver, &count, devices.data()));
  ASSERT_GE(count, 1u);
  EXPECT_EQ(devices[0], device) << "the same device, the same handle";
  uint32_t cpus = 0;
  for (uint32_t i = 0; i < count; ++i) {
    const ze_device_properties_t properties = deviceProperties(devices[i]);
    EXPECT_GT(std::string(properties.name).size(), 0u);
    EXPECT_FALSE(properties.flags & ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE);
    if (properties.type == ZE_DEVICE_TYPE_GPU) continue;
    EXPECT_EQ(properties.type, ZE_DEVICE_TYPE_CPU);
    EXPECT_EQ(i, count - 1) << "the CPU device comes after every GPU";
    EXPECT_TRUE(properties.flags & ZE_DEVICE_PROPERTY_FLAG_INTEGRATED);
    ++cpus;
  }
  // LOOM_ForceBackend=cuda exposes the GPUs alone.
  const char* forced = std::getenv("LOOM_ForceBackend");
  EXPECT_EQ(cpus, forced && std::string(forced) == "cuda" ? 0u : 1u);
}

TEST_F(DeviceTest, TimerResolutionIsNanosecondsOrTicksPerSecondBy12Structure) {
  EXPECT_EQ(deviceProperties(device).timerResolution, 1u);  // nanoseconds per tick
  ze_device_properties_t hertz{ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES_1_2};
  ASSERT_ZE(zeDeviceGetProperties(device, &hertz));
  EXPECT_EQ(hertz.timerResolution, 1'000'000'000u);  // ticks per second with the 1.2 structure
}

TEST_F(DeviceTest, PropertiesAgreeWithComputeAndMemoryProperties) {
  const ze_device_properties_t properties = deviceProperties(device);
  EXPECT_GE(properties.numEUsPerSubslice * properties.numSubslicesPerSlice * properties.numSlices, 1u);
  EXPECT_GE(properties.numThreadsPerEU, 1u);
  EXPECT_GT(properties.maxMemAllocSize, 0u);
  ze_device_compute_properties_t compute{ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES};
  ASSERT_ZE(zeDeviceGetComputeProperties(device, &compute));
  EXPECT_GE(compute.maxTotalGroupSize, 256u);
  for (uint32_t size : {compute.maxGroupSizeX, compute.maxGroupSizeY, compute.maxGroupSizeZ}) {
    EXPECT_GE(size, 1u);
    EXPECT_LE(size, compute.maxTotalGroupSize);
  }
  for (uint32_t count : {compute.maxGroupCountX, compute.maxGroupCountY, compute.maxGroupCountZ}) EXPECT_GE(count, 1u);
  EXPECT_GT(compute.maxSharedLocalMemory, 0u);
  ASSERT_GE(compute.numSubGroupSizes, 1u);
  ASSERT_LE(compute.numSubGroupSizes, uint32_t(ZE_SUBGROUPSIZE_COUNT));
  for (uint32_t i = 0; i < compute.numSubGroupSizes; ++i) EXPECT_GE(compute.subGroupSizes[i], 1u);
  uint32_t count = 0;
  ASSERT_ZE(zeDeviceGetMemoryProperties(device, &count, nullptr));
  ASSERT_EQ(count, 1u);
  ze_device_memory_properties_t memory{ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES};
  ASSERT_ZE(zeDeviceGetMemoryProperties(device, &count, &memory));
  EXPECT_GT(memory.totalSize, 0u);
  EXPECT_LE(properties.maxMemAllocSize, memory.totalSize);
}

TEST_F(DeviceTest, ModulePropertiesOfferSpirv12Fp64AndFp16) {
  ze_device_module_properties_t module{ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES};
  ASSERT_ZE(zeDeviceGetModuleProperties(device, &module));
  EXPECT_GE(module.spirvVersionSupported, ZE_MAKE_VERSION(1, 2));
  EXPECT_TRUE(module.flags & ZE_DEVICE_MODULE_FLAG_FP64);
  EXPECT_TRUE(module.flags & ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS);
  EXPECT_TRUE(module.flags & ZE_DEVICE_MODULE_FLAG_FP16);
  const ze_device_fp_flags_t ieeeHalf =
      ZE_DEVICE_FP_FLAG_DENORM | ZE_DEVICE_FP_FLAG_INF_NAN | ZE_DEVICE_FP_FLAG_ROUND_TO_NEAREST | ZE_DEVICE_FP_FLAG_FMA;
  EXPECT_EQ(module.fp16flags & ieeeHalf, ieeeHalf);
  EXPECT_TRUE(module.fp64flags & ZE_DEVICE_FP_FLAG_ROUND_TO_NEAREST);
  EXPECT_TRUE(module.fp64flags & ZE_DEVICE_FP_FLAG_FMA);
  EXPECT_GT(module.maxArgumentsSize, 0u);
}

// nativeKernelSupported names binary compatibility (one target, one compiler), not the device:
// every device of one kind agrees, tiles included (LOOM_CpuSubDevices), and kinds differ.
TEST_F(DeviceTest, NativeKernelUuidNamesTheTargetNotTheDevice) {
  std::vector<ze_device_handle_t> devices;
  uint32_t count = 0;
  ASSERT_ZE(zeDeviceGet(driver, &count, nullptr));
  devices.resize(count);
  ASSERT_ZE(zeDeviceGet(driver, &count, devices.data()));
  for (size_t i = 0; i < devices.size(); ++i) {  // grows as sub-devices are found
    uint32_t subCount = 0;
    ASSERT_ZE(zeDeviceGetSubDevices(devices[i], &subCount, nullptr));
    std::vector<ze_device_handle_t> subDevices(subCount);
    ASSERT_ZE(zeDeviceGetSubDevices(devices[i], &subCount, subDevices.data()));
    devices.insert(devices.end(), subDevices.begin(), subDevices.end());
  }
  auto nativeKernelUuid = [](ze_device_handle_t of) {
    ze_device_module_properties_t module{ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES};
    EXPECT_ZE(zeDeviceGetModuleProperties(of, &module));
    return std::vector<uint8_t>(std::begin(module.nativeKernelSupported.id), std::end(module.nativeKernelSupported.id));
  };
  for (size_t i = 0; i < devices.size(); ++i) {
    const ze_device_properties_t first = deviceProperties(devices[i]);
    EXPECT_NE(nativeKernelUuid(devices[i]), std::vector<uint8_t>(ZE_MAX_NATIVE_KERNEL_UUID_SIZE, 0));
    for (size_t j = i + 1; j < devices.size(); ++j) {
      const ze_device_properties_t second = deviceProperties(devices[j]);
      EXPECT_NE(std::memcmp(first.uuid.id, second.uuid.id, ZE_MAX_DEVICE_UUID_SIZE), 0) << "devices " << i << ", " << j;
      if (first.type == second.type)
        EXPECT_EQ(nativeKernelUuid(devices[i]), nativeKernelUuid(devices[j])) << "devices " << i << ", " << j;
      else
        EXPECT_NE(nativeKernelUuid(devices[i]), nativeKernelUuid(devices[j])) << "devices " << i << ", " << j;
    }
  }
}

TEST_F(DeviceTest, QueueGroupsAreComputeAndCopyWithSeveralQueuesEach) {
  const auto groups = propertiesArray<ze_command_queue_group_properties_t>(device, zeDeviceGetCommandQueueGroupProperties,
                                                                          ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES);
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_TRUE(groups[0].flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE);
  EXPECT_TRUE(groups[0].flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY);  // compute engines copy too
  EXPECT_FALSE(groups[1].flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE);
  EXPECT_TRUE(groups[1].flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY);
  for (const auto& group : groups) {
    EXPECT_GT(group.numQueues, 1u);
    EXPECT_GE(group.maxMemoryFillPatternSize, 128u);
  }
}

TEST_F(DeviceTest, MemoryAccessCapabilitiesIncludeReadWriteForEveryKind) {
  ze_device_memory_access_properties_t access{ZE_STRUCTURE_TYPE_DEVICE_MEMORY_ACCESS_PROPERTIES};
  ASSERT_ZE(zeDeviceGetMemoryAccessProperties(device, &access));
  EXPECT_TRUE(access.hostAllocCapabilities & ZE_MEMORY_ACCESS_CAP_FLAG_RW);
  EXPECT_TRUE(access.deviceAllocCapabilities & ZE_MEMORY_ACCESS_CAP_FLAG_RW);
  EXPECT_TRUE(access.sharedSingleDeviceAllocCapabilities & ZE_MEMORY_ACCESS_CAP_FLAG_RW);
}

TEST_F(DeviceTest, CachePropertiesAreNonEmpty) {
  const auto caches =
      propertiesArray<ze_device_cache_properties_t>(device, zeDeviceGetCacheProperties, ZE_STRUCTURE_TYPE_DEVICE_CACHE_PROPERTIES);
  ASSERT_GE(caches.size(), 1u);
  for (const auto& cache : caches) EXPECT_GT(cache.cacheSize, 0u);
}

TEST_F(DeviceTest, ImagePropertiesReportTheImageLimits) {
  ze_device_image_properties_t image{ZE_STRUCTURE_TYPE_DEVICE_IMAGE_PROPERTIES};
  ASSERT_ZE(zeDeviceGetImageProperties(device, &image));
  EXPECT_EQ(image.stype, ZE_STRUCTURE_TYPE_DEVICE_IMAGE_PROPERTIES) << "the structure's header stays";
  EXPECT_GE(image.maxImageDims1D, 16384u);
  EXPECT_GE(image.maxImageDims2D, 16384u);
  EXPECT_GE(image.maxImageDims3D, 2048u);
  EXPECT_GE(image.maxImageArraySlices, 2048u);
  EXPECT_GE(image.maxImageBufferSize, 65536u);
  EXPECT_GE(image.maxSamplers, 16u);
  EXPECT_GE(image.maxReadImageArgs, 128u);
  EXPECT_GE(image.maxWriteImageArgs, 64u);
}

TEST_F(DeviceTest, TheDeviceIsItsOwnPeer) {
  ze_bool_t canAccess = false;
  ASSERT_ZE(zeDeviceCanAccessPeer(device, device, &canAccess));
  EXPECT_TRUE(canAccess);
  ze_device_p2p_properties_t p2p{ZE_STRUCTURE_TYPE_DEVICE_P2P_PROPERTIES};
  ASSERT_ZE(zeDeviceGetP2PProperties(device, device, &p2p));
  EXPECT_TRUE(p2p.flags & ZE_DEVICE_P2P_PROPERTY_FLAG_ACCESS);
}

// ZE_extension_pci_properties: a GPU is one PCI function, whose link figures are known or -1; the
// CPU device, and a root made of several GPUs, are none.
TEST_F(DeviceTest, PciPropertiesAreAGpusAlone) {
  const auto devices =
      listed<ze_device_handle_t>([&](uint32_t* count, ze_device_handle_t* out) { return zeDeviceGet(driver, count, out); });
  for (ze_device_handle_t each : devices) {
    ze_pci_ext_properties_t pci{ZE_STRUCTURE_TYPE_PCI_EXT_PROPERTIES};
    const ze_result_t result = zeDevicePciGetPropertiesExt(each, &pci);
    if (deviceProperties(each).type == ZE_DEVICE_TYPE_CPU) {
      EXPECT_EQ(result, ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
      continue;
    }
    if (result == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE) {
      uint32_t tiles = 0;
      ASSERT_ZE(zeDeviceGetSubDevices(each, &tiles, nullptr));
      EXPECT_GT(tiles, 1u) << "only a root made of several GPUs is no PCI function";
      continue;
    }
    ASSERT_ZE(result);
    EXPECT_TRUE(pci.maxSpeed.genVersion == -1 || pci.maxSpeed.genVersion >= 1) << pci.maxSpeed.genVersion;
    EXPECT_TRUE(pci.maxSpeed.width == -1 || pci.maxSpeed.width >= 1) << pci.maxSpeed.width;
    EXPECT_TRUE(pci.maxSpeed.maxBandwidth == -1 || pci.maxSpeed.maxBandwidth > 0) << pci.maxSpeed.maxBandwidth;
  }
}

TEST_F(DeviceTest, PciPropertiesNullArgumentsGetTheSpecsCodes) {
  ze_pci_ext_properties_t pci{ZE_STRUCTURE_TYPE_PCI_EXT_PROPERTIES};
  EXPECT_EQ(zeDevicePciGetPropertiesExt(nullptr, &pci), ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  EXPECT_EQ(zeDevicePciGetPropertiesExt(device, nullptr), ZE_RESULT_ERROR_INVALID_NULL_POINTER);
}

TEST_F(DeviceTest, TheDriverListsThePciPropertiesExtension) {
  EXPECT_EQ(listedExtensionVersion(ZE_PCI_PROPERTIES_EXT_NAME), uint32_t(ZE_PCI_PROPERTIES_EXT_VERSION_CURRENT));
}

TEST_F(DeviceTest, GlobalTimestampsIncrease) {
  uint64_t host0 = 0, device0 = 0, host1 = 0, device1 = 0;
  ASSERT_ZE(zeDeviceGetGlobalTimestamps(device, &host0, &device0));
  std::this_thread::sleep_for(std::chrono::microseconds(50));
  ASSERT_ZE(zeDeviceGetGlobalTimestamps(device, &host1, &device1));
  EXPECT_GT(host1, host0);
  EXPECT_GT(device1, device0);
  EXPECT_GE(device1 - device0, 50'000u) << "device ticks are nanoseconds (timerResolution 1)";
}

TEST_F(DeviceTest, StatusIsSuccess) { EXPECT_ZE(zeDeviceGetStatus(device)); }

TEST_F(DeviceTest, NoSubDevicesByDefault) {
  if (std::getenv("LOOM_CpuSubDevices") || std::getenv("ZE_FLAT_DEVICE_HIERARCHY"))
    GTEST_SKIP() << "sub-devices may have been requested";
  uint32_t count = 5;
  ASSERT_ZE(zeDeviceGetSubDevices(device, &count, nullptr));
  EXPECT_EQ(count, 0u);
}

// The hierarchy tests run as their own CTest entries, with LOOM_CpuSubDevices, ZE_FLAT_DEVICE_HIERARCHY
// and ZE_AFFINITY_MASK set (see CMakeLists.txt); each skips where its environment is not set.
class SubDeviceTest : public ZeTest {
 protected:
  // LOOM_CpuSubDevices, 0 when unset.
  static uint32_t tiles() {
    const char* set = std::getenv("LOOM_CpuSubDevices");
    return set ? uint32_t(std::atoi(set)) : 0;
  }
  static bool masked() { return std::getenv("ZE_AFFINITY_MASK") != nullptr; }
  // FLAT and COMBINED enumerate alike: every tile a root device.
  static bool flat() { return requested("ZE_FLAT_DEVICE_HIERARCHY", "FLAT") || requested("ZE_FLAT_DEVICE_HIERARCHY", "COMBINED"); }

  std::vector<ze_device_handle_t> rootDevices() {
    uint32_t count = 0;
    EXPECT_ZE(zeDeviceGet(driver, &count, nullptr));
    std::vector<ze_device_handle_t> devices(count);
    EXPECT_ZE(zeDeviceGet(driver, &count, devices.data()));
    return devices;
  }
  static std::vector<ze_device_handle_t> subDevicesOf(ze_device_handle_t root) {
    uint32_t count = 0;
    EXPECT_ZE(zeDeviceGetSubDevices(root, &count, nullptr));
    std::vector<ze_device_handle_t> subDevices(count);
    EXPECT_ZE(zeDeviceGetSubDevices(root, &count, subDevices.data()));
    return subDevices;
  }
  static void expectSubDeviceIds(const std::vector<ze_device_handle_t>& subDevices, const std::vector<uint32_t>& ids) {
    ASSERT_EQ(subDevices.size(), ids.size());
    for (size_t i = 0; i < ids.size(); ++i) {
      const ze_device_properties_t properties = deviceProperties(subDevices[i]);
      EXPECT_EQ(properties.type, ZE_DEVICE_TYPE_CPU);
      EXPECT_TRUE(properties.flags & ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE) << "sub-device " << i;
      EXPECT_EQ(properties.subdeviceId, ids[i]);
      EXPECT_TRUE(subDevicesOf(subDevices[i]).empty()) << "tiles have no sub-devices of their own";
    }
  }
  // The position of a CPU tile, which its UUID's last byte holds (tile + 1; 0 for the whole CPU).
  static uint32_t cpuTileOfUuid(ze_device_handle_t device) { return deviceProperties(device).uuid.id[15]; }

  // Module, kernel, list and shared memory all on each device in turn.
  void expectEachRunsAKernel(const std::vector<ze_device_handle_t>& devices) {
    const uint32_t n = 1024;
    float *a = shared<float>(n), *b = shared<float>(n), *sum = shared<float>(n);
    for (uint32_t index = 0; index < devices.size(); ++index) {
      device = devices[index];
      apiModule = nullptr;
      ze_kernel_handle_t add = apiKernel("add_vectors");
      ze_command_list_handle_t deviceList = immediateList(ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
      for (uint32_t i = 0; i < n; ++i) a[i] = float(i), b[i] = float(index + 1), sum[i] = 0.0f;
      setArguments(add, a, b, sum);
      launch(add, n / 64, 64, deviceList);
      for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(sum[i], float(i) + float(index + 1)) << "device " << index;
    }
  }
};

// Unset and COMPOSITE alike: the CPU is one root device over its tiles.
TEST_F(SubDeviceTest, TheCpuIsARootOverItsTilesWithTheirIds) {
  if (tiles() < 2 || masked() || flat()) GTEST_SKIP() << "run with tiles, not FLAT";
  const std::vector<ze_device_handle_t> roots = rootDevices();
  ASSERT_EQ(roots.size(), 1u);
  const ze_device_properties_t root = deviceProperties(roots[0]);
  EXPECT_FALSE(root.flags & ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE);
  EXPECT_EQ(cpuTileOfUuid(roots[0]), 0u);
  std::vector<uint32_t> ids(tiles());
  for (uint32_t i = 0; i < ids.size(); ++i) ids[i] = i;
  expectSubDeviceIds(subDevicesOf(roots[0]), ids);
}

TEST_F(SubDeviceTest, EachTileRunsAKernel) {
  if (tiles() < 2 || masked() || flat()) GTEST_SKIP() << "run with tiles, not FLAT";
  expectEachRunsAKernel(subDevicesOf(device));
}

TEST_F(SubDeviceTest, FlatExposesEveryTileAsARootDevice) {
  if (tiles() < 2 || masked() || !flat()) GTEST_SKIP() << "run with FLAT or COMBINED";
  const std::vector<ze_device_handle_t> roots = rootDevices();
  ASSERT_EQ(roots.size(), tiles());
  for (uint32_t i = 0; i < roots.size(); ++i) {
    const ze_device_properties_t properties = deviceProperties(roots[i]);
    EXPECT_EQ(properties.type, ZE_DEVICE_TYPE_CPU);
    EXPECT_FALSE(properties.flags & ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE) << "a flat device is a root device";
    EXPECT_EQ(properties.subdeviceId, 0u);
    EXPECT_EQ(cpuTileOfUuid(roots[i]), i + 1) << "flat device " << i << " is tile " << i;
    EXPECT_TRUE(subDevicesOf(roots[i]).empty());
  }
  ze_bool_t canAccess = false;
  ASSERT_ZE(zeDeviceCanAccessPeer(roots[0], roots[1], &canAccess));
  EXPECT_TRUE(canAccess) << "the tiles' memory is the host's";
  expectEachRunsAKernel(roots);
}

TEST_F(SubDeviceTest, AnAffinityMaskOfTheDeviceKeepsAllItsTiles) {
  if (!requested("ZE_AFFINITY_MASK", "0") || tiles() != 2) GTEST_SKIP() << "run with ZE_AFFINITY_MASK=0";
  ASSERT_EQ(rootDevices().size(), 1u);
  expectSubDeviceIds(subDevicesOf(device), {0, 1});
}

TEST_F(SubDeviceTest, AnAffinityMaskOfOneTileExposesThatTileAlone) {
  if (!requested("ZE_AFFINITY_MASK", "0.1")) GTEST_SKIP() << "run with ZE_AFFINITY_MASK=0.1";
  ASSERT_EQ(rootDevices().size(), 1u);
  const ze_device_properties_t properties = deviceProperties(device);
  EXPECT_TRUE(properties.flags & ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE) << "it is still a tile of its root";
  EXPECT_EQ(properties.subdeviceId, 1u);
  EXPECT_EQ(cpuTileOfUuid(device), 2u);
  EXPECT_TRUE(subDevicesOf(device).empty());
  expectEachRunsAKernel({device});
}

TEST_F(SubDeviceTest, AnAffinityMaskOfSomeTilesKeepsThemUnderTheirRoot) {
  const bool firstTwo = requested("ZE_AFFINITY_MASK", "0.0,0.1"), evenOnes = requested("ZE_AFFINITY_MASK", "0.0,0.2");
  if (!(firstTwo || evenOnes) || tiles() != 4) GTEST_SKIP() << "run with 4 tiles, ZE_AFFINITY_MASK=0.0,0.1 or 0.0,0.2";
  ASSERT_EQ(rootDevices().size(), 1u);
  EXPECT_FALSE(deviceProperties(device).flags & ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE);
  const std::vector<ze_device_handle_t> subDevices = subDevicesOf(device);
  const uint32_t second = firstTwo ? 1 : 2;
  expectSubDeviceIds(subDevices, {0, second});
  ASSERT_EQ(subDevices.size(), 2u);
  EXPECT_EQ(cpuTileOfUuid(subDevices[1]), second + 1);
  expectEachRunsAKernel(subDevices);
}

TEST_F(SubDeviceTest, AFlatAffinityMaskCountsFlatDevices) {
  if (!requested("ZE_AFFINITY_MASK", "1") || !requested("ZE_FLAT_DEVICE_HIERARCHY", "FLAT"))
    GTEST_SKIP() << "run with ZE_FLAT_DEVICE_HIERARCHY=FLAT ZE_AFFINITY_MASK=1";
  ASSERT_EQ(rootDevices().size(), 1u);
  EXPECT_EQ(cpuTileOfUuid(device), 2u) << "flat device 1 is the second tile";
  EXPECT_FALSE(deviceProperties(device).flags & ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE);
  EXPECT_TRUE(subDevicesOf(device).empty());
}

}  // namespace
}  // namespace loom::test
