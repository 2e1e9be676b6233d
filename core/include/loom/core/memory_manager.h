#pragma once
// The one owner of every USM allocation of the process, with an address index so that any
// pointer can be mapped to its allocation in O(log n).
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <shared_mutex>

#include "loom/core/memory_type.h"
#include "loom/core/shared_memory.h"

namespace loom::core {

class Backend;
class Device;

struct Allocation {
  void* address = nullptr;
  size_t size = 0;
  size_t alignment = 0;
  MemoryType type = MemoryType::Host;
  Device* device = nullptr;     // owning device; nullptr for host allocations
  const void* owner = nullptr;  // the API context it belongs to
  uint64_t id = 0;              // unique, never reused
  bool imported = false;        // mapped from another process through IPC
  SharedMemoryBlock block;      // core's host memory, when `allocator` is null
  Backend* allocator = nullptr;  // the backend whose allocator provided the memory
};

// What another process needs to map an allocation: its pid, descriptor and size.
struct IpcMemoryHandle {
  uint32_t magic;
  int32_t pid;
  int32_t fd;
  uint32_t reserved;
  uint64_t size;
  uint64_t offset;  // of the exported pointer inside the allocation
};
constexpr uint32_t kIpcMemoryMagic = 0x4c4d4950;  // "LMIP"

class MemoryManager {
 public:
  MemoryManager() = default;
  MemoryManager(const MemoryManager&) = delete;
  MemoryManager& operator=(const MemoryManager&) = delete;
  ~MemoryManager();

  // From `device`'s backend when it has its own allocator for `type` (for host allocations,
  // which have no device: from the host allocator, when set), else core's host memory. nullopt
  // when out of memory.
  std::optional<Allocation> allocate(MemoryType type, size_t size, size_t alignment, Device* device, const void* owner);
  std::optional<Allocation> importIpc(const IpcMemoryHandle& handle, Device* device, const void* owner);
  IpcMemoryHandle exportIpc(const Allocation& allocation, const void* pointer) const;
  // `address` must be an allocation's base (and, when `id` is given, that allocation's id);
  // false when it is not.
  bool free(const void* address, uint64_t id = 0);
  // The allocation containing `pointer`, if any.
  std::optional<Allocation> find(const void* pointer) const;
  // Frees every allocation of `owner` (a context being destroyed).
  void freeAllOf(const void* owner);
  // The backend whose allocator serves host allocations (Backend::providesHostMemory); it must
  // outlive this manager's allocations.
  void setHostAllocator(Backend* backend) { hostAllocator_ = backend; }

 private:
  static void release(const Allocation& allocation);

  mutable std::shared_mutex mutex_;
  std::map<uintptr_t, Allocation> byAddress_;
  uint64_t nextId_ = 1;
  Backend* hostAllocator_ = nullptr;
};

}  // namespace loom::core
