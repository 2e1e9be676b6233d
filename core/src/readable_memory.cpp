#include "loom/core/readable_memory.h"

#include <sys/uio.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstdint>

namespace loom::core {

namespace {

// The kernel reads for us and reports EFAULT where a plain load would fault: true when all of
// `remote` was copied to `local`.
bool readThroughKernel(const iovec& local, const iovec* remote, unsigned long remoteCount) {
  const ssize_t copied = process_vm_readv(getpid(), &local, 1, remote, remoteCount, 0);
  if (copied == static_cast<ssize_t>(local.iov_len)) return true;
  // Where a sandbox forbids the call it proves nothing either way: the memory is taken as readable.
  return copied < 0 && (errno == EPERM || errno == ENOSYS);
}

// Pages found readable lately, by page number in a small direct-mapped table: repeated copies
// from the same host buffers then cost no system call. A page unmapped after it was seen passes
// unchecked until another page takes its slot.
class ReadablePages {
 public:
  bool contains(uintptr_t page) const { return slot(page).load(std::memory_order_relaxed) == page; }
  void add(uintptr_t page) { slot(page).store(page, std::memory_order_relaxed); }

 private:
  std::atomic<uintptr_t>& slot(uintptr_t page) const { return slots_[(page ^ (page >> 8)) % slots_.size()]; }
  mutable std::array<std::atomic<uintptr_t>, 256> slots_{};
};

ReadablePages readablePages;
constexpr unsigned kPageShift = 12;

}  // namespace

bool copyIfReadable(void* out, const void* address, size_t size) {
  if (size == 0) return true;
  const iovec remote{const_cast<void*>(address), size};
  return readThroughKernel({out, size}, &remote, 1);
}

bool endsAreReadable(const void* address, size_t size) {
  const auto* first = static_cast<const unsigned char*>(address);
  const unsigned char* last = first + size - 1;
  // Page 0 never reads: its number cannot stand for "seen" in the table's empty slots.
  const uintptr_t firstPage = reinterpret_cast<uintptr_t>(first) >> kPageShift;
  const uintptr_t lastPage = reinterpret_cast<uintptr_t>(last) >> kPageShift;
  if (firstPage == 0) return false;
  if (readablePages.contains(firstPage) && readablePages.contains(lastPage)) return true;
  unsigned char bytes[2];
  const iovec ends[2] = {{const_cast<unsigned char*>(first), 1}, {const_cast<unsigned char*>(last), 1}};
  if (!readThroughKernel({bytes, 2}, ends, 2)) return false;
  readablePages.add(firstPage);
  readablePages.add(lastPage);
  return true;
}

}  // namespace loom::core
