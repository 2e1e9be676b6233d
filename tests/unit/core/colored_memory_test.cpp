// Colored memory in core (implicit scaling): the chunks an allocation of a root device is laid out
// in, the record of each allocation's owners that copies and fills split by, and the composite
// backend's allocations over fake tiles (what each tile is asked to make, place and free).
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "fake_backend.h"
#include "loom/core/colored_allocations.h"
#include "loom/core/composite_backend.h"
#include "loom/core/debug_keys.h"
#include "loom/core/device.h"
#include "loom/core/memory_coloring.h"
#include "loom/core/memory_manager.h"

namespace loom::core {
namespace {

constexpr size_t kGranule = size_t(64) << 10;
constexpr size_t kMiB = size_t(1) << 20;
using Chunks = std::vector<MemoryChunk>;
using Policy = MemoryColoring::Policy;

TEST(MemoryColoringChunks, EvenGivesEachTileOneRunOfWholeGranulesTheFirstTilesOneMore) {
  EXPECT_EQ((MemoryColoring{2, Policy::Even, kGranule}.chunks(5 * kGranule + 10)),
            (Chunks{{0, 3 * kGranule, 0}, {3 * kGranule, 2 * kGranule + 10, 1}}));
  EXPECT_EQ((MemoryColoring{3, Policy::Even, kGranule}.chunks(7 * kGranule)),
            (Chunks{{0, 3 * kGranule, 0}, {3 * kGranule, 2 * kGranule, 1}, {5 * kGranule, 2 * kGranule, 2}}));
}

TEST(MemoryColoringChunks, InterleavedGivesGranuleIToTileIModuloTiles) {
  const Chunks chunks = MemoryColoring{2, Policy::Interleaved, kGranule}.chunks(4 * kGranule + 100);
  ASSERT_EQ(chunks.size(), 5u);
  for (size_t i = 0; i < chunks.size(); ++i) {
    EXPECT_EQ(chunks[i].offset, i * kGranule);
    EXPECT_EQ(chunks[i].tile, i % 2);
    EXPECT_EQ(chunks[i].size, i < 4 ? kGranule : 100u);
  }
}

TEST(MemoryColoringChunks, AllocationsSmallerThanTilesTimesGranularityGoWholeToOneTile) {
  for (Policy policy : {Policy::Even, Policy::Interleaved}) {
    const MemoryColoring coloring{3, policy, kGranule};
    EXPECT_EQ(coloring.chunks(3 * kGranule - 1), (Chunks{{0, 3 * kGranule - 1, 0}}));
    EXPECT_EQ(coloring.chunks(3 * kGranule).size(), 3u) << "tiles x granularity is split";
    EXPECT_EQ(coloring.chunks(1), (Chunks{{0, 1, 0}}));
  }
  EXPECT_EQ((MemoryColoring{1, Policy::Even, kGranule}.chunks(100 * kGranule)), (Chunks{{0, 100 * kGranule, 0}}));
}

TEST(MemoryColoringChunks, GranularityIsAtLeast64KiBAndAWholeNumberOfTheHardwaresUnit) {
  EXPECT_EQ(MemoryColoring::of(2, Policy::Even, 4096, 0).granularity, kGranule);
  EXPECT_EQ(MemoryColoring::of(2, Policy::Even, 4096, 2 * kMiB).granularity, 2 * kMiB);
  EXPECT_EQ(MemoryColoring::of(2, Policy::Even, 3 * kMiB, 2 * kMiB).granularity, 4 * kMiB) << "3 MiB rounds up to 2 x 2 MiB";
  EXPECT_EQ(MemoryColoring::of(2, Policy::Interleaved, 3 * kGranule, 0).granularity, 3 * kGranule);
  EXPECT_EQ(MemoryColoring::of(0, Policy::Even, 0, 0).tiles, 1u);
  EXPECT_EQ(MemoryColoring::fromDebugKeys(2, 2 * kMiB).granularity, 2 * kMiB) << "the default 64 KiB under CUDA's 2 MiB";
}

// The record of an allocation, cleared when the test ends.
class RecordedAllocation {
 public:
  RecordedAllocation(uintptr_t address, size_t size, unsigned tiles, Chunks chunks) : address_(address) {
    ColoredAllocations::instance().add(reinterpret_cast<void*>(address), size, tiles, std::move(chunks));
  }
  ~RecordedAllocation() { ColoredAllocations::instance().remove(reinterpret_cast<void*>(address_)); }

