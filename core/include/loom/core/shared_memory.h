#pragma once
// Memory backed by an anonymous file (memfd), so that another process can map the same pages:
// the base of Level Zero IPC on the CPU, and of virtual memory's physical objects.
#include <cstddef>
#include <cstdint>

namespace loom::core {

struct SharedMemoryBlock {
  void* address = nullptr;
  size_t mappedSize = 0;  // whole pages
  int fd = -1;
  bool deviceVisible = false;  // registered with a device's driver (MemoryManager::allocateDeviceVisible)
};

// Maps `size` bytes (rounded up to pages) at an address aligned to `alignment` (a power of two).
// Returns a block with address == nullptr when out of memory.
SharedMemoryBlock allocateSharedMemory(size_t size, size_t alignment);
void freeSharedMemory(const SharedMemoryBlock& block);

// Maps the file another process exported (its pid and descriptor number), for IPC.
// Returns a block with address == nullptr when the file cannot be opened.
SharedMemoryBlock mapForeignSharedMemory(int32_t pid, int32_t fd, size_t size);

size_t pageSize();

}  // namespace loom::core
