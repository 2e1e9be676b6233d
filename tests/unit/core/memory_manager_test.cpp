#include "loom/core/memory_manager.h"

#include <gtest/gtest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <vector>

#include "fake_backend.h"
#include "loom/core/device.h"

namespace loom::core {
namespace {

const char kOwner = 'a';
const char kOtherOwner = 'b';

// `handle` opens nothing in `memory`, which says why.
void expectOpensNothing(MemoryManager& memory, const IpcMemoryHandle& handle) {
  std::string why;
  EXPECT_FALSE(memory.importIpc(handle, nullptr, &kOwner, why));
  EXPECT_FALSE(why.empty());
}

TEST(MemoryManager, HonoursAlignmentAndFindsInteriorPointers) {
  MemoryManager memory;
  for (size_t alignment : {0ul, 64ul, 4096ul, 65536ul, 2ul << 20}) {
    auto allocation = memory.allocate(MemoryType::Device, 1000, alignment, nullptr, &kOwner);
    ASSERT_TRUE(allocation);
    if (alignment) {
      EXPECT_EQ(reinterpret_cast<uintptr_t>(allocation->address) % alignment, 0u);
    }
    std::memset(allocation->address, 0x5a, 1000);
    auto found = memory.find(static_cast<char*>(allocation->address) + 999);
    ASSERT_TRUE(found);
    EXPECT_EQ(found->address, allocation->address);
    EXPECT_EQ(found->type, MemoryType::Device);
    EXPECT_FALSE(memory.find(static_cast<char*>(allocation->address) + 1000));
    EXPECT_TRUE(memory.free(allocation->address));
    EXPECT_FALSE(memory.find(allocation->address));
  }
}

TEST(MemoryManager, IdsAreUniqueAndUnknownPointersAreNotFound) {
  MemoryManager memory;
  auto first = memory.allocate(MemoryType::Host, 8, 0, nullptr, &kOwner);
  auto second = memory.allocate(MemoryType::Shared, 8, 0, nullptr, &kOwner);
  ASSERT_TRUE(first && second);
  EXPECT_NE(first->id, second->id);
  int local = 0;
  EXPECT_FALSE(memory.find(&local));
  EXPECT_FALSE(memory.free(&local));
  EXPECT_FALSE(memory.free(static_cast<char*>(first->address) + 1));
  EXPECT_FALSE(memory.free(first->address, second->id)) << "the id must match when given";
  EXPECT_TRUE(memory.free(first->address, first->id));
}

TEST(MemoryManager, RangesStayInsideOneAllocationOrInHostMemoryOfNone) {
  MemoryManager memory;
  auto allocation = memory.allocate(MemoryType::Host, 64, 0, nullptr, &kOwner);
  ASSERT_TRUE(allocation);
  char* base = static_cast<char*>(allocation->address);
  EXPECT_EQ(memory.checkRange(base, 64), RangeCheck::Valid);
  EXPECT_EQ(memory.checkRange(base + 63, 1), RangeCheck::Valid);
  EXPECT_EQ(memory.checkRange(base + 8, 0), RangeCheck::Valid);
  EXPECT_EQ(memory.checkRange(base, 65), RangeCheck::PastAllocation);
  EXPECT_EQ(memory.checkRange(base + 32, 33), RangeCheck::PastAllocation);
  EXPECT_EQ(memory.checkRange(base - 8, 16), RangeCheck::PastAllocation) << "runs from memory of no allocation into one";
  EXPECT_EQ(memory.checkRange(base, SIZE_MAX), RangeCheck::Wraps);
  std::vector<char> host(256);
  EXPECT_EQ(memory.checkRange(host.data(), host.size()), RangeCheck::Valid) << "the application's own memory";
  void* unreadable = mmap(nullptr, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(unreadable, MAP_FAILED);
  EXPECT_EQ(memory.checkRange(unreadable, 16), RangeCheck::UnreadableAddress);
  EXPECT_EQ(memory.checkRange(static_cast<char*>(unreadable) - 8, 16), RangeCheck::UnreadableAddress) << "its last byte";
  munmap(unreadable, 4096);
  EXPECT_STRNE(describe(RangeCheck::PastAllocation), "");
}

// A GPU program's variables are device memory of no allocation: copies may reach them once the
// application has their address, until their program goes.
TEST(MemoryManager, ProgramVariablesAreValidRangesWhileTheirProgramLives) {
  MemoryManager memory;
  void* page = mmap(nullptr, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(page, MAP_FAILED);
  char* variable = static_cast<char*>(page) + 64;
  EXPECT_EQ(memory.checkRange(variable, 16), RangeCheck::UnreadableAddress);
  memory.addProgramVariable(variable, 32, &kOwner);
  EXPECT_EQ(memory.checkRange(variable, 32), RangeCheck::Valid);
  EXPECT_EQ(memory.checkRange(variable + 16, 16), RangeCheck::Valid);
  EXPECT_EQ(memory.checkRange(variable + 16, 17), RangeCheck::PastAllocation);
  EXPECT_EQ(memory.checkRange(variable + 32, 4), RangeCheck::UnreadableAddress) << "just past it";
  memory.forgetProgramVariablesOf(&kOtherOwner);
  EXPECT_EQ(memory.checkRange(variable, 32), RangeCheck::Valid);
  memory.forgetProgramVariablesOf(&kOwner);
  EXPECT_EQ(memory.checkRange(variable, 16), RangeCheck::UnreadableAddress);
  munmap(page, 4096);
}

TEST(MemoryManager, FreeAllOfReleasesOnlyThatOwner) {
  MemoryManager memory;
  auto mine = memory.allocate(MemoryType::Host, 8, 0, nullptr, &kOwner);
  auto theirs = memory.allocate(MemoryType::Host, 8, 0, nullptr, &kOtherOwner);
  memory.freeAllOf(&kOwner);
  EXPECT_FALSE(memory.find(mine->address));
  EXPECT_TRUE(memory.find(theirs->address));
}

TEST(MemoryManager, IpcImportSeesTheExportersData) {
  MemoryManager memory;
  auto exported = memory.allocate(MemoryType::Device, 8192, 0, nullptr, &kOwner);
  ASSERT_TRUE(exported);
  char* interior = static_cast<char*>(exported->address) + 100;
  std::strcpy(interior, "shared pages");
  const IpcMemoryHandle handle = *memory.exportIpc(*exported, interior);
  EXPECT_EQ(handle.kind, IpcMemoryKind::MemoryFile);
  EXPECT_EQ(handle.size, 8192u);
  std::string why;
  auto imported = memory.importIpc(handle, nullptr, &kOwner, why);
  ASSERT_TRUE(imported) << why;
  EXPECT_TRUE(imported->imported);
  EXPECT_EQ(imported->type, MemoryType::Device);
  EXPECT_EQ(imported->size, 8192u);
  EXPECT_NE(imported->address, exported->address);
  EXPECT_STREQ(static_cast<char*>(imported->address) + handle.offset, "shared pages");
  IpcMemoryHandle corrupted = handle;
  corrupted.file.identity.bytes[0] ^= 1;
  expectOpensNothing(memory, corrupted);
}

// After the exporter frees an allocation and makes another (which may get the same descriptor
// number), the old handle opens nothing.
TEST(MemoryManager, AFreedAllocationsHandleOpensNothing) {
  MemoryManager memory;
  auto freed = memory.allocate(MemoryType::Host, 4096, 0, nullptr, &kOwner);
  ASSERT_TRUE(freed);
  const IpcMemoryHandle stale = *memory.exportIpc(*freed, freed->address);
  ASSERT_TRUE(memory.free(freed->address));
  auto next = memory.allocate(MemoryType::Host, 4096, 0, nullptr, &kOwner);
  ASSERT_TRUE(next);
  EXPECT_EQ(memory.exportIpc(*next, next->address)->file.fd, stale.file.fd) << "the descriptor is reused";
  expectOpensNothing(memory, stale);
}

// The size a handle claims must fit in the memory file: the importer maps no more than the file.
TEST(MemoryManager, AHandleClaimingMoreThanItsFileOpensNothing) {
  MemoryManager memory;
  auto exported = memory.allocate(MemoryType::Shared, 4096, 0, nullptr, &kOwner);
  ASSERT_TRUE(exported);
  IpcMemoryHandle handle = *memory.exportIpc(*exported, exported->address);
  std::string why;
  for (uint64_t size : {4096ull + 16, 1ull << 40}) {
    handle.size = size;
    EXPECT_FALSE(memory.importIpc(handle, nullptr, &kOwner, why)) << size;
  }
  handle.size = 4096;
  auto imported = memory.importIpc(handle, nullptr, &kOwner, why);
  ASSERT_TRUE(imported) << why;
  EXPECT_EQ(imported->size, 4096u);
}

// A backend with an allocator of its own (the CUDA backend's) provides the memory of its device
// and gets it back; devices without one get core's host memory.
class AllocatingBackend final : public testing::FakeBackendBase {
 public:
  void* allocateMemory(MemoryType type, size_t size) override {
    if (type == MemoryType::Shared) return nullptr;
    blocks.emplace_back(size);
    return blocks.back().data();
  }
  void releaseMemory(void* address, MemoryType type) override { released.push_back(address); }
  std::vector<std::vector<char>> blocks;
  std::vector<void*> released;
};

TEST(MemoryManager, UsesTheDeviceBackendsOwnAllocatorWhereItHasOne) {
  auto backend = std::make_unique<AllocatingBackend>();
  AllocatingBackend* allocator = backend.get();
  allocator->blocks.reserve(4);
  Device device(std::move(backend), nullptr);
  MemoryManager memory;
  auto onDevice = memory.allocate(MemoryType::Device, 256, 0, &device, &kOwner);
  ASSERT_TRUE(onDevice);
  EXPECT_EQ(onDevice->address, allocator->blocks.front().data());
  EXPECT_EQ(onDevice->allocator, allocator);
  auto shared = memory.allocate(MemoryType::Shared, 256, 0, &device, &kOwner);
  ASSERT_TRUE(shared);
  EXPECT_EQ(shared->allocator, nullptr);
  EXPECT_TRUE(memory.find(static_cast<char*>(onDevice->address) + 255));
  EXPECT_TRUE(memory.free(onDevice->address));
  EXPECT_EQ(allocator->released, (std::vector<void*>{onDevice->address}));
  memory.freeAllOf(&kOwner);
  EXPECT_EQ(allocator->released.size(), 1u);
}

// A backend that pins core's host memory and shares its own device memory through a driver's
// handle, as the CUDA backend does (cuMemHostRegister, cuIpcGetMemHandle).
class SharingBackend final : public testing::FakeBackendBase {
 public:
  SharingBackend() { blocks.reserve(8); }
  void* allocateMemory(MemoryType type, size_t size) override {
    blocks.emplace_back(size);
    return blocks.back().data();
  }
  void releaseMemory(void* address, MemoryType) override { released.push_back(address); }
  bool registerHostMemory(void* address, size_t) override {
    if (registers) registered.push_back(address);
    return registers;
  }
  void unregisterHostMemory(void* address) override { unregistered.push_back(address); }
  bool exportMemory(void* address, MemoryType type, DriverIpcHandle& handle) override {
    if (type != MemoryType::Device) return false;
    ++exports;
    std::memset(handle.bytes, 0x11, sizeof(handle.bytes));
    std::memcpy(handle.bytes, &address, sizeof(address));
    return true;
  }
  // "Maps" the exported block by pointing into a block of its own, noting which was named.
  void* importMemory(const DriverIpcHandle& handle) override {
    void* exported = nullptr;
    std::memcpy(&exported, handle.bytes, sizeof(exported));
    importedFrom.push_back(exported);
    blocks.emplace_back(64);
    return blocks.back().data();
  }
  void closeImportedMemory(void* address) override { closed.push_back(address); }

  bool registers = true;
  int exports = 0;
  std::vector<std::vector<char>> blocks;
  std::vector<void*> released, registered, unregistered, importedFrom, closed;
};

// A device whose backend shares its memory through the driver's handle.
class DriverSharedMemory : public ::testing::Test {
 protected:
  Device device{std::make_unique<SharingBackend>(), nullptr};
  SharingBackend& backend = static_cast<SharingBackend&>(device.backend());
  MemoryManager memory;
  MemoryManager importer;  // another process's, which holds none of `memory`'s allocations
};

// Memory of a device's allocator travels as the driver's handle, in a file that the Level Zero
// handle names: made once per allocation, opened on the importing device, closed through it.
TEST_F(DriverSharedMemory, TravelsAsTheDriversHandle) {
  auto exported = memory.allocate(MemoryType::Device, 4096, 0, &device, &kOwner);
  ASSERT_TRUE(exported);
  const std::optional<IpcMemoryHandle> handle = memory.exportIpc(*exported, static_cast<char*>(exported->address) + 64);
  ASSERT_TRUE(handle);
  EXPECT_EQ(handle->kind, IpcMemoryKind::DriverHandle);
  EXPECT_EQ(handle->offset, 64u);
  EXPECT_EQ(handle->type, MemoryType::Device);
  EXPECT_EQ(handle->size, 4096u);
  EXPECT_EQ(memory.exportIpc(*exported, exported->address)->file.identity, handle->file.identity) << "one record per allocation";
  EXPECT_EQ(backend.exports, 1);

  std::string why;
  EXPECT_FALSE(importer.importIpc(*handle, nullptr, &kOwner, why)) << "driver memory opens on a device";
  auto imported = importer.importIpc(*handle, &device, &kOtherOwner, why);
  ASSERT_TRUE(imported) << why;
  EXPECT_TRUE(imported->imported);
  EXPECT_EQ(imported->allocator, &backend);
  EXPECT_EQ(backend.importedFrom, (std::vector<void*>{exported->address}));
  EXPECT_TRUE(importer.closeIpc(static_cast<char*>(imported->address) + handle->offset, &kOtherOwner));
  EXPECT_EQ(backend.closed, (std::vector<void*>{imported->address}));
  EXPECT_TRUE(backend.released.empty()) << "an imported mapping is closed, not freed";

  auto shared = memory.allocate(MemoryType::Shared, 256, 0, &device, &kOwner);
  ASSERT_TRUE(shared);
  EXPECT_FALSE(memory.exportIpc(*shared, shared->address)) << "the driver cannot share it";
  memory.freeAllOf(&kOwner);
  EXPECT_EQ(backend.released.size(), 2u);
}

// A driver's handle travels in a memory file of its own, checked as any other: a freed
// allocation's record, a record claimed at another size and a memory file that holds no driver
// handle open nothing, and the driver is never asked to open them.
TEST_F(DriverSharedMemory, ADriverHandleOpensOnlyItsLiveAllocationsRecord) {
  auto freed = memory.allocate(MemoryType::Device, 4096, 0, &device, &kOwner);
  ASSERT_TRUE(freed);
  const IpcMemoryHandle stale = *memory.exportIpc(*freed, freed->address);
  ASSERT_TRUE(memory.free(freed->address));
  auto live = memory.allocate(MemoryType::Device, 4096, 0, &device, &kOwner);
  ASSERT_TRUE(live);
  IpcMemoryHandle handle = *memory.exportIpc(*live, live->address);
  std::string why;
  EXPECT_FALSE(importer.importIpc(stale, &device, &kOtherOwner, why)) << "the freed allocation's record is gone";
  EXPECT_FALSE(why.empty());

  IpcMemoryHandle resized = handle;
  resized.size = 1ull << 40;
  resized.offset = 0;
  EXPECT_FALSE(importer.importIpc(resized, &device, &kOtherOwner, why)) << "the record says 4096 bytes";

  auto host = memory.allocate(MemoryType::Host, 4096, 0, nullptr, &kOwner);
  ASSERT_TRUE(host);
  IpcMemoryHandle notARecord = *memory.exportIpc(*host, host->address);
  notARecord.kind = IpcMemoryKind::DriverHandle;
  EXPECT_FALSE(importer.importIpc(notARecord, &device, &kOtherOwner, why)) << "a memory file without a driver handle";
  EXPECT_TRUE(backend.importedFrom.empty()) << "the driver saw none of them";

  auto imported = importer.importIpc(handle, &device, &kOtherOwner, why);
  ASSERT_TRUE(imported) << why;
  EXPECT_EQ(backend.importedFrom, (std::vector<void*>{live->address}));
  importer.freeAllOf(&kOtherOwner);
  memory.freeAllOf(&kOwner);
}

// The driver of a GPU opens handles only in other processes (cuIpcOpenMemHandle): in the exporting
// process a handle opens as the allocation itself, once per open, and closing it frees nothing.
TEST_F(DriverSharedMemory, AHandleOpenedByItsExporterIsTheAllocationItself) {
  auto exported = memory.allocate(MemoryType::Device, 4096, 0, &device, &kOwner);
  ASSERT_TRUE(exported);
  char* interior = static_cast<char*>(exported->address) + 64;
  const IpcMemoryHandle handle = *memory.exportIpc(*exported, interior);
  std::string why;
  auto first = memory.importIpc(handle, &device, &kOtherOwner, why);
  ASSERT_TRUE(first) << why;
  auto second = memory.importIpc(handle, &device, &kOtherOwner, why);
  ASSERT_TRUE(second) << why;
  EXPECT_EQ(first->address, exported->address);
  EXPECT_EQ(first->id, exported->id);
  EXPECT_TRUE(backend.importedFrom.empty()) << "the driver is not asked to open its own process's handle";

  EXPECT_FALSE(memory.closeIpc(interior, &kOwner)) << "the exporter's context opened nothing";
  EXPECT_TRUE(memory.closeIpc(interior, &kOtherOwner));
  EXPECT_TRUE(memory.closeIpc(interior, &kOtherOwner)) << "two opens, two closes";
  EXPECT_FALSE(memory.closeIpc(interior, &kOtherOwner)) << "closed already";
  EXPECT_TRUE(backend.closed.empty());
  EXPECT_TRUE(backend.released.empty()) << "closing freed the exporter's memory";
  EXPECT_EQ(memory.find(interior)->id, exported->id);

  // A context that goes takes its opens along, not the allocation.
  ASSERT_TRUE(memory.importIpc(handle, &device, &kOtherOwner, why));
  memory.freeAllOf(&kOtherOwner);
  EXPECT_TRUE(memory.find(interior));
  EXPECT_FALSE(memory.closeIpc(interior, &kOtherOwner));

  IpcMemoryHandle resized = handle;
  resized.size = 8192;
  EXPECT_FALSE(memory.importIpc(resized, &device, &kOtherOwner, why)) << "the record says 4096 bytes";
  ASSERT_TRUE(memory.free(exported->address));
  EXPECT_FALSE(memory.importIpc(handle, &device, &kOtherOwner, why)) << "the freed allocation's record is gone";
  EXPECT_TRUE(backend.importedFrom.empty());
}

// With a host allocator, host memory is core's shareable memory pinned by it: IPC works as on the
// CPU, and the importing side pins its mapping too.
TEST(MemoryManager, HostMemoryIsRegisteredWithTheHostAllocatorAndShareable) {
  SharingBackend backend;
  MemoryManager memory;
  memory.setHostAllocator(&backend);
  auto host = memory.allocate(MemoryType::Host, 1000, 4096, nullptr, &kOwner);
  ASSERT_TRUE(host);
  EXPECT_EQ(host->allocator, nullptr);
  EXPECT_TRUE(host->block.deviceVisible);
  EXPECT_EQ(backend.registered, (std::vector<void*>{host->address}));
  std::strcpy(static_cast<char*>(host->address), "pinned");
  const std::optional<IpcMemoryHandle> handle = memory.exportIpc(*host, host->address);
  ASSERT_TRUE(handle);
  EXPECT_EQ(handle->kind, IpcMemoryKind::MemoryFile);
  std::string why;
  auto imported = memory.importIpc(*handle, nullptr, &kOwner, why);
  ASSERT_TRUE(imported) << why;
  EXPECT_EQ(imported->type, MemoryType::Host);
  EXPECT_EQ(imported->device, nullptr);
  EXPECT_STREQ(static_cast<char*>(imported->address), "pinned");
  EXPECT_EQ(backend.registered.size(), 2u);
  memory.freeAllOf(&kOwner);
  EXPECT_EQ(backend.unregistered.size(), 2u);
  EXPECT_TRUE(backend.released.empty());
}

// Where the host allocator cannot pin core's memory, host allocations come from its own
// allocator, which cannot be shared with other processes.
TEST(MemoryManager, HostMemoryFallsBackToTheAllocatorsOwnWhereRegistrationFails) {
  SharingBackend backend;
  backend.registers = false;
  MemoryManager memory;
  memory.setHostAllocator(&backend);
  auto host = memory.allocate(MemoryType::Host, 256, 0, nullptr, &kOwner);
  ASSERT_TRUE(host);
  EXPECT_EQ(host->allocator, &backend);
  EXPECT_EQ(host->address, backend.blocks.front().data());
  EXPECT_FALSE(memory.exportIpc(*host, host->address));
  memory.freeAllOf(&kOwner);
  EXPECT_EQ(backend.released, (std::vector<void*>{host->address}));
  EXPECT_TRUE(backend.unregistered.empty());
}

// Event storage and other internal memory that devices wait on: registered where a host
// allocator is set, plain shared memory otherwise.
TEST(MemoryManager, DeviceVisibleBlocksAreRegisteredOnlyWithAHostAllocator) {
  MemoryManager memory;
  SharedMemoryBlock plain = memory.allocateDeviceVisible(100, 8, {});
  ASSERT_NE(plain.address, nullptr);
  EXPECT_FALSE(plain.deviceVisible);
  memory.freeDeviceVisible(plain);
  SharingBackend backend;
  memory.setHostAllocator(&backend);
  SharedMemoryBlock pinned = memory.allocateDeviceVisible(100, 8, {});
  EXPECT_TRUE(pinned.deviceVisible);
  std::string why;
  SharedMemoryBlock mapped = memory.mapForeignDeviceVisible(sharedMemoryReference(pinned), 100, why);
  ASSERT_NE(mapped.address, nullptr) << why;
  EXPECT_TRUE(mapped.deviceVisible);
  memory.freeDeviceVisible(mapped);
  memory.freeDeviceVisible(pinned);
  EXPECT_EQ(backend.unregistered, (std::vector<void*>{mapped.address, pinned.address}));
}

}  // namespace
}  // namespace loom::core
