#include "loom/core/memory_manager.h"

#include <unistd.h>

#include <mutex>
#include <vector>

#include "loom/core/device.h"

namespace loom::core {

MemoryManager::~MemoryManager() {
  for (auto& [address, allocation] : byAddress_) release(allocation);
}

void MemoryManager::release(const Allocation& allocation) {
  if (allocation.allocator)
    allocation.allocator->releaseMemory(allocation.address, allocation.type);
  else
    freeSharedMemory(allocation.block);
}

std::optional<Allocation> MemoryManager::allocate(MemoryType type, size_t size, size_t alignment, Device* device,
                                                  const void* owner) {
  Allocation allocation{nullptr, size, alignment, type, device, owner, 0, false, {}, nullptr};
  Backend* allocator = device ? &device->backend() : type == MemoryType::Host ? hostAllocator_ : nullptr;
  if (allocator) {
    allocation.address = allocator->allocateMemory(type, size);
    if (allocation.address) allocation.allocator = allocator;
  }
  if (!allocation.address) {
    allocation.block = allocateSharedMemory(size, alignment);
    allocation.address = allocation.block.address;
  }
  if (!allocation.address) return std::nullopt;
  std::unique_lock lock(mutex_);
  allocation.id = nextId_++;
  byAddress_.emplace(reinterpret_cast<uintptr_t>(allocation.address), allocation);
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
  Allocation allocation{block.address, static_cast<size_t>(handle.size), pageSize(), MemoryType::Device, device, owner, 0, true, block,
                        nullptr};
  std::unique_lock lock(mutex_);
  allocation.id = nextId_++;
  byAddress_.emplace(reinterpret_cast<uintptr_t>(block.address), allocation);
  return allocation;
}

bool MemoryManager::free(const void* address, uint64_t id) {
  Allocation allocation;
  {
    std::unique_lock lock(mutex_);
    auto it = byAddress_.find(reinterpret_cast<uintptr_t>(address));
    if (it == byAddress_.end() || (id != 0 && it->second.id != id)) return false;
    allocation = it->second;
    byAddress_.erase(it);
  }
  release(allocation);
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
  std::vector<Allocation> owned;
  {
    std::unique_lock lock(mutex_);
    for (auto it = byAddress_.begin(); it != byAddress_.end();) {
      if (it->second.owner != owner) {
        ++it;
        continue;
      }
      owned.push_back(it->second);
      it = byAddress_.erase(it);
    }
  }
  for (const auto& allocation : owned) release(allocation);
}

}  // namespace loom::core
