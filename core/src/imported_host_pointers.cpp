#include "loom/core/imported_host_pointers.h"

#include "loom/core/backend.h"

namespace loom::core {

std::map<uintptr_t, size_t>::const_iterator ImportedHostPointers::holding(uintptr_t address) const {
  auto after = ranges_.upper_bound(address);
  if (after == ranges_.begin()) return ranges_.end();
  auto range = std::prev(after);
  return address - range->first < range->second ? range : ranges_.end();
}

ImportedHostPointers::Result ImportedHostPointers::import(void* address, size_t size) {
  const auto start = reinterpret_cast<uintptr_t>(address);
  std::lock_guard lock(mutex_);
  const auto first = holding(start), last = holding(start + size - 1);
  if (first != ranges_.end() && first == last) return Result::AlreadyImported;
  if (first != ranges_.end()) return last != ranges_.end() ? Result::Overlaps : Result::StartsInAnother;
  if (last != ranges_.end()) return Result::EndsInAnother;
  const auto inside = ranges_.lower_bound(start);
  if (inside != ranges_.end() && inside->first - start < size) return Result::Overlaps;
  if (pinner_ && !pinner_->registerHostMemory(address, size)) return Result::Refused;
  ranges_[start] = size;
  return Result::Imported;
}

bool ImportedHostPointers::release(void* address) {
  std::lock_guard lock(mutex_);
  auto range = ranges_.find(reinterpret_cast<uintptr_t>(address));
  if (range == ranges_.end()) return false;
  if (pinner_) pinner_->unregisterHostMemory(address);
  ranges_.erase(range);
  return true;
}

void* ImportedHostPointers::baseOf(const void* address) const {
  std::lock_guard lock(mutex_);
  const auto range = holding(reinterpret_cast<uintptr_t>(address));
  return range == ranges_.end() ? nullptr : reinterpret_cast<void*>(range->first);
}

}  // namespace loom::core
