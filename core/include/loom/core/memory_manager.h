#pragma once
// The one owner of every USM allocation of the process, with an address index so that any
// pointer can be mapped to its allocation in O(log n).
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string>
#include <vector>

#include "loom/core/ipc_handle.h"
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
  Backend* allocator = nullptr;  // the backend whose allocator provided (or imported) the memory
  // The file that holds the driver's IPC handle, once exportIpc made one (memory of `allocator`).
  SharedMemoryBlock ipcRecord;
  // The owners (API contexts) that opened that handle in this very process, once per open: such an
  // open maps nothing new (a GPU's driver opens handles only in other processes), it is the
  // allocation itself, which the opens do not free (closeIpc).
  std::vector<const void*> openedHere;
};

// Whether a copy or a fill may touch [pointer, pointer + size).
enum class RangeCheck {
  Valid,              // inside one allocation, or host memory that is no allocation's
  Wraps,              // pointer + size is past the end of the address space
  PastAllocation,     // starts in an allocation and runs past its end, or runs into one
  UnreadableAddress,  // no allocation, and not mapped host memory either
};
// What is wrong with a range, for an error message ("" when it is valid).
const char* describe(RangeCheck check);

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
  // Maps what another process exported (a handle decodeIpcMemoryHandle accepted); memory of a
  // device's allocator opens on `device`. nullopt, with the reason in `why`, when the handle
  // names no live allocation of a Loom process (ipc_handle.h says how that is checked), or
  // nothing `device` can open.
  // A handle of driver memory that this process exported itself opens as the allocation itself,
  // for `owner`, until closeIpc.
  std::optional<Allocation> importIpc(const IpcMemoryHandle& handle, Device* device, const void* owner, std::string& why);
  // Closes what importIpc opened for `owner` at `pointer` (inside the opened memory): unmaps an
  // import, or ends one open of this process's own allocation. False when `owner` has nothing
  // open there.
  bool closeIpc(const void* pointer, const void* owner);
  // nullopt when the memory cannot be shared (its driver cannot export it).
  std::optional<IpcMemoryHandle> exportIpc(const Allocation& allocation, const void* pointer);
  // `address` must be an allocation's base (and, when `id` is given, that allocation's id);
  // false when it is not.
  bool free(const void* address, uint64_t id = 0);
  // The allocation containing `pointer`, if any.
  std::optional<Allocation> find(const void* pointer) const;
  // The range check of every copy and fill, in both APIs: a range is valid inside one allocation,
  // or in host memory that holds no allocation (the application's own, which the APIs allow).
  RangeCheck checkRange(const void* pointer, size_t size) const;
  // Device memory outside every allocation that copies and fills may reach all the same: the
  // variables of a loaded program, whose addresses zeModuleGetGlobalPointer gives out (on a GPU
  // they are not host memory). `owner` (the program) forgets its variables when it goes.
  void addProgramVariable(const void* address, size_t size, const void* owner);
  void forgetProgramVariablesOf(const void* owner);
  // Frees every allocation of `owner` (a context being destroyed).
  void freeAllOf(const void* owner);
  // The backend whose allocator serves host allocations (Backend::providesHostMemory); it must
  // outlive this manager's allocations.
  void setHostAllocator(Backend* backend) { hostAllocator_ = backend; }

  // Core's shared memory (shared_memory.h) that the devices can address too: registered with the
  // host allocator when there is one (a GPU's driver pins and maps it for every GPU), which
  // block.deviceVisible says; its file's name says it holds `contents`. Release it with freeDeviceVisible.
  SharedMemoryBlock allocateDeviceVisible(size_t size, size_t alignment, const MemoryFileContents& contents);
  SharedMemoryBlock mapForeignDeviceVisible(const IpcFileReference& file, uint64_t minimumSize, std::string& why);
  void freeDeviceVisible(const SharedMemoryBlock& block);

 private:
  void makeDeviceVisible(SharedMemoryBlock& block);
  void* allocateHost(size_t size, size_t alignment, Allocation& allocation);
  std::optional<Allocation> importDriverHandle(const IpcMemoryHandle& handle, Device* device, const void* owner,
                                               std::string& why);
  // The live allocation of this process whose driver's handle `handle` names, opened once more
  // for `owner`; nullopt when the handle comes from another process or names none.
  std::optional<Allocation> openOwnExport(const IpcMemoryHandle& handle, const void* owner);
  // The file holding the driver's IPC handle of `allocation`, made on first use.
  std::optional<SharedMemoryBlock> ipcRecord(const Allocation& allocation);
  Allocation insert(Allocation allocation);  // gives it an id and indexes it
  void release(const Allocation& allocation);

  struct ProgramVariable {
    size_t size;
    const void* owner;
  };

  mutable std::shared_mutex mutex_;
  std::map<uintptr_t, Allocation> byAddress_;
  std::map<uintptr_t, ProgramVariable> programVariables_;
  uint64_t nextId_ = 1;
  Backend* hostAllocator_ = nullptr;
};

}  // namespace loom::core
