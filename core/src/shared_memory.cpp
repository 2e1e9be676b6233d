#include "loom/core/shared_memory.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <string>

namespace loom::core {
namespace {

size_t roundUp(size_t value, size_t multiple) { return (value + multiple - 1) / multiple * multiple; }

}  // namespace

size_t pageSize() {
  static const size_t size = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return size;
}

SharedMemoryBlock allocateSharedMemory(size_t size, size_t alignment) {
  const size_t mappedSize = roundUp(size == 0 ? 1 : size, pageSize());
  if (alignment < pageSize()) alignment = pageSize();
  int fd = memfd_create("loom-allocation", MFD_CLOEXEC);
  if (fd < 0) return {};
  if (ftruncate(fd, static_cast<off_t>(mappedSize)) != 0) {
    close(fd);
    return {};
  }
  // Reserve enough address space to place the mapping at the requested alignment.
  const size_t reserveSize = mappedSize + alignment - pageSize();
  void* reserved = mmap(nullptr, reserveSize, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (reserved == MAP_FAILED) {
    close(fd);
    return {};
  }
  const uintptr_t start = reinterpret_cast<uintptr_t>(reserved);
  const uintptr_t aligned = roundUp(start, alignment);
  if (aligned > start) munmap(reserved, aligned - start);
  const uintptr_t tail = aligned + mappedSize;
  const uintptr_t reserveEnd = start + reserveSize;
  if (reserveEnd > tail) munmap(reinterpret_cast<void*>(tail), reserveEnd - tail);
  void* address = mmap(reinterpret_cast<void*>(aligned), mappedSize, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0);
  if (address == MAP_FAILED) {
    munmap(reinterpret_cast<void*>(aligned), mappedSize);
    close(fd);
    return {};
  }
  return {address, mappedSize, fd};
}

void freeSharedMemory(const SharedMemoryBlock& block) {
  if (block.address) munmap(block.address, block.mappedSize);
  if (block.fd >= 0) close(block.fd);
}

SharedMemoryBlock mapForeignSharedMemory(int32_t pid, int32_t fd, size_t size) {
  const std::string path = "/proc/" + std::to_string(pid) + "/fd/" + std::to_string(fd);
  int localFd = open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (localFd < 0) return {};
  const size_t mappedSize = roundUp(size == 0 ? 1 : size, pageSize());
  void* address = mmap(nullptr, mappedSize, PROT_READ | PROT_WRITE, MAP_SHARED, localFd, 0);
  if (address == MAP_FAILED) {
    close(localFd);
    return {};
  }
  return {address, mappedSize, localFd};
}

}  // namespace loom::core