 private:
  uintptr_t address_;
};

TEST(ColoredAllocationsTest, CopiesAndFillsSplitByTheRealOwnersOfAnAllocationsBytes) {
  const MemoryColoring coloring{2, Policy::Interleaved, kGranule};
  // An allocation not on a granule boundary of the address space: its chunks count from its base.
  const uintptr_t base = 0x10000000 + 4096;
  RecordedAllocation allocation(base, 4 * kGranule, 2, coloring.chunks(4 * kGranule));
  EXPECT_EQ(coloring.pieces(base + 100, 2 * kGranule),
            (Chunks{{0, kGranule - 100, 0}, {kGranule - 100, kGranule, 1}, {2 * kGranule - 100, 100, 0}}));
  EXPECT_EQ(coloring.pieces(base + 3 * kGranule, 1000), (Chunks{{0, 1000, 1}})) << "a small range inside tile 1's chunk";
  const MemoryColoring even{2, Policy::Even, kGranule};
  RecordedAllocation evenAllocation(0x20000000, 4 * kGranule, 2, even.chunks(4 * kGranule));
  EXPECT_EQ(even.pieces(0x20000000 + 2 * kGranule + 8, kGranule), (Chunks{{0, kGranule, 1}}))
      << "address arithmetic would put a range this small on tile 0";
}

TEST(ColoredAllocationsTest, RangesOutsideOneRecordedAllocationOfAsManyTilesFallBackToArithmetic) {
  const MemoryColoring coloring{2, Policy::Even, kGranule};
  const uintptr_t base = 0x30000000;
  RecordedAllocation allocation(base, 4 * kGranule, 2, {{0, 4 * kGranule, 1}});
  EXPECT_EQ(coloring.pieces(base, 4 * kGranule), (Chunks{{0, 4 * kGranule, 1}}));
  EXPECT_EQ(coloring.pieces(base + kGranule, 4 * kGranule), (Chunks{{0, 2 * kGranule, 0}, {2 * kGranule, 2 * kGranule, 1}}))
      << "runs past the allocation's end";
  const MemoryColoring threeTiles{3, Policy::Even, kGranule};
  EXPECT_EQ(threeTiles.pieces(base, 3 * kGranule).size(), 3u) << "the record is of a root of 2 tiles";
  EXPECT_EQ(ColoredAllocations::instance().chunksOf(reinterpret_cast<void*>(base)), (Chunks{{0, 4 * kGranule, 1}}));
}

// A fake tile with an allocator of its own, which makes colored memory when `colors` (as a GPU's
// driver does) and records what it was asked to place.
class AllocatingTile final : public testing::FakeBackendBase {
 public:
  explicit AllocatingTile(bool colors, size_t granularity = 0) : colors_(colors), granularity_(granularity) {}
  void* allocateMemory(MemoryType type, size_t size) override {
    if (!ownsMemory) return nullptr;
    return newBlock(size);
  }
  void releaseMemory(void* address, MemoryType) override { blocks.erase(address); }
  void* allocateColoredMemory(const std::vector<Backend*>& tiles, const std::vector<MemoryChunk>& chunks, size_t size) override {
    if (!colors_) return nullptr;
    coloredTiles = tiles;
    coloredChunks = chunks;
    return newBlock(size);
  }
  void releaseColoredMemory(void* address) override {
    ++coloredReleases;
    blocks.erase(address);
  }
  size_t physicalGranularity() const override { return granularity_; }
  bool placeHostMemory(void* address, size_t size) override {
    placed.push_back({reinterpret_cast<uintptr_t>(address), size});
    return true;
  }

  bool ownsMemory = true;
  std::map<void*, std::vector<char>> blocks;
  std::vector<Backend*> coloredTiles;
  Chunks coloredChunks;
  int coloredReleases = 0;
  std::vector<std::pair<uintptr_t, size_t>> placed;

