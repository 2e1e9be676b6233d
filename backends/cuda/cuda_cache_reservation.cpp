#include "backends/cuda/cuda_cache_reservation.h"

#include <algorithm>

namespace loom::backends::cuda {

bool CacheReservation::reserve(const PrimaryContext& context, size_t bytes, std::string& why) {
  std::lock_guard lock(mutex_);
  PrimaryContext::Scope current = context.makeCurrent();
  const Driver& driver = context.driver();
  CUresult result = driver.cuCtxSetLimit(CU_LIMIT_PERSISTING_L2_CACHE_SIZE, bytes);
  if (result != CUDA_SUCCESS) {
    why = driver.describe("cuCtxSetLimit(CU_LIMIT_PERSISTING_L2_CACHE_SIZE)", result);
    return false;
  }
  // Lines already persisting keep their state until reset: a removed reservation must let them go.
  if (bytes == 0 && (result = driver.cuCtxResetPersistingL2Cache()) != CUDA_SUCCESS) {
    why = driver.describe("cuCtxResetPersistingL2Cache", result);
    return false;
  }
  reservedBytes_ = bytes;
  generation_.fetch_add(1, std::memory_order_release);
  return true;
}

void CacheReservation::removeRange(uintptr_t begin, uintptr_t end) {
  auto range = ranges_.upper_bound(begin);
  if (range != ranges_.begin()) --range;
  while (range != ranges_.end() && range->first < end) {
    const uintptr_t rangeBegin = range->first, rangeEnd = range->second;
    if (rangeEnd <= begin) {
      ++range;
      continue;
    }
    range = ranges_.erase(range);
    if (rangeBegin < begin) ranges_[rangeBegin] = begin;
    if (end < rangeEnd) ranges_[end] = rangeEnd;
  }
}

void CacheReservation::advise(uintptr_t address, size_t size, bool reserved) {
  std::lock_guard lock(mutex_);
  removeRange(address, address + size);
  if (reserved) ranges_[address] = address + size;
  generation_.fetch_add(1, std::memory_order_release);
}

CUaccessPolicyWindow CacheReservation::window() const {
  std::lock_guard lock(mutex_);
  CUaccessPolicyWindow window{nullptr, 0, 0.0f, AccessProperty::Normal, AccessProperty::Normal};
  if (reservedBytes_ == 0 || ranges_.empty()) return window;
  const uintptr_t begin = ranges_.begin()->first;
  const uintptr_t end = std::min<uintptr_t>(ranges_.rbegin()->second, begin + maxWindow_);
  size_t advised = 0;
  for (const auto& [rangeBegin, rangeEnd] : ranges_)
    if (rangeBegin < end) advised += std::min(rangeEnd, end) - rangeBegin;
  window.base_ptr = reinterpret_cast<void*>(begin);
  window.num_bytes = end - begin;
  window.hitRatio = static_cast<float>(std::min(advised, reservedBytes_)) / static_cast<float>(window.num_bytes);
  window.hitProp = AccessProperty::Persisting;
  window.missProp = AccessProperty::Streaming;
  return window;
}

}  // namespace loom::backends::cuda
