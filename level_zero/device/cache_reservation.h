#pragma once
// ZE_extension_cache_reservation: part of a device's last-level cache set aside, and the memory
// whose accesses may keep lines there. On NVIDIA GPUs the persisting part of the L2 cache
// (backends/cuda/cuda_cache_reservation.h); the CPU device reports no reservable cache
// (`maxCacheReservationSize` 0), and these calls answer ZE_RESULT_ERROR_UNSUPPORTED_FEATURE there.
#include <level_zero/ze_api.h>

namespace loom::l0 {

// `cacheLevel` 0 is the last level, the only one that can be reserved; `cacheReservationSize` 0
// removes the reservation.
ze_result_t zeDeviceReserveCacheExt(ze_device_handle_t hDevice, size_t cacheLevel, size_t cacheReservationSize);
// `regionSize` pages of the host's page size from `ptr`, up to the end of the allocation holding
// `ptr`: an application that passes bytes gets at most the allocation it names, as with Intel's
// runtime, which applies the advice to the whole allocation.
ze_result_t zeDeviceSetCacheAdviceExt(ze_device_handle_t hDevice, void* ptr, size_t regionSize,
                                      ze_cache_ext_region_t cacheRegion);

}  // namespace loom::l0
