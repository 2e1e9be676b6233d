#pragma once
// Where every API object of both frontends lives: one reserved address range, so that a handle can be
// validated by a range check and a read of its kind tag, whatever pointer the application passes.
// Freed slots stay mapped (a destroyed handle still reads as dead) and are reused first in, first
// out, only after many others were freed, so a stale handle rarely meets a new object in its slot.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>

namespace loom::core {

class HandleArena {
 public:
  static HandleArena& get();

  // Throws std::bad_alloc when the range is full or the size is beyond the largest slot.
  void* allocate(size_t size);
  void release(void* slot, size_t size);

  // True when [pointer, pointer + bytes) lies in the part of the range handed out so far, which
  // stays readable for the life of the process.
  bool contains(const void* pointer, size_t bytes) const {
    const uintptr_t offset = reinterpret_cast<uintptr_t>(pointer) - base_;
    return offset < used_.load(std::memory_order_acquire) && bytes <= used_.load(std::memory_order_relaxed) - offset;
  }

 private:
  HandleArena();
  static constexpr size_t kSizeClasses = 15;  // slots of 64 bytes to 1 MiB
  static size_t sizeClass(size_t size);
  static size_t slotSize(size_t sizeClass) { return size_t(64) << sizeClass; }
  // How many freed slots of a class wait before the oldest is reused: about 1 MiB of them.
  static size_t quarantine(size_t sizeClass) { return std::max<size_t>(16, (size_t(1) << 20) / slotSize(sizeClass)); }
  void* carve(size_t bytes);

  uintptr_t base_ = 0;
  std::atomic<size_t> used_{0};  // bytes handed out from base_ on, all readable and writable
  size_t committed_ = 0;         // bytes made readable and writable
  std::mutex mutex_;
  std::deque<void*> freed_[kSizeClasses];
};

}  // namespace loom::core
