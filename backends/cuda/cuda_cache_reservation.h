#pragma once
// Level Zero's cache reservation (ZE_extension_cache_reservation) on an NVIDIA GPU. The reserved
// region is the persisting part of the L2 cache (cuCtxSetLimit(CU_LIMIT_PERSISTING_L2_CACHE_SIZE)),
// and the ranges an application advises into it become the access-policy window of the streams
// that follow the reservation: their hits there persist, their misses stream. CUDA gives a stream
// one window, so several advised ranges share the smallest window that covers them, whose hit
// ratio is the share of its bytes that are advised, and no more than the reservation holds
// (CUDA's rule against thrashing the persisting lines).
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

#include "backends/cuda/cuda_context.h"

namespace loom::backends::cuda {

class CacheReservation {
 public:
  // The GPU's largest persisting part and largest window (its device attributes).
  CacheReservation(size_t maxReservation, size_t maxWindow) : maxReservation_(maxReservation), maxWindow_(maxWindow) {}

  size_t maxReservation() const { return maxReservation_; }
  // Sets the persisting part of `context`'s L2 to `bytes` (at most maxReservation()); 0 removes
  // the reservation and returns the persisting lines to normal. False, with `why`, when the
  // driver refuses.
  bool reserve(const PrimaryContext& context, size_t bytes, std::string& why);
  // Puts [address, address + size) in the reserved region (`reserved`) or takes it out, replacing
  // what was advised for those bytes before.
  void advise(uintptr_t address, size_t size, bool reserved);

  // Changes with every reservation and advice: a stream sets window() again only then.
  uint64_t generation() const { return generation_.load(std::memory_order_acquire); }
  // The window for the streams: off (0 bytes) without a reservation or advised ranges.
  CUaccessPolicyWindow window() const;

 private:
  void removeRange(uintptr_t begin, uintptr_t end);  // [begin, end) out of ranges_, splitting ranges

  const size_t maxReservation_;
  const size_t maxWindow_;
  mutable std::mutex mutex_;
  size_t reservedBytes_ = 0;
  std::map<uintptr_t, uintptr_t> ranges_;  // advised into the reserved region: begin -> end, disjoint
  std::atomic<uint64_t> generation_{0};
};

}  // namespace loom::backends::cuda
