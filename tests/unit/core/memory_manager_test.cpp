#include "loom/core/memory_manager.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "fake_backend.h"
#include "loom/core/device.h"

namespace loom::core {
namespace {

const char kOwner = 'a';
const char kOtherOwner = 'b';

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
  const IpcMemoryHandle handle = memory.exportIpc(*exported, interior);
  auto imported = memory.importIpc(handle, nullptr, &kOwner);
  ASSERT_TRUE(imported);
  EXPECT_TRUE(imported->imported);
  EXPECT_NE(imported->address, exported->address);
  EXPECT_STREQ(static_cast<char*>(imported->address) + handle.offset, "shared pages");
  IpcMemoryHandle corrupted = handle;
  corrupted.magic = 0;
  EXPECT_FALSE(memory.importIpc(corrupted, nullptr, &kOwner));
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

// Host allocations belong to no device: they come from the host allocator when one is set (a
// GPU's pinned memory), else from core's host memory.
TEST(MemoryManager, HostAllocationsComeFromTheHostAllocatorWhenSet) {
  AllocatingBackend allocator;
  allocator.blocks.reserve(4);
  MemoryManager memory;
  auto before = memory.allocate(MemoryType::Host, 256, 0, nullptr, &kOwner);
  ASSERT_TRUE(before);
  EXPECT_EQ(before->allocator, nullptr);
  memory.setHostAllocator(&allocator);
  auto pinned = memory.allocate(MemoryType::Host, 256, 0, nullptr, &kOwner);
  ASSERT_TRUE(pinned);
  EXPECT_EQ(pinned->allocator, &allocator);
  EXPECT_EQ(pinned->address, allocator.blocks.front().data());
  EXPECT_EQ(pinned->device, nullptr);
  memory.freeAllOf(&kOwner);
  EXPECT_EQ(allocator.released, (std::vector<void*>{pinned->address}));
}

}  // namespace
}  // namespace loom::core
