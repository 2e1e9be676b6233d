#include "loom/core/memory_manager.h"

#include <unistd.h>

#include <mutex>
#include <vector>

namespace loom::core {

MemoryManager::~MemoryManager() {
  for (auto& [address, allocation] : byAddress_) freeSharedMemory(allocation.block);
}

std::optional<Allocation> MemoryManager::allocate(MemoryType type, size_t size, size_t alignment, Device* device,
                                                  const void* owner) {
  SharedMemoryBlock block = allocateSharedMemory(size, alignment);
  if (!block.address) return std::nullopt;
  Allocation allocation{block.address, size, alignment, type, device, owner, 0, false, block};
  std::unique_lock lock(mutex_);
  allocation.id = nextId_++;
  byAddress_.emplace(reinterpret_cast<uintptr_t>(block.address), allocation);
  return allocation;
}

IpcMemoryHandle MemoryManager::exportIpc(const Allocation& allocation, const void* pointer) const {
  const uint64_t offset = static_cast<const char*>(pointer) - static_cast<const char*>(allocation.address);
  return {kIpcMemoryMagic, static_cast<int32_t>(getpid()), allocation.block.fd, 0, allocation.size, offset};
}

std::optional<Allocation> MemoryManager::importIpc(const IpcMemoryHandle& handle, Device* device, const void* owner) {
  if (handle.magic != kIpcMemoryMagic || handle.offset > handle.size) return std::nullopt;
  SharedMemoryBlock block = mapForeignSharedMemory(handle.pid, handle.fd, handle.size);
  if (!block.address) return std::nullopt;
  Allocation allocation{block.address, static_cast<size_t>(handle.size), pageSize(), MemoryType::Device, device, owner, 0, true, block};
  std::unique_lock lock(mutex_);
  allocation.id = nextId_++;
  byAddress_.emplace(reinterpret_cast<uintptr_t>(block.address), allocation);
  return allocation;
}

bool MemoryManager::free(const void* address, uint64_t id) {
  SharedMemoryBlock block;
  {
    std::unique_lock lock(mutex_);
    auto it = byAddress_.find(reinterpret_cast<uintptr_t>(address));
    if (it == byAddress_.end() || (id != 0 && it->second.id != id)) return false;
    block = it->second.block;
    byAddress_.erase(it);
  }
  freeSharedMemory(block);
  return true;
}

std::optional<Allocation> MemoryManager::find(const void* pointer) const {
  const uintptr_t key = reinterpret_cast<uintptr_t>(pointer);
  std::shared_lock lock(mutex_);
  auto it = byAddress_.upper_bound(key);
  if (it == byAddress_.begin()) return std::nullopt;
  --it;
  const Allocation& allocation = it->second;
  const size_t extent = allocation.size == 0 ? 1 : allocation.size;
  if (key - it->first >= extent) return std::nullopt;
  return allocation;
}

void MemoryManager::freeAllOf(const void* owner) {
  std::vector<SharedMemoryBlock> blocks;
  {
    std::unique_lock lock(mutex_);
    for (auto it = byAddress_.begin(); it != byAddress_.end();) {
      if (it->second.owner != owner) {
        ++it;
        continue;
      }
      blocks.push_back(it->second.block);
      it = byAddress_.erase(it);
    }
  }
  for (const auto& block : blocks) freeSharedMemory(block);
}

}  // namespace loom::core
