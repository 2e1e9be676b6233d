#include "loom/core/handle_arena.h"

#include <pthread.h>
#include <sys/mman.h>

#include <algorithm>
#include <new>

// LeakSanitizer's, present only in sanitizer builds: the objects in the arena hold the only
// pointers to much of the heap, and the sanitizer scans no mapping it was not told of.
extern "C" void __lsan_register_root_region(const void* start, size_t size) __attribute__((weak));

namespace loom::core {

namespace {
// Address space only: pages are made usable as slots are carved from them.
constexpr size_t kReservedBytes = size_t(4) << 30;
constexpr size_t kCommitStep = size_t(2) << 20;
}  // namespace

HandleArena& HandleArena::get() {
  // Never destroyed: handles may be used until the process ends.
  static HandleArena* arena = new HandleArena();
  return *arena;
}

HandleArena::HandleArena() {
  void* range = mmap(nullptr, kReservedBytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (range == MAP_FAILED) throw std::bad_alloc();
  base_ = reinterpret_cast<uintptr_t>(range);
  if (__lsan_register_root_region) __lsan_register_root_region(range, kReservedBytes);
  // A forked child must find the lock free, whatever another thread was doing at the fork.
  pthread_atfork([] { get().mutex_.lock(); }, [] { get().mutex_.unlock(); }, [] { get().mutex_.unlock(); });
}

size_t HandleArena::sizeClass(size_t size) {
  size_t sizeClass = 0;
  while (sizeClass < kSizeClasses && slotSize(sizeClass) < size) ++sizeClass;
  return sizeClass;
}

void* HandleArena::carve(size_t bytes) {
  const size_t used = used_.load(std::memory_order_relaxed);
  if (bytes > kReservedBytes - used) throw std::bad_alloc();
  if (used + bytes > committed_) {
    const size_t grow = std::max(kCommitStep, (used + bytes - committed_ + kCommitStep - 1) / kCommitStep * kCommitStep);
    if (mprotect(reinterpret_cast<void*>(base_ + committed_), grow, PROT_READ | PROT_WRITE) != 0) throw std::bad_alloc();
    committed_ += grow;
  }
  used_.store(used + bytes, std::memory_order_release);
  return reinterpret_cast<void*>(base_ + used);
}

void* HandleArena::allocate(size_t size) {
  const size_t sizeClass = HandleArena::sizeClass(size);
  if (sizeClass == kSizeClasses) throw std::bad_alloc();
  std::lock_guard lock(mutex_);
  std::deque<void*>& freed = freed_[sizeClass];
  if (freed.size() > quarantine(sizeClass)) {
    void* slot = freed.front();
    freed.pop_front();
    return slot;
  }
  return carve(slotSize(sizeClass));
}

void HandleArena::release(void* slot, size_t size) {
  std::lock_guard lock(mutex_);
  freed_[sizeClass(size)].push_back(slot);
}

}  // namespace loom::core
