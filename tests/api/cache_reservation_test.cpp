// ZE_extension_cache_reservation through the loader: the last-level cache's reservable part,
// chained to its properties; on a GPU (the persisting L2) a reservation and advice that leave a
// kernel's results as they were, and the argument checks; on the CPU, which has no reservable
// cache, both calls unsupported.
#include <level_zero/ze_api.h>

#include <vector>

#include "ze_test_helpers.h"

namespace loom::test {
namespace {

using CacheReservationTest = ZeTest;

// Each cache's reservable bytes, from a ze_cache_reservation_ext_desc_t chained to its properties.
std::vector<size_t> reservableBytes(ze_device_handle_t device) {
  uint32_t count = 0;
  EXPECT_ZE(zeDeviceGetCacheProperties(device, &count, nullptr));
  std::vector<ze_cache_reservation_ext_desc_t> reservations(count, {ZE_STRUCTURE_TYPE_CACHE_RESERVATION_EXT_DESC});
  std::vector<ze_device_cache_properties_t> caches(count, {ZE_STRUCTURE_TYPE_DEVICE_CACHE_PROPERTIES});
  for (uint32_t i = 0; i < count; ++i) {
    reservations[i].maxCacheReservationSize = 1;  // overwritten
    caches[i].pNext = &reservations[i];
  }
  EXPECT_ZE(zeDeviceGetCacheProperties(device, &count, caches.data()));
  std::vector<size_t> bytes;
  for (uint32_t i = 0; i < count; ++i) {
    EXPECT_LT(reservations[i].maxCacheReservationSize, caches[i].cacheSize);
    bytes.push_back(reservations[i].maxCacheReservationSize);
  }
  return bytes;
}

TEST_F(CacheReservationTest, TheDriverListsTheExtension) {
  EXPECT_EQ(listedExtensionVersion(ZE_CACHE_RESERVATION_EXT_NAME), uint32_t(ZE_CACHE_RESERVATION_EXT_VERSION_CURRENT));
}

TEST_F(CacheReservationTest, OnlyTheLastLevelCacheIsReservableAndOnlyOnAGpu) {
  const std::vector<size_t> bytes = reservableBytes(device);
  ASSERT_FALSE(bytes.empty());
  for (size_t i = 0; i + 1 < bytes.size(); ++i) EXPECT_EQ(bytes[i], 0u) << "cache " << i;
  if (deviceType() == ZE_DEVICE_TYPE_CPU)
    EXPECT_EQ(bytes.back(), 0u) << "a CPU's caches cannot be set aside from user space";
  else
    EXPECT_GT(bytes.back(), 0u) << "NVIDIA GPUs from compute capability 8.0 keep persisting L2 lines";
}

TEST_F(CacheReservationTest, WithoutAReservableCacheBothCallsAreUnsupported) {
  if (reservableBytes(device).back() > 0) GTEST_SKIP() << "the device has a reservable cache";
  float* memory = shared<float>(1024);
  EXPECT_EQ(zeDeviceReserveCacheExt(device, 0, 4096), ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
  EXPECT_EQ(zeDeviceSetCacheAdviceExt(device, memory, 1, ZE_CACHE_EXT_REGION_ZE_CACHE_RESERVE_REGION),
            ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
}

TEST_F(CacheReservationTest, BadArgumentsGetTheSpecsCodes) {
  float* memory = shared<float>(1024);
  EXPECT_EQ(zeDeviceReserveCacheExt(nullptr, 0, 0), ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  EXPECT_EQ(zeDeviceSetCacheAdviceExt(nullptr, memory, 1, ZE_CACHE_EXT_REGION_ZE_CACHE_RESERVE_REGION),
            ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
  EXPECT_EQ(zeDeviceSetCacheAdviceExt(device, nullptr, 1, ZE_CACHE_EXT_REGION_ZE_CACHE_RESERVE_REGION),
            ZE_RESULT_ERROR_INVALID_NULL_POINTER);
  EXPECT_EQ(zeDeviceSetCacheAdviceExt(device, memory, 1, ze_cache_ext_region_t(3)), ZE_RESULT_ERROR_INVALID_ENUMERATION);
}

TEST_F(CacheReservationTest, AReservableCacheRefusesWhatItCannotDo) {
  const size_t limit = reservableBytes(device).back();
  if (limit == 0) GTEST_SKIP() << "no reservable cache";
  float* memory = shared<float>(1024);
  int notAllocated = 0;
  EXPECT_EQ(zeDeviceReserveCacheExt(device, 1, 4096), ZE_RESULT_ERROR_UNSUPPORTED_FEATURE) << "only the last level";
  EXPECT_EQ(zeDeviceReserveCacheExt(device, 0, limit + 1), ZE_RESULT_ERROR_INVALID_SIZE);
  EXPECT_EQ(zeDeviceSetCacheAdviceExt(device, memory, 0, ZE_CACHE_EXT_REGION_ZE_CACHE_RESERVE_REGION),
            ZE_RESULT_ERROR_INVALID_SIZE);
  EXPECT_EQ(zeDeviceSetCacheAdviceExt(device, &notAllocated, 1, ZE_CACHE_EXT_REGION_ZE_CACHE_RESERVE_REGION),
            ZE_RESULT_ERROR_INVALID_ARGUMENT);
}

// The reservation is a hint to the cache: kernels compute the same with it, and after it is removed.
TEST_F(CacheReservationTest, KernelsOverReservedAndAdvisedMemoryComputeTheSame) {
  const size_t limit = reservableBytes(device).back();
  if (limit == 0) GTEST_SKIP() << "no reservable cache";
  constexpr uint32_t n = 1 << 16;
  float* a = shared<float>(n);
  float* b = shared<float>(n);
  float* sum = shared<float>(n);
  for (uint32_t i = 0; i < n; ++i) a[i] = float(i), b[i] = 0.5f * float(i);
  ASSERT_ZE(zeDeviceReserveCacheExt(device, 0, limit / 2));
  ASSERT_ZE(zeDeviceSetCacheAdviceExt(device, a, n * sizeof(float), ZE_CACHE_EXT_REGION_ZE_CACHE_RESERVE_REGION));
  ASSERT_ZE(zeDeviceSetCacheAdviceExt(device, b, 1, ZE_CACHE_EXT_REGION_ZE_CACHE_RESERVE_REGION));
  ASSERT_ZE(zeDeviceSetCacheAdviceExt(device, sum, 1, ZE_CACHE_EXT_REGION_ZE_CACHE_NON_RESERVED_REGION));
  ze_kernel_handle_t add = apiKernel("add_vectors");
  setArguments(add, a, b, sum);
  launch(add, n / 64, 64);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(sum[i], 1.5f * float(i)) << i;
  ASSERT_ZE(zeDeviceSetCacheAdviceExt(device, a, 1, ZE_CACHE_EXT_REGION_ZE_CACHE_REGION_DEFAULT));
  ASSERT_ZE(zeDeviceReserveCacheExt(device, 0, 0));
  std::fill(sum, sum + n, 0.0f);
  launch(add, n / 64, 64);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(sum[i], 1.5f * float(i)) << i;
}

}  // namespace
}  // namespace loom::test
