#include "level_zero/device/cache_reservation.h"

#include <algorithm>
#include <optional>
#include <string>

#include "level_zero/device/device.h"
#include "level_zero/validation.h"
#include "loom/core/runtime.h"
#include "loom/core/shared_memory.h"

namespace loom::l0 {
namespace {

// The levels zeDeviceGetCacheProperties lists are 1 and the last; only the last can be reserved.
constexpr size_t kLastLevelCache = 2;

uint64_t reservableBytes(ze_device_handle_t hDevice) { return Device::fromHandle(hDevice)->core().info().maxCacheReservationSize; }
bool reservesCache(ze_device_handle_t hDevice) { return reservableBytes(hDevice) > 0; }

}  // namespace

ze_result_t zeDeviceReserveCacheExt(ze_device_handle_t hDevice, size_t cacheLevel, size_t cacheReservationSize) {
  ZE_REQUIRE_HANDLE(hDevice);
  ZE_REQUIRE(reservesCache(hDevice), ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, "the device has no reservable cache");
  ZE_REQUIRE(cacheLevel == 0 || cacheLevel == kLastLevelCache, ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
             "only the last-level cache (level 0 or 2) can be reserved");
  ZE_REQUIRE(cacheReservationSize <= reservableBytes(hDevice), ZE_RESULT_ERROR_INVALID_SIZE,
             "cacheReservationSize is more than the device's maxCacheReservationSize");
  std::string why;
  if (!Device::fromHandle(hDevice)->core().backend().reserveCache(cacheReservationSize, why))
    return reportError(ZE_RESULT_ERROR_UNINITIALIZED, __func__, why.c_str());
  return ZE_RESULT_SUCCESS;
}

ze_result_t zeDeviceSetCacheAdviceExt(ze_device_handle_t hDevice, void* ptr, size_t regionSize,
                                      ze_cache_ext_region_t cacheRegion) {
  ZE_REQUIRE_HANDLE(hDevice);
  ZE_REQUIRE_POINTER(ptr);
  ZE_REQUIRE(cacheRegion <= ZE_CACHE_EXT_REGION_ZE_CACHE_NON_RESERVED_REGION, ZE_RESULT_ERROR_INVALID_ENUMERATION,
             "cacheRegion is no ze_cache_ext_region_t");
  ZE_REQUIRE(reservesCache(hDevice), ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, "the device has no reservable cache");
  ZE_REQUIRE(regionSize > 0, ZE_RESULT_ERROR_INVALID_SIZE, "regionSize is 0");
  const std::optional<core::Allocation> allocation = core::Runtime::get().memory().find(ptr);
  ZE_REQUIRE(allocation.has_value(), ZE_RESULT_ERROR_INVALID_ARGUMENT, "ptr is in no allocation");
  const auto begin = reinterpret_cast<uintptr_t>(ptr);
  const uintptr_t allocationEnd = reinterpret_cast<uintptr_t>(allocation->address) + allocation->size;
  const size_t pageSize = core::pageSize();
  const size_t bytes = regionSize > (allocationEnd - begin) / pageSize ? allocationEnd - begin : regionSize * pageSize;
  // The default region is the driver's scheme, which reserves nothing.
  const bool reserved = cacheRegion == ZE_CACHE_EXT_REGION_ZE_CACHE_RESERVE_REGION;
  std::string why;
  if (!Device::fromHandle(hDevice)->core().backend().adviseCache(ptr, bytes, reserved, why))
    return reportError(ZE_RESULT_ERROR_UNINITIALIZED, __func__, why.c_str());
  return ZE_RESULT_SUCCESS;
}

}  // namespace loom::l0
