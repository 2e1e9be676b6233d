#include "loom/core/memory_manager.h"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "loom/core/colored_allocations.h"
#include "loom/core/device.h"
#include "loom/core/log.h"
#include "loom/core/readable_memory.h"

namespace loom::core {

namespace {

// The contents of the file an IPC handle of driver memory names: the driver's handle is as large
// as a Level Zero IPC handle, so it travels beside it, with the size the handle must claim.
struct IpcDriverRecord {
  uint32_t magic;
  uint32_t reserved;
  uint64_t size;  // of the allocation
  DriverIpcHandle handle;
};
constexpr uint32_t kIpcDriverRecordMagic = 0x4c445248;  // "LDRH"

std::optional<IpcDriverRecord> readDriverRecord(const IpcFileReference& reference, std::string& why) {
  SharedMemoryBlock file = mapForeignSharedMemory(reference, sizeof(IpcDriverRecord), why);
  if (!file.address) return std::nullopt;
  IpcDriverRecord record;
  std::memcpy(&record, file.address, sizeof(record));
  freeSharedMemory(file);
  if (record.magic != kIpcDriverRecordMagic) {
    why = "the memory file holds no driver handle";
    return std::nullopt;
  }
  return record;
}

// What the memory file of an allocation says it holds, so that its descriptor alone opens it.
MemoryFileContents allocationContents(MemoryType type, size_t size) {
  return {MemoryFilePurpose::Allocation, uint32_t(type), size};
}

// The entry of `allocations` (by base address) that contains `pointer`, or its end.
template <typename Allocations>
auto containing(Allocations& allocations, const void* pointer) {
  const uintptr_t key = reinterpret_cast<uintptr_t>(pointer);
  auto it = allocations.upper_bound(key);
  if (it == allocations.begin()) return allocations.end();
  --it;
  const size_t extent = it->second.size == 0 ? 1 : it->second.size;
  return key - it->first < extent ? it : allocations.end();
}

}  // namespace

MemoryManager::~MemoryManager() {
  for (auto& [address, allocation] : byAddress_) release(allocation);
}

void MemoryManager::release(const Allocation& allocation) {
  if (!allocation.openedHere.empty())
    debugMessage("an allocation is freed while %zu opens of its IPC handle in this process are not closed: they end with it",
                 allocation.openedHere.size());
  // Before the memory goes, so that no new allocation at the same address loses its record.
  if (allocation.type == MemoryType::Device && !allocation.imported) ColoredAllocations::instance().remove(allocation.address);
  if (allocation.ipcRecord.address) freeSharedMemory(allocation.ipcRecord);
  if (allocation.allocator && allocation.imported)
    allocation.allocator->closeImportedMemory(allocation.address);
  else if (allocation.allocator)
    allocation.allocator->releaseMemory(allocation.address, allocation.type);
  else
    freeDeviceVisible(allocation.block);
}

Allocation MemoryManager::insert(Allocation allocation) {
  std::unique_lock lock(mutex_);
  allocation.id = nextId_++;
  byAddress_.emplace(reinterpret_cast<uintptr_t>(allocation.address), allocation);
  return allocation;
}

void MemoryManager::makeDeviceVisible(SharedMemoryBlock& block) {
  if (block.address && hostAllocator_) block.deviceVisible = hostAllocator_->registerHostMemory(block.address, block.mappedSize);
}

SharedMemoryBlock MemoryManager::allocateDeviceVisible(size_t size, size_t alignment, const MemoryFileContents& contents) {
  SharedMemoryBlock block = allocateSharedMemory(size, alignment, contents);
  makeDeviceVisible(block);
  return block;
}

SharedMemoryBlock MemoryManager::mapForeignDeviceVisible(const IpcFileReference& file, uint64_t minimumSize, std::string& why) {
  SharedMemoryBlock block = mapForeignSharedMemory(file, minimumSize, why);
  makeDeviceVisible(block);
  return block;
}

void MemoryManager::freeDeviceVisible(const SharedMemoryBlock& block) {
  if (block.deviceVisible) hostAllocator_->unregisterHostMemory(block.address);
  freeSharedMemory(block);
}

// Host memory that the host allocator's devices reach: core's memory registered with it, which
// other processes can map too; where registration fails, the allocator's own pinned memory.
void* MemoryManager::allocateHost(size_t size, size_t alignment, Allocation& allocation) {
  allocation.block = allocateDeviceVisible(size, alignment, allocationContents(MemoryType::Host, size));
  if (!hostAllocator_ || allocation.block.deviceVisible || !allocation.block.address) return allocation.block.address;
  freeSharedMemory(allocation.block);
  allocation.block = {};
  debugMessage("host memory cannot be registered with %s: its own pinned memory is used, without IPC",
               hostAllocator_->info().name.c_str());
  allocation.allocator = hostAllocator_;
  return hostAllocator_->allocateMemory(MemoryType::Host, size);
}

std::optional<Allocation> MemoryManager::allocate(MemoryType type, size_t size, size_t alignment, Device* device,
                                                  const void* owner) {
  Allocation allocation{nullptr, size, alignment, type, device, owner, 0, false, {}, nullptr, {}};
  if (!device && type == MemoryType::Host) {
    allocation.address = allocateHost(size, alignment, allocation);
    if (!allocation.address) return std::nullopt;
    return insert(allocation);
  }
  if (device) {
    allocation.address = device->backend().allocateMemory(type, size);
    if (allocation.address) allocation.allocator = &device->backend();
  }
  if (!allocation.address) {
    allocation.block = allocateSharedMemory(size, alignment, allocationContents(type, size));
    allocation.address = allocation.block.address;
    if (allocation.address && device && type == MemoryType::Device) device->backend().adoptHostMemory(allocation.address, size);
  }
  if (!allocation.address) return std::nullopt;
  return insert(allocation);
}

std::optional<SharedMemoryBlock> MemoryManager::ipcRecord(const Allocation& allocation) {
  std::unique_lock lock(mutex_);
  auto it = byAddress_.find(reinterpret_cast<uintptr_t>(allocation.address));
  if (it == byAddress_.end() || it->second.id != allocation.id) return std::nullopt;
  Allocation& entry = it->second;
  if (entry.ipcRecord.address) return entry.ipcRecord;
  IpcDriverRecord record{kIpcDriverRecordMagic, 0, entry.size, {}};
  if (entry.imported || !entry.allocator->exportMemory(entry.address, entry.type, record.handle)) return std::nullopt;
  SharedMemoryBlock file =
      allocateSharedMemory(sizeof(record), 0, {MemoryFilePurpose::DriverRecord, uint32_t(entry.type), entry.size});
  if (!file.address) return std::nullopt;
  std::memcpy(file.address, &record, sizeof(record));
  entry.ipcRecord = file;
  return file;
}

std::optional<IpcMemoryHandle> MemoryManager::exportIpc(const Allocation& allocation, const void* pointer) {
  const uint64_t offset = static_cast<const char*>(pointer) - static_cast<const char*>(allocation.address);
  IpcMemoryHandle handle{sharedMemoryReference(allocation.block), IpcMemoryKind::MemoryFile, allocation.type,
                         allocation.size, offset};
  if (!allocation.allocator) return handle;
  std::optional<SharedMemoryBlock> record = ipcRecord(allocation);
  if (!record) return std::nullopt;
  handle.file = sharedMemoryReference(*record);
  handle.kind = IpcMemoryKind::DriverHandle;
  return handle;
}

std::optional<Allocation> MemoryManager::importIpc(const IpcMemoryHandle& handle, Device* device, const void* owner,
                                                   std::string& why) {
  if (handle.kind == IpcMemoryKind::DriverHandle) return importDriverHandle(handle, device, owner, why);
  SharedMemoryBlock block = mapForeignDeviceVisible(handle.file, handle.size, why);
  if (!block.address) return std::nullopt;
  Device* owningDevice = handle.type == MemoryType::Host ? nullptr : device;
  return insert({block.address, static_cast<size_t>(handle.size), pageSize(), handle.type, owningDevice, owner, 0, true,
                 block, nullptr, {}});
}

std::optional<Allocation> MemoryManager::openOwnExport(const IpcMemoryHandle& handle, const void* owner) {
  if (handle.file.pid != getpid()) return std::nullopt;
  std::unique_lock lock(mutex_);
  for (auto& [address, entry] : byAddress_) {
    const bool named = entry.ipcRecord.address && entry.ipcRecord.identity == handle.file.identity;
    if (!named || entry.size != handle.size) continue;
    entry.openedHere.push_back(owner);
    return entry;
  }
  return std::nullopt;
}

std::optional<Allocation> MemoryManager::importDriverHandle(const IpcMemoryHandle& handle, Device* device,
                                                            const void* owner, std::string& why) {
  if (!device) {
    why = "memory of a device's allocator opens on a device";
    return std::nullopt;
  }
  if (std::optional<Allocation> own = openOwnExport(handle, owner)) return own;
  std::optional<IpcDriverRecord> record = readDriverRecord(handle.file, why);
  if (!record) return std::nullopt;
  if (record->size != handle.size) {
    why = "the handle's size is not its allocation's";
    return std::nullopt;
  }
  void* address = device->backend().importMemory(record->handle);
  if (!address) {
    why = "the device's driver cannot open the allocation";
    return std::nullopt;
  }
  return insert({address, static_cast<size_t>(handle.size), 0, handle.type, device, owner, 0, true, {}, &device->backend(), {}});
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

bool MemoryManager::closeIpc(const void* pointer, const void* owner) {
  Allocation closed;
  {
    std::unique_lock lock(mutex_);
    auto it = containing(byAddress_, pointer);
    if (it == byAddress_.end()) return false;
    Allocation& entry = it->second;
    if (!entry.imported) {
      auto open = std::find(entry.openedHere.begin(), entry.openedHere.end(), owner);
      if (open == entry.openedHere.end()) return false;
      entry.openedHere.erase(open);
      return true;
    }
    if (entry.owner != owner) return false;
    closed = entry;
    byAddress_.erase(it);
  }
  release(closed);
  return true;
}

std::optional<Allocation> MemoryManager::find(const void* pointer) const {
  std::shared_lock lock(mutex_);
  auto it = containing(byAddress_, pointer);
  if (it == byAddress_.end()) return std::nullopt;
  return it->second;
}

const char* describe(RangeCheck check) {
  switch (check) {
    case RangeCheck::Valid: return "";
    case RangeCheck::Wraps: return "the range wraps around the end of the address space";
    case RangeCheck::PastAllocation: return "the range runs past the end of an allocation, or into one";
    case RangeCheck::UnreadableAddress: return "the address is neither an allocation nor mapped host memory";
  }
  return "";
}

RangeCheck MemoryManager::checkRange(const void* pointer, size_t size) const {
  if (size == 0) return RangeCheck::Valid;
  const uintptr_t start = reinterpret_cast<uintptr_t>(pointer);
  if (size - 1 > UINTPTR_MAX - start) return RangeCheck::Wraps;
  {
    std::shared_lock lock(mutex_);
    auto next = byAddress_.upper_bound(start);
    if (next != byAddress_.begin()) {
      const auto& [base, allocation] = *std::prev(next);
      if (start - base < std::max<size_t>(allocation.size, 1))
        return size <= allocation.size - (start - base) ? RangeCheck::Valid : RangeCheck::PastAllocation;
    }
    if (next != byAddress_.end() && next->first - start < size) return RangeCheck::PastAllocation;
    auto variable = programVariables_.upper_bound(start);
    if (variable != programVariables_.begin()) {
      const auto& [base, known] = *std::prev(variable);
      if (start - base < known.size) return size <= known.size - (start - base) ? RangeCheck::Valid : RangeCheck::PastAllocation;
    }
  }
  return endsAreReadable(pointer, size) ? RangeCheck::Valid : RangeCheck::UnreadableAddress;
}

void MemoryManager::addProgramVariable(const void* address, size_t size, const void* owner) {
  if (!address || size == 0) return;
  std::unique_lock lock(mutex_);
  programVariables_[reinterpret_cast<uintptr_t>(address)] = {size, owner};
}

void MemoryManager::forgetProgramVariablesOf(const void* owner) {
  std::unique_lock lock(mutex_);
  for (auto it = programVariables_.begin(); it != programVariables_.end();)
    it = it->second.owner == owner ? programVariables_.erase(it) : std::next(it);
}

void MemoryManager::freeAllOf(const void* owner) {
  std::vector<Allocation> owned;
  {
    std::unique_lock lock(mutex_);
    for (auto it = byAddress_.begin(); it != byAddress_.end();) {
      if (it->second.owner != owner) {
        std::erase(it->second.openedHere, owner);
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
