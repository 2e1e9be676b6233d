#include "backends/cuda/cuda_device_info.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

namespace loom::backends::cuda {
namespace {

using A = DeviceAttribute;

// What an H100 SXM reports.
const std::map<DeviceAttribute, int> kH100 = {
    {A::MaxThreadsPerBlock, 1024}, {A::MaxBlockDimX, 1024}, {A::MaxBlockDimY, 1024}, {A::MaxBlockDimZ, 64},
    {A::MaxGridDimX, 2147483647}, {A::MaxGridDimY, 65535}, {A::MaxGridDimZ, 65535},
    {A::MaxSharedMemoryPerBlock, 49152}, {A::MaxSharedMemoryPerBlockOptin, 232448}, {A::WarpSize, 32},
    {A::ClockRateKHz, 1980000}, {A::MemoryClockRateKHz, 2619000}, {A::GlobalMemoryBusWidth, 5120},
    {A::MultiprocessorCount, 132}, {A::MaxThreadsPerMultiprocessor, 2048}, {A::L2CacheSize, 52428800},
    {A::ComputeCapabilityMajor, 9}, {A::ComputeCapabilityMinor, 0}, {A::Integrated, 0}, {A::AsyncEngineCount, 3}};

AttributeLookup lookupIn(const std::map<DeviceAttribute, int>& attributes) {
  return [&attributes](DeviceAttribute which) {
    auto found = attributes.find(which);
    return found == attributes.end() ? 0 : found->second;
  };
}

DeviceFacts h100Facts() {
  DeviceFacts facts;
  facts.name = "NVIDIA H100 80GB HBM3";
  facts.totalMemory = 85520809984ull;
  for (int i = 0; i < 16; ++i) facts.uuid[i] = static_cast<uint8_t>(0xa0 + i);
  facts.pciDeviceId = 0x2330;
  return facts;
}

TEST(CudaDeviceInfo, IdentityComesFromTheDriver) {
  const core::DeviceInfo info = translateDeviceInfo(h100Facts(), lookupIn(kH100));
  EXPECT_EQ(info.type, core::DeviceType::Gpu);
  EXPECT_EQ(info.backendName, "cuda");
  EXPECT_EQ(info.name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(info.vendorId, 0x10deu);
  EXPECT_EQ(info.deviceId, 0x2330u);
  EXPECT_EQ(info.uuid[0], 0xa0);
  EXPECT_EQ(info.uuid[15], 0xaf);
  EXPECT_FALSE(info.unifiedMemory);
  EXPECT_FALSE(info.accessesSystemAllocations) << "no pageable memory access: malloc'ed memory is out of reach";
}

TEST(CudaDeviceInfo, PageableMemoryAccessLetsKernelsUseSystemAllocations) {
  std::map<DeviceAttribute, int> attributes = kH100;
  attributes[DeviceAttribute::PageableMemoryAccess] = 1;
  EXPECT_TRUE(translateDeviceInfo(h100Facts(), lookupIn(attributes)).accessesSystemAllocations);
}

TEST(CudaDeviceInfo, ClocksMemoryAndCaches) {
  const core::DeviceInfo info = translateDeviceInfo(h100Facts(), lookupIn(kH100));
  EXPECT_EQ(info.coreClockMHz, 1980u);
  EXPECT_EQ(info.memoryClockMHz, 2619u);
  EXPECT_EQ(info.memoryBusWidth, 5120u);
  EXPECT_EQ(info.globalMemorySize, 85520809984ull);
  EXPECT_EQ(info.maxAllocationSize, 85520809984ull / 4);
  EXPECT_EQ(info.lastLevelCacheSize, 52428800u);
  EXPECT_EQ(info.timerResolutionNs, 1u);
}

TEST(CudaDeviceInfo, ThePersistingPartOfTheL2IsReservableWhereStreamsHaveWindows) {
  EXPECT_EQ(translateDeviceInfo(h100Facts(), lookupIn(kH100)).maxCacheReservationSize, 0u) << "nothing reported";
  std::map<DeviceAttribute, int> attributes = kH100;
  attributes[A::MaxPersistingL2CacheSize] = 32 << 20;
  EXPECT_EQ(translateDeviceInfo(h100Facts(), lookupIn(attributes)).maxCacheReservationSize, 0u) << "no window to fill it";
  attributes[A::MaxAccessPolicyWindowSize] = 128 << 20;
  EXPECT_EQ(translateDeviceInfo(h100Facts(), lookupIn(attributes)).maxCacheReservationSize, 32u << 20);
}

TEST(CudaDeviceInfo, ComputeTopologyAndLimits) {
  const core::DeviceInfo info = translateDeviceInfo(h100Facts(), lookupIn(kH100));
  EXPECT_EQ(info.computeUnits, 132u);
  EXPECT_EQ(info.numSlices * info.numSubslicesPerSlice * info.numEusPerSubslice, 132u);
  EXPECT_EQ(info.numThreadsPerEu, 64u);  // resident warps per SM
  EXPECT_EQ(info.simdWidth, 32u);
  // Warps' lanes are scalar: programs that size their vectors by the device (hashcat's
  // VECT_SIZE) must get 1, not a warp's worth of lanes.
  EXPECT_EQ(core::preferredVectorWidth(info, 4), 1u);
  EXPECT_EQ(core::preferredVectorWidth(info, 1), 1u);
  EXPECT_EQ(info.subGroupSizes, std::vector<uint32_t>{32});
  EXPECT_EQ(info.maxWorkGroupSize, 1024u);
  EXPECT_EQ(info.maxGroupSize, (std::array<uint32_t, 3>{1024, 1024, 64}));
  EXPECT_EQ(info.maxGroupCount, (std::array<uint32_t, 3>{2147483647, 65535, 65535}));
  EXPECT_EQ(info.maxSharedLocalMemory, 232448u);  // the opt-in maximum
  EXPECT_EQ(info.maxArgumentsSize, 4096u - 80u);  // less the implicit parameters
  EXPECT_TRUE(info.supportsFp16) << "native f16 arithmetic";
  EXPECT_TRUE(info.supportsFp64);
}

TEST(CudaDeviceInfo, GroupSizesInWholeWarpsAndAQueuePerCopyEngine) {
  const core::DeviceInfo info = translateDeviceInfo(h100Facts(), lookupIn(kH100));
  EXPECT_EQ(core::preferredGroupSizeMultiple(info), 32u);
  EXPECT_EQ(info.copyQueues, 3u);
  EXPECT_GT(info.computeQueues, 1u);
}

TEST(CudaDeviceInfo, WithoutOptInSharedMemoryUsesTheDefault) {
  std::map<DeviceAttribute, int> attributes = kH100;
  attributes.erase(A::MaxSharedMemoryPerBlockOptin);
  EXPECT_EQ(translateDeviceInfo(h100Facts(), lookupIn(attributes)).maxSharedLocalMemory, 49152u);
}

TEST(CudaDeviceInfo, UnknownAttributesNeverDivideByZero) {
  const core::DeviceInfo info = translateDeviceInfo(DeviceFacts{}, [](DeviceAttribute) { return 0; });
  EXPECT_EQ(info.computeUnits, 1u);
  EXPECT_EQ(info.numThreadsPerEu, 1u);
  EXPECT_EQ(core::preferredGroupSizeMultiple(info), 1u);
  EXPECT_EQ(info.copyQueues, 1u);
  EXPECT_EQ(info.coreClockMHz, 0u);
}

TEST(CudaDeviceInfo, PciDeviceIdIsReadFromSysfs) {
  const auto root = std::filesystem::path(testing::TempDir()) / "loom-cuda-sysfs";
  std::filesystem::create_directories(root / "0000:c1:00.0");
  std::ofstream(root / "0000:c1:00.0" / "device") << "0x2330\n";
  EXPECT_EQ(readPciDeviceId(0, 0xc1, 0, root.string()), 0x2330u);
  EXPECT_EQ(readPciDeviceId(0, 0xc2, 0, root.string()), 0u);
  std::filesystem::remove_all(root);
}

}  // namespace
}  // namespace loom::backends::cuda
