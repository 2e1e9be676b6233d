#include "loom/core/virtual_memory_map.h"

#include <iterator>

namespace loom::core {

namespace {
void* pointer(uintptr_t address) { return reinterpret_cast<void*>(address); }
uintptr_t address(const void* pointer) { return reinterpret_cast<uintptr_t>(pointer); }
}  // namespace

VirtualMemoryMap::~VirtualMemoryMap() {
  for (const auto& [start, reservation] : reservations_) {
    unmapPages(*reservation.space, start, reservation.size);
    reservation.space->release(pointer(start), reservation.size);
  }
}

VirtualMemoryStatus VirtualMemoryMap::reserve(AddressSpace& space, const void* hint, size_t size, void** reserved) {
  const size_t page = space.pageSize();
  if (size == 0 || size % page != 0) return VirtualMemoryStatus::UnalignedSize;
  void* wish = address(hint) % page == 0 ? const_cast<void*>(hint) : nullptr;
  void* start = space.reserve(wish, size);
  if (!start) return VirtualMemoryStatus::OutOfMemory;
  std::lock_guard lock(mutex_);
  reservations_[address(start)] = {size, &space};
  *reserved = start;
  return VirtualMemoryStatus::Success;
}

VirtualMemoryStatus VirtualMemoryMap::free(const void* start, size_t size) {
  std::lock_guard lock(mutex_);
  auto it = reservations_.find(address(start));
  if (it == reservations_.end() || it->second.size != size) return VirtualMemoryStatus::NotReserved;
  AddressSpace& space = *it->second.space;
  unmapPages(space, it->first, size);
  space.release(pointer(it->first), size);
  rememberAccess(it->first, size, MemoryAccess::None);  // a later reservation here starts afresh
  reservations_.erase(it);
  return VirtualMemoryStatus::Success;
}

VirtualMemoryStatus VirtualMemoryMap::map(const void* at, size_t size, const PhysicalMemory& memory, size_t offset,
                                          MemoryAccess access) {
  std::lock_guard lock(mutex_);
  const Reservation* reservation = nullptr;
  if (VirtualMemoryStatus status = find(address(at), size, reservation); status != VirtualMemoryStatus::Success)
    return status;
  AddressSpace& space = *reservation->space;
  if (&memory.addressSpace() != &space) return VirtualMemoryStatus::ForeignMemory;
  if (offset % space.pageSize() != 0) return VirtualMemoryStatus::UnalignedAddress;
  if (offset > memory.size() || size > memory.size() - offset) return VirtualMemoryStatus::OutOfRange;
  unmapPages(space, address(at), size);
  const VirtualMemoryStatus status = space.map(const_cast<void*>(at), size, memory, offset, access);
  if (status == VirtualMemoryStatus::Success) recordAccess(address(at), size, space.pageSize(), access);
  return status;
}

VirtualMemoryStatus VirtualMemoryMap::unmap(const void* at, size_t size) {
  std::lock_guard lock(mutex_);
  const Reservation* reservation = nullptr;
  if (VirtualMemoryStatus status = find(address(at), size, reservation); status != VirtualMemoryStatus::Success)
    return status;
  unmapPages(*reservation->space, address(at), size);
  return VirtualMemoryStatus::Success;
}

VirtualMemoryStatus VirtualMemoryMap::setAccess(const void* at, size_t size, MemoryAccess access) {
  std::lock_guard lock(mutex_);
  const Reservation* reservation = nullptr;
  if (VirtualMemoryStatus status = find(address(at), size, reservation); status != VirtualMemoryStatus::Success)
    return status;
  AddressSpace& space = *reservation->space;
  for (const auto& [run, length] : mappedRuns(address(at), size, space.pageSize())) {
    const VirtualMemoryStatus status = space.protect(pointer(run), length, access);
    if (status != VirtualMemoryStatus::Success) return status;
    recordAccess(run, length, space.pageSize(), access);
  }
  rememberAccess(address(at), size, access);
  return VirtualMemoryStatus::Success;
}

VirtualMemoryStatus VirtualMemoryMap::access(const void* at, size_t size, MemoryAccess& access,
                                             size_t& sameAccessSize) const {
  std::lock_guard lock(mutex_);
  const Reservation* reservation = nullptr;
  if (VirtualMemoryStatus status = find(address(at), size, reservation); status != VirtualMemoryStatus::Success)
    return status;
  const size_t page = reservation->space->pageSize();
  const uintptr_t start = address(at);
  access = accessOfPage(start);
  uintptr_t next = start;
  while (next < start + size && accessOfPage(next) == access) next += page;
  sameAccessSize = next - start;
  return VirtualMemoryStatus::Success;
}

VirtualMemoryStatus VirtualMemoryMap::find(uintptr_t start, size_t size, const Reservation*& reservation) const {
  auto it = reservations_.upper_bound(start);
  if (it == reservations_.begin()) return VirtualMemoryStatus::NotReserved;
  --it;
  const size_t page = it->second.space->pageSize();
  if (size == 0 || size % page != 0) return VirtualMemoryStatus::UnalignedSize;
  if (start % page != 0) return VirtualMemoryStatus::UnalignedAddress;
  if (start - it->first >= it->second.size || size > it->second.size - (start - it->first))
    return VirtualMemoryStatus::NotReserved;
  reservation = &it->second;
  return VirtualMemoryStatus::Success;
}

bool VirtualMemoryMap::holds(const void* address, size_t size) const {
  const uintptr_t start = reinterpret_cast<uintptr_t>(address);
  if (size == 0 || size - 1 > UINTPTR_MAX - start) return false;
  std::lock_guard lock(mutex_);
  auto it = reservations_.upper_bound(start);
  if (it == reservations_.begin()) return false;
  --it;
  if (start - it->first >= it->second.size || size > it->second.size - (start - it->first)) return false;
  const size_t page = it->second.space->pageSize();
  auto mapped = [&](uintptr_t byte) { return mappedPages_.count(byte - byte % page) != 0; };
  return mapped(start) && mapped(start + size - 1);
}

std::vector<VirtualMemoryMap::Range> VirtualMemoryMap::mappedRuns(uintptr_t start, size_t size, size_t pageSize) const {
  std::vector<Range> runs;
  for (auto it = mappedPages_.lower_bound(start); it != mappedPages_.end() && it->first < start + size; ++it) {
    if (!runs.empty() && runs.back().first + runs.back().second == it->first)
      runs.back().second += pageSize;
    else
      runs.push_back({it->first, pageSize});
  }
  return runs;
}

void VirtualMemoryMap::unmapPages(AddressSpace& space, uintptr_t start, size_t size) {
  for (const auto& [run, length] : mappedRuns(start, size, space.pageSize())) space.unmap(pointer(run), length);
  mappedPages_.erase(mappedPages_.lower_bound(start), mappedPages_.lower_bound(start + size));
}

void VirtualMemoryMap::recordAccess(uintptr_t start, size_t size, size_t pageSize, MemoryAccess access) {
  for (uintptr_t page = start; page < start + size; page += pageSize) mappedPages_[page] = access;
}

MemoryAccess VirtualMemoryMap::accessOfPage(uintptr_t page) const {
  auto it = mappedPages_.find(page);
  return it == mappedPages_.end() ? rememberedAccess(page) : it->second;
}

MemoryAccess VirtualMemoryMap::rememberedAccess(uintptr_t page) const {
  auto it = rememberedRuns_.upper_bound(page);
  return it == rememberedRuns_.begin() ? MemoryAccess::None : std::prev(it)->second;
}

void VirtualMemoryMap::rememberAccess(uintptr_t start, size_t size, MemoryAccess access) {
  const uintptr_t end = start + size;
  const MemoryAccess after = rememberedAccess(end);
  rememberedRuns_.erase(rememberedRuns_.lower_bound(start), rememberedRuns_.upper_bound(end));
  // Only where the access changes: a run of None before any other needs no entry.
  if (rememberedAccess(start) != access) rememberedRuns_[start] = access;
  if (access != after) rememberedRuns_[end] = after;
}

}  // namespace loom::core