 private:
  void* newBlock(size_t size) {
    std::vector<char> block(size);
    void* address = block.data();
    blocks[address] = std::move(block);
    return address;
  }
  bool colors_;
  size_t granularity_;
};

TEST(CompositeColoredMemory, DeviceAllocationsAreColoredByTileZeroOverEveryTile) {
  AllocatingTile first(true, 2 * kMiB), second(true, kMiB);
  auto root = createCompositeBackend({&first, &second});
  EXPECT_EQ(root->physicalGranularity(), 2 * kMiB);
  void* colored = root->allocateMemory(MemoryType::Device, 9 * kMiB);
  ASSERT_NE(colored, nullptr);
  EXPECT_EQ(first.coloredTiles, (std::vector<Backend*>{&first, &second}));
  EXPECT_EQ(first.coloredChunks, (Chunks{{0, 6 * kMiB, 0}, {6 * kMiB, 3 * kMiB, 1}})) << "granules of the tiles' 2 MiB";
  EXPECT_EQ(ColoredAllocations::instance().chunksOf(colored), first.coloredChunks);
  root->releaseMemory(colored, MemoryType::Device);
  EXPECT_EQ(first.coloredReleases, 1);
  EXPECT_TRUE(first.blocks.empty());
  EXPECT_TRUE(ColoredAllocations::instance().chunksOf(colored).empty());
}

TEST(CompositeColoredMemory, SmallAllocationsAndOtherTypesAreTileZerosWhole) {
  AllocatingTile first(true, 2 * kMiB), second(true, 2 * kMiB);
  auto root = createCompositeBackend({&first, &second});
  void* small = root->allocateMemory(MemoryType::Device, 4 * kMiB - 1);
  ASSERT_NE(small, nullptr);
  EXPECT_TRUE(first.coloredChunks.empty());
  EXPECT_EQ(ColoredAllocations::instance().chunksOf(small), (Chunks{{0, 4 * kMiB - 1, 0}}));
  void* shared = root->allocateMemory(MemoryType::Shared, 8 * kMiB);
  EXPECT_TRUE(first.coloredChunks.empty());
  EXPECT_TRUE(ColoredAllocations::instance().chunksOf(shared).empty());
  root->releaseMemory(small, MemoryType::Device);
  root->releaseMemory(shared, MemoryType::Shared);
  EXPECT_EQ(first.coloredReleases, 0);
  EXPECT_TRUE(first.blocks.empty());
}

TEST(CompositeColoredMemory, TilesThatCannotColorGiveTileZerosMemoryWhole) {
  AllocatingTile first(false), second(false);
  auto root = createCompositeBackend({&first, &second});
  void* whole = root->allocateMemory(MemoryType::Device, 64 * kMiB);
  ASSERT_NE(whole, nullptr);
  EXPECT_EQ(first.blocks.count(whole), 1u);
  EXPECT_EQ(ColoredAllocations::instance().chunksOf(whole), (Chunks{{0, 64 * kMiB, 0}}));
  root->releaseMemory(whole, MemoryType::Device);
}

TEST(CompositeColoredMemory, CoresHostMemoryAsADeviceAllocationIsPlacedChunkByChunkOnItsTiles) {
  AllocatingTile first(false), second(false);
  first.ownsMemory = second.ownsMemory = false;  // as CPU tiles: core's host memory serves them
  auto rootBackend = createCompositeBackend({&first, &second});
  Backend* root = rootBackend.get();
  Device device(std::move(rootBackend), nullptr);
  MemoryManager memory;
  const int owner = 0;
  auto allocation = memory.allocate(MemoryType::Device, 4 * kGranule, 0, &device, &owner);
  ASSERT_TRUE(allocation);
  EXPECT_EQ(allocation->allocator, nullptr);
  const uintptr_t base = reinterpret_cast<uintptr_t>(allocation->address);
  using Placed = std::vector<std::pair<uintptr_t, size_t>>;
  EXPECT_EQ(first.placed, (Placed{{base, 2 * kGranule}}));
  EXPECT_EQ(second.placed, (Placed{{base + 2 * kGranule, 2 * kGranule}}));
  EXPECT_EQ(ColoredAllocations::instance().chunksOf(allocation->address).size(), 2u);
  EXPECT_EQ(root->info().name, "fake");
  ASSERT_TRUE(memory.free(allocation->address));
  EXPECT_TRUE(ColoredAllocations::instance().chunksOf(allocation->address).empty()) << "freeing forgets the record";
  auto host = memory.allocate(MemoryType::Host, 4 * kGranule, 0, nullptr, &owner);
  ASSERT_TRUE(host);
  EXPECT_EQ(first.placed.size(), 1u) << "host memory belongs to no tile";
}

}  // namespace
}  // namespace loom::core
