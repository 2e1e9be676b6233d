// Implicit scaling in core: how launches and memory are divided among tiles, and the composite
// backend and queue over fake tiles (what each tile is asked to run) and over CPU tiles sharing
// one thread pool (what the kernels see).
#include "loom/core/composite_backend.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstring>
#include <numeric>
#include <set>
#include <thread>
#include <utility>
#include <vector>

#include "backends/cpu/cpu_backend.h"
#include "backends/cpu/cpu_program.h"
#include "fake_backend.h"
#include "loom/core/command_executor.h"
#include "loom/core/command_stream.h"
#include "loom/core/composite_kernel.h"
#include "loom/core/debug_keys.h"
#include "loom/core/event.h"
#include "loom/core/kernel.h"
#include "loom/core/launch_split.h"
#include "loom/core/memory_coloring.h"

namespace loom::core {
namespace {

TEST(LaunchSplit, TakesTheOutermostDimensionThatSplitsEvenlyEnough) {
  const uint32_t cube[3] = {8, 8, 8};
  EXPECT_EQ(splitDimension(cube, 2), 2);
  const uint32_t plane[3] = {8, 8, 1};
  EXPECT_EQ(splitDimension(plane, 2), 1);
  const uint32_t line[3] = {8, 1, 1};
  EXPECT_EQ(splitDimension(line, 2), 0);
  const uint32_t nearlyEvenZ[3] = {4, 1, 41};  // one group of 41 left over: under 5%
  EXPECT_EQ(splitDimension(nearlyEvenZ, 2), 2);
  const uint32_t unevenYZ[3] = {8, 7, 3};  // x divides exactly
  EXPECT_EQ(splitDimension(unevenYZ, 2), 0);
  const uint32_t nothingEven[3] = {7, 9, 5};  // the largest then
  EXPECT_EQ(splitDimension(nothingEven, 2), 1);
  EXPECT_EQ(splitDimension(cube, 3), 0) << "8 % 3 leaves too much over along z and y; x is the largest";
}

TEST(LaunchSplit, PartsCoverEveryGroupOnceInTileOrder) {
  for (uint32_t groups : {1u, 2u, 7u, 1000u}) {
    for (unsigned tiles : {2u, 3u, 4u}) {
      KernelLaunch launch;
      launch.setRange({3, {groups, 3, 2}, {4, 1, 1}, {5, 0, 0}, {}, false});
      const std::vector<KernelLaunch> parts = splitLaunch(launch, 0, tiles);
      ASSERT_EQ(parts.size(), tiles);
      uint32_t next = 0;
      for (unsigned tile = 0; tile < tiles; ++tile) {
        const KernelLaunch& part = parts[tile];
        EXPECT_TRUE(part.isPart);
        EXPECT_EQ(part.firstGroupToRun(0), next);
        EXPECT_EQ(part.groupsToRun(0), groups / tiles + (tile < groups % tiles ? 1 : 0));
        EXPECT_EQ(part.groupsToRun(1), 3u);
        EXPECT_EQ(part.groupsToRun(2), 2u);
        EXPECT_EQ(part.groupCount[0], groups) << "the kernel still sees the whole launch";
        EXPECT_EQ(part.globalOffset[0], 5u);
        next += part.groupsToRun(0);
      }
      EXPECT_EQ(next, groups);
    }
  }
}

TEST(LaunchSplit, APartOfAPartStaysInsideIt) {
  KernelLaunch launch;
  launch.setRange({2, {10, 6, 1}, {1, 1, 1}, {}, {}, false});
  const KernelLaunch inner = launch.part(1, 2, 3).part(0, 4, 5);
  EXPECT_EQ(inner.firstGroupToRun(0), 4u);
  EXPECT_EQ(inner.groupsToRun(0), 5u);
  EXPECT_EQ(inner.firstGroupToRun(1), 2u);
  EXPECT_EQ(inner.groupsToRun(1), 3u);
  EXPECT_EQ(inner.groupsToRun(), 15u);
}

constexpr size_t kGranule = size_t(64) << 10;

TEST(MemoryColoring, EvenGivesEachTileConsecutiveGranules) {
  const MemoryColoring coloring{2, MemoryColoring::Policy::Even, kGranule};
  const auto pieces = coloring.pieces(0x1234, 5 * kGranule + 10);
  ASSERT_EQ(pieces.size(), 2u);
  EXPECT_EQ(pieces[0].tile, 0u);
  EXPECT_EQ(pieces[0].offset, 0u);
  EXPECT_EQ(pieces[0].size, 3 * kGranule);
  EXPECT_EQ(pieces[1].tile, 1u);
  EXPECT_EQ(pieces[1].offset, 3 * kGranule);
  EXPECT_EQ(pieces[1].size, 2 * kGranule + 10);
}

TEST(MemoryColoring, InterleavedOwnsGranulesOfTheAddressSpaceInTurn) {
  const MemoryColoring coloring{3, MemoryColoring::Policy::Interleaved, kGranule};
  const uintptr_t address = 7 * kGranule + 100;
  const auto pieces = coloring.pieces(address, 4 * kGranule);
  ASSERT_EQ(pieces.size(), 5u);
  size_t offset = 0;
  for (const auto& piece : pieces) {
    EXPECT_EQ(piece.offset, offset);
    EXPECT_EQ(piece.tile, (address + offset) / kGranule % 3);
    offset += piece.size;
  }
  EXPECT_EQ(offset, 4 * kGranule);
  EXPECT_EQ(pieces.front().size, kGranule - 100);
}

TEST(MemoryColoring, RangesSmallerThanTilesTimesGranularityStayOnTileZero) {
  const MemoryColoring coloring{2, MemoryColoring::Policy::Interleaved, kGranule};
  const auto pieces = coloring.pieces(kGranule - 8, 2 * kGranule - 1);
  ASSERT_EQ(pieces.size(), 1u);
  EXPECT_EQ(pieces[0].tile, 0u);
  EXPECT_EQ(pieces[0].size, 2 * kGranule - 1);
}

// A 1-D kernel over one float per work-item (a triad): with the policy 0 coloring and granules
// that divide among the tiles, each tile's part of the split launch touches exactly the chunk
// that tile owns, so no tile reads or writes another's memory.
TEST(MemoryColoring, EvenChunksMatchTheSplitOfALaunchOverThemWhenTheGranulesDivide) {
  constexpr uint32_t kGroupSize = 256;
  for (unsigned tiles : {2u, 3u, 4u}) {
    const MemoryColoring coloring{tiles, MemoryColoring::Policy::Even, kGranule};
    const size_t bytes = 6 * tiles * kGranule, floats = bytes / sizeof(float);
    KernelLaunch launch;
    launch.setRange({1, {uint32_t(floats / kGroupSize), 1, 1}, {kGroupSize, 1, 1}, {}, {}, false});
    const uint32_t groups[3] = {launch.groupsToRun(0), 1, 1};
    const std::vector<KernelLaunch> parts = splitLaunch(launch, splitDimension(groups, tiles), tiles);
    const std::vector<MemoryColoring::Piece> chunks = coloring.chunks(bytes);
    ASSERT_EQ(parts.size(), chunks.size());
    for (unsigned tile = 0; tile < tiles; ++tile) {
      EXPECT_EQ(chunks[tile].tile, tile);
      EXPECT_EQ(size_t(parts[tile].firstGroupToRun(0)) * kGroupSize * sizeof(float), chunks[tile].offset) << tiles << " " << tile;
      EXPECT_EQ(size_t(parts[tile].groupsToRun(0)) * kGroupSize * sizeof(float), chunks[tile].size) << tiles << " " << tile;
    }
  }
}

TEST(MemoryColoring, GranularityIsAtLeast64KiB) {
  setenv("LOOM_MultiStorageGranularity", "4096", 1);
  DebugKeys keys;
  unsetenv("LOOM_MultiStorageGranularity");
  EXPECT_EQ(keys.MultiStorageGranularity, 4096);
  EXPECT_EQ(keys.MultiStoragePolicy, 0);
  EXPECT_TRUE(keys.EnableImplicitScaling);
  EXPECT_EQ(MemoryColoring::fromDebugKeys(2).granularity, MemoryColoring::kMinGranularity);
}

// Each tile's (start, end) an event kept, global and context times alike.
using Interval = std::pair<uint64_t, uint64_t>;
std::vector<Interval> tileIntervals(const Event& event) {
  std::vector<Interval> intervals;
  for (const EventTimestamps& tile : event.tileTimestamps()) {
    EXPECT_EQ(tile.contextEnd - tile.contextStart, tile.globalEnd - tile.globalStart);
    intervals.emplace_back(tile.globalStart, tile.globalEnd);
  }
  return intervals;
}

// A program of a fake tile: one kernel of every name.
class FakeProgram final : public BackendProgram {
 public:
  BackendKernel* kernel(const std::string&, std::string&) override { return &kernel_; }
  void* globalVariable(const std::string&) override { return nullptr; }
  void* function(const std::string&) override { return nullptr; }
  bool link(const std::vector<BackendProgram*>&, std::string&) override { return true; }

 private:
  BackendKernel kernel_;
};

// A fake tile that records the copies and fills its queues run; each tile loads programs of its own.
class RecordingTile final : public testing::FakeBackendBase {
 public:
  explicit RecordingTile(DeviceInfo info, bool runsParts = true) : FakeBackendBase(std::move(info)), runsParts_(runsParts) {}
  bool runsLaunchParts() const override { return runsParts_; }
  std::unique_ptr<BackendProgram> loadProgram(std::shared_ptr<const compiler::CompiledProgram>, std::string&) override {
    return std::make_unique<FakeProgram>();
  }
  struct Write {
    void* destination;
    size_t size;
  };
  void copy(void* destination, const void* source, size_t size) override {
    writes.push_back({destination, size});
    FakeBackendBase::copy(destination, source, size);
  }
  void fill(void* destination, const void* pattern, size_t patternSize, size_t size) override {
    writes.push_back({destination, size});
    FakeBackendBase::fill(destination, pattern, patternSize, size);
  }
  // As CUDA's portable registration: one serves every device of the driver, a second of the same
  // memory fails.
  bool registerHostMemory(void* address, size_t) override {
    if (!driverRegistrations().insert(address).second) return false;
    registered.push_back(address);
    return true;
  }
  void unregisterHostMemory(void* address) override {
    driverRegistrations().erase(address);
    std::erase(registered, address);
  }
  static std::set<void*>& driverRegistrations() {
    static std::set<void*> registrations;
    return registrations;
  }
  bool reserveCache(size_t bytes, std::string& why) override {
    if (bytes > cacheLimit) {
      why = "more than the tile reserves";
      return false;
    }
    reservedCache = bytes;
    return true;
  }
  bool adviseCache(const void* address, size_t size, bool reserved, std::string&) override {
    cacheAdvice.push_back({address, size, reserved});
    return true;
  }
  struct CacheAdvice {
    const void* address;
    size_t size;
    bool reserved;
  };
  std::vector<Write> writes;
  std::vector<void*> registered;
  size_t reservedCache = 0;
  size_t cacheLimit = SIZE_MAX;
  std::vector<CacheAdvice> cacheAdvice;

 private:
  bool runsParts_;
};

DeviceInfo tileInfo(int32_t index) {
  DeviceInfo info;
  info.computeUnits = 4;
  info.numSlices = 1;
  info.globalMemorySize = 1000;
  info.maxAllocationSize = 400;
  info.uuid[15] = static_cast<uint8_t>(index + 1);
  info.maxCacheReservationSize = 1000 + 24 * index;
  return info;
}

class CompositeOverFakeTiles : public ::testing::Test {
 protected:
  CompositeOverFakeTiles() {
    for (int32_t tile = 0; tile < 2; ++tile) tiles.push_back(std::make_unique<RecordingTile>(tileInfo(tile)));
    root = createCompositeBackend({tiles[0].get(), tiles[1].get()});
    queue = root->createQueue();
    descriptor.name = "k";
  }

  KernelLaunch launchOf(std::array<uint32_t, 3> groups, bool cooperative = false) {
    KernelLaunch launch;
    launch.setRange({3, groups, {2, 1, 1}, {0, 0, 0}, {}, cooperative});
    launch.kernel = &kernel;
    launch.descriptor = &descriptor;
    return launch;
  }

  std::vector<std::unique_ptr<RecordingTile>> tiles;
  std::unique_ptr<Backend> root;
  std::unique_ptr<BackendQueue> queue;
  BackendKernel tileKernels[2];
  CompositeKernel kernel{{&tileKernels[0], &tileKernels[1]}, 4};
  compiler::KernelDescriptor descriptor;
  const uint8_t noArguments[1] = {};
};

TEST_F(CompositeOverFakeTiles, ReportsTheSumOfItsTiles) {
  const DeviceInfo& info = root->info();
  EXPECT_EQ(info.computeUnits, 8u);
  EXPECT_EQ(info.numSlices, 2u);
  EXPECT_EQ(info.globalMemorySize, 2000u);
  EXPECT_EQ(info.maxAllocationSize, 800u);
  EXPECT_EQ(info.uuid[15], 0u);
}

// Each tile has its own last-level cache: the root reserves what every tile can, on every tile.
TEST_F(CompositeOverFakeTiles, ReservesAndAdvisesTheCacheOfEveryTile) {
  EXPECT_EQ(root->info().maxCacheReservationSize, 1000u);
  std::string why;
  ASSERT_TRUE(root->reserveCache(512, why)) << why;
  int memory[4] = {};
  ASSERT_TRUE(root->adviseCache(memory, sizeof(memory), true, why)) << why;
  for (const auto& tile : tiles) {
    EXPECT_EQ(tile->reservedCache, 512u);
    ASSERT_EQ(tile->cacheAdvice.size(), 1u);
    EXPECT_EQ(tile->cacheAdvice[0].address, memory);
    EXPECT_EQ(tile->cacheAdvice[0].size, sizeof(memory));
    EXPECT_TRUE(tile->cacheAdvice[0].reserved);
  }
}

// A reservation one tile refuses leaves every tile as it was.
TEST_F(CompositeOverFakeTiles, AReservationOneTileRefusesChangesNoTile) {
  std::string why;
  ASSERT_TRUE(root->reserveCache(256, why)) << why;
  tiles[1]->cacheLimit = 300;
  EXPECT_FALSE(root->reserveCache(512, why));
  EXPECT_EQ(why, "more than the tile reserves");
  EXPECT_EQ(tiles[0]->reservedCache, 256u);
  EXPECT_EQ(tiles[1]->reservedCache, 256u);
}

// Host memory registered through the root reaches every tile with one registration (tile 0's).
TEST_F(CompositeOverFakeTiles, RegistersHostMemoryOnceForEveryTile) {
  int host = 0;
  ASSERT_TRUE(root->registerHostMemory(&host, sizeof(host)));
  EXPECT_EQ(tiles[0]->registered, std::vector<void*>{&host});
  EXPECT_TRUE(tiles[1]->registered.empty());
  root->unregisterHostMemory(&host);
  EXPECT_TRUE(tiles[0]->registered.empty());
  EXPECT_TRUE(RecordingTile::driverRegistrations().empty());
}

TEST_F(CompositeOverFakeTiles, SplitsALaunchOnePartPerTileWithEachTilesKernel) {
  queue->launch(launchOf({3, 4, 8}), noArguments);
  ASSERT_EQ(tiles[0]->launches.size(), 1u);
  ASSERT_EQ(tiles[1]->launches.size(), 1u);
  for (int tile = 0; tile < 2; ++tile) {
    const KernelLaunch& part = tiles[tile]->launches[0];
    EXPECT_EQ(part.kernel, &tileKernels[tile]);
    EXPECT_TRUE(part.isPart);
    EXPECT_EQ(part.firstGroupToRun(2), tile * 4u) << "split along z, the outermost even dimension";
    EXPECT_EQ(part.groupsToRun(2), 4u);
    EXPECT_EQ(part.groupsToRun(0) * part.groupsToRun(1), 12u);
    EXPECT_EQ(part.groupCount[2], 8u);
  }
}

TEST_F(CompositeOverFakeTiles, RunsSmallAndCooperativeLaunchesOnTileZeroWhole) {
  queue->launch(launchOf({1, 1, 1}), noArguments);
  queue->launch(launchOf({64, 1, 1}, true), noArguments);
  ASSERT_EQ(tiles[0]->launches.size(), 2u);
  EXPECT_TRUE(tiles[1]->launches.empty());
  for (const KernelLaunch& launch : tiles[0]->launches) {
    EXPECT_FALSE(launch.isPart);
    EXPECT_EQ(launch.kernel, &tileKernels[0]);
  }
}

TEST_F(CompositeOverFakeTiles, CountsCooperativeGroupsOnTileZeroWhereTheyRun) {
  const compiler::KernelDescriptor empty;
  const Kernel onRoot(empty, &kernel);
  EXPECT_EQ(onRoot.maxCooperativeGroupCount(root->info()), 4u) << "tile 0's 4 compute units, not the root's 8";
  const Kernel onTile(empty, &tileKernels[0]);
  EXPECT_EQ(onTile.maxCooperativeGroupCount(tiles[0]->info()), 4u);
}

TEST_F(CompositeOverFakeTiles, SplitsCopiesAndFillsByTheOwnersOfTheirBytes) {
  const size_t size = 4 * kGranule - 5;  // 4 granules, the last one short
  std::vector<uint8_t> source(size), destination(size, 0), filled(size, 0);
  std::iota(source.begin(), source.end(), 0);
  queue->copy(destination.data(), source.data(), size);
  EXPECT_EQ(destination, source);
  const uint8_t pattern[4] = {1, 2, 3, 4};
  queue->fill(filled.data() + 1, pattern, sizeof(pattern), size - 1);
  for (size_t i = 1; i < size; ++i) ASSERT_EQ(filled[i], pattern[(i - 1) % 4]) << i;
  // Even coloring: tile 0 writes the first half of each, tile 1 the rest.
  ASSERT_EQ(tiles[0]->writes.size(), 2u);
  ASSERT_EQ(tiles[1]->writes.size(), 2u);
  EXPECT_EQ(tiles[0]->writes[0].destination, destination.data());
  EXPECT_EQ(tiles[0]->writes[0].size, 2 * kGranule);
  EXPECT_EQ(tiles[1]->writes[0].destination, destination.data() + 2 * kGranule);
  EXPECT_EQ(tiles[1]->writes[0].size, 2 * kGranule - 5);
  EXPECT_EQ(tiles[1]->writes[1].destination, filled.data() + 1 + 2 * kGranule);
}

// A rectangular copy is one command of tile 0, which reaches all of the root's memory: split by
// rows and each row by owners, a CopyBufferRect of a million rows took a million commands.
TEST_F(CompositeOverFakeTiles, RegionCopiesRunWholeOnTileZero) {
  const size_t rowBytes = 4 * kGranule, pitch = rowBytes + 16, rows = 3;
  std::vector<uint8_t> source(pitch * rows), destination(pitch * rows, 0);
  std::iota(source.begin(), source.end(), 0);
  const Region3d region{0, 0, 0, pitch, pitch * rows};
  queue->copyRegion({destination.data(), source.data(), region, region, rowBytes, rows, 1});
  for (size_t row = 0; row < rows; ++row)
    for (size_t x = 0; x < pitch; ++x)
      ASSERT_EQ(destination[row * pitch + x], x < rowBytes ? source[row * pitch + x] : 0) << row << ", " << x;
  EXPECT_EQ(tiles[0]->writes.size(), rows) << "one write per row, each whole, by tile 0's own queue";
  EXPECT_TRUE(tiles[1]->writes.empty());
}

TEST_F(CompositeOverFakeTiles, SmallCopiesStayOnTileZero) {
  std::vector<uint8_t> source(100, 7), destination(100);
  queue->copy(destination.data(), source.data(), source.size());
  EXPECT_EQ(destination, source);
  EXPECT_EQ(tiles[0]->writes.size(), 1u);
  EXPECT_TRUE(tiles[1]->writes.empty());
}

// Synchronous tiles have no marks: the composite times each tile's part as it returns, on the
// root's clock (tile 0's, which counts one per read).
TEST_F(CompositeOverFakeTiles, AnEventOfASplitLaunchKeepsEachTilesTimesAndSpansThem) {
  CommandExecutor executor(*root);
  EventStorage storage;
  TileTimestamps tileStorage;
  Event timed(&storage, false, DeviceType::Cpu, &tileStorage);
  LaunchKernelCommand split{};
  split.launch = launchOf({3, 4, 8});
  CommandStream stream;
  stream.appendMarkEventStart(&timed);
  stream.appendLaunchKernel(split, noArguments);
  stream.appendSignalEvent(&timed);
  tiles[0]->clock = 100;
  executor.execute(stream.bytes());
  EXPECT_TRUE(executor.retire(false));
  ASSERT_TRUE(timed.isSignaled());
  // 101: the start mark; 102: tile 1's part returned; 103: tile 0's; 104: the end mark.
  EXPECT_EQ(tileIntervals(timed), (std::vector<Interval>{{101, 103}, {101, 102}}));
  EXPECT_EQ(timed.timestamps().globalStart, 101u);
  EXPECT_EQ(timed.timestamps().globalEnd, 103u) << "the root's end is the last tile's";
  timed.reset();
  EXPECT_TRUE(timed.tileTimestamps().empty());
}

// Tiles with programs of their own (GPUs) have a copy each of a program's global variables, and
// the host sees tile 0's: kernels of such a program run whole on tile 0; kernels of others split.
TEST_F(CompositeOverFakeTiles, KernelsOfAProgramWithGlobalVariablesRunOnTileZero) {
  for (const uint64_t globalBytes : {uint64_t(16), uint64_t(0)}) {
    auto compiled = std::make_shared<compiler::CompiledProgram>();
    compiled->info.globalVariableTotalSize = globalBytes;
    std::string log;
    std::unique_ptr<BackendProgram> program = root->loadProgram(compiled, log);
    ASSERT_NE(program, nullptr) << log;
    KernelLaunch launch = launchOf({64, 1, 1});
    launch.kernel = program->kernel("k", log);
    tiles[0]->launches.clear();
    queue->launch(launch, noArguments);
    ASSERT_EQ(tiles[0]->launches.size(), 1u);
    EXPECT_EQ(tiles[0]->launches[0].isPart, globalBytes == 0) << globalBytes;
    EXPECT_EQ(tiles[1]->launches.size(), globalBytes == 0 ? 1u : 0u) << globalBytes;
  }
}

TEST(CompositeOverTilesWithoutParts, RunsLaunchesOnTileZeroAndStillSplitsCopies) {
  RecordingTile first(tileInfo(0), false), second(tileInfo(1), false);
  std::unique_ptr<Backend> root = createCompositeBackend({&first, &second});
  std::unique_ptr<BackendQueue> queue = root->createQueue();
  BackendKernel tileKernels[2];
  CompositeKernel kernel{{&tileKernels[0], &tileKernels[1]}, 4};
  compiler::KernelDescriptor descriptor;
  KernelLaunch launch;
  launch.setRange({1, {64, 1, 1}, {1, 1, 1}, {}, {}, false});
  launch.kernel = &kernel;
  launch.descriptor = &descriptor;
  const uint8_t noArguments[1] = {};
  queue->launch(launch, noArguments);
  ASSERT_EQ(first.launches.size(), 1u);
  EXPECT_FALSE(first.launches[0].isPart);
  EXPECT_TRUE(second.launches.empty());
  std::vector<uint8_t> source(2 * kGranule, 1), destination(2 * kGranule);
  queue->copy(destination.data(), source.data(), source.size());
  EXPECT_EQ(first.writes.size(), 1u);
  EXPECT_EQ(second.writes.size(), 1u);
}

// Asynchronous tiles (GPUs): the composite keeps the root's order across them.
class CompositeOverAsynchronousTiles : public ::testing::Test {
 protected:
  CompositeOverAsynchronousTiles() {
    root = createCompositeBackend({&tiles[0], &tiles[1]});
    queue = root->createQueue();
  }
  // Lets tile 1 work from another thread while the composite waits for it.
  std::thread runTileOneUntil(const std::atomic<bool>& stop) {
    return std::thread([&] {
      while (!stop.load()) {
        tiles[1].finishWork();
        std::this_thread::yield();
      }
    });
  }

  testing::FakeAsynchronousBackend tiles[2];
  std::unique_ptr<Backend> root;
  std::unique_ptr<BackendQueue> queue;
};

TEST_F(CompositeOverAsynchronousTiles, WritesAValueOnlyAfterEveryTilesWork) {
  EXPECT_TRUE(queue->asynchronous());
  std::vector<uint8_t> source(2 * kGranule, 5), destination(2 * kGranule, 0);
  queue->copy(destination.data(), source.data(), source.size());
  EXPECT_EQ(tiles[0].copiesIssued, 1u);
  EXPECT_EQ(tiles[1].copiesIssued, 1u);
  uint32_t word = 0;
  EXPECT_TRUE(queue->writeValue(&word, 7));
  // Tile 0's queue waits for tile 1's half, then writes after its own: no host round trip.
  EXPECT_EQ(tiles[0].joinsIssued, 1u);
  EXPECT_FALSE(tiles[1].pending.empty());
  tiles[0].finishWork();
  EXPECT_EQ(word, 0u) << "tile 1's half is not done yet";
  tiles[1].finishWork();
  tiles[0].finishWork();
  EXPECT_EQ(word, 7u);
  EXPECT_EQ(destination, source);
  EXPECT_TRUE(queue->completed());
}

// A tile's queue joins another's once for all the work that tile issued so far.
TEST_F(CompositeOverAsynchronousTiles, ATileJoinsAnotherOnlyForWorkIssuedSinceItsLastJoin) {
  std::vector<uint8_t> source(2 * kGranule, 5), destination(2 * kGranule, 0);
  queue->copy(destination.data(), source.data(), source.size());
  uint32_t words[2] = {0, 0};
  EXPECT_TRUE(queue->writeValue(&words[0], 1));
  EXPECT_TRUE(queue->writeValue(&words[1], 1));
  EXPECT_EQ(tiles[0].joinsIssued, 1u) << "tile 1 issued nothing after the first join";
  const uint8_t pattern = 9;
  queue->fill(destination.data(), &pattern, 1, destination.size());
  EXPECT_EQ(tiles[0].joinsIssued, 1u);
  EXPECT_EQ(tiles[1].joinsIssued, 1u) << "tile 1 waits for tile 0's writes before its piece of the fill";
  for (int round = 0; round < 3; ++round) {
    tiles[0].finishWork();
    tiles[1].finishWork();
  }
  EXPECT_TRUE(queue->completed());
  EXPECT_EQ(words[0], 1u);
  EXPECT_EQ(words[1], 1u);
  EXPECT_EQ(destination, std::vector<uint8_t>(destination.size(), pattern));
}

TEST_F(CompositeOverAsynchronousTiles, TheHostWaitsForTilesWhoseQueuesCannotJoin) {
  tiles[0].queueJoins = tiles[1].queueJoins = false;
  std::vector<uint8_t> source(2 * kGranule, 5), destination(2 * kGranule, 0);
  queue->copy(destination.data(), source.data(), source.size());
  uint32_t word = 0;
  std::atomic<bool> stop{false};
  std::thread tileOne = runTileOneUntil(stop);
  EXPECT_TRUE(queue->writeValue(&word, 7));
  // Tile 1's half was done before the write was issued; tile 0 writes after its own half.
  EXPECT_TRUE(tiles[1].pending.empty());
  stop.store(true);
  tileOne.join();
  EXPECT_TRUE(std::equal(destination.begin() + kGranule, destination.end(), source.begin() + kGranule));
  EXPECT_EQ(word, 0u);
  tiles[0].finishWork();
  EXPECT_EQ(word, 7u);
  EXPECT_EQ(destination, source);
}

TEST_F(CompositeOverAsynchronousTiles, AMarkIsPassedWhenTheLastTilePassedIt) {
  tiles[1].deviceClock = 5000;  // tile 1 reaches the mark later
  const uint32_t mark = queue->markTime();
  ASSERT_NE(mark, BackendQueue::kNoMark);
  tiles[0].finishWork();
  EXPECT_FALSE(queue->markReached(mark)) << "tile 1 has not passed it yet";
  tiles[1].finishWork();
  EXPECT_TRUE(queue->markReached(mark));
  EXPECT_TRUE(queue->completed());
  EXPECT_EQ(queue->timeOfMark(mark), 6000u);
  queue->forgetMarks();
  EXPECT_TRUE(tiles[0].markTimes.empty());
  EXPECT_TRUE(tiles[1].markTimes.empty());
}

// Asynchronous tiles time each mark on their devices: the event keeps each tile's interval, and its
// own spans the earliest start to the latest end.
TEST_F(CompositeOverAsynchronousTiles, AnEventKeepsEachTilesDeviceTimesAndSpansThem) {
  tiles[1].deviceClock = 5000;  // tile 1 starts and ends later
  CommandExecutor executor(*root);
  EventStorage storage, spanStorage;
  TileTimestamps tileStorage;
  Event timed(&storage, false, DeviceType::Gpu, &tileStorage), span(&spanStorage);
  std::vector<uint8_t> source(2 * kGranule, 5), destination(2 * kGranule, 0);
  CommandStream stream;
  stream.appendMarkEventStart(&timed);
  stream.appendMarkEventStart(&span);
  stream.appendCopy({destination.data(), source.data(), source.size()});
  stream.appendSignalEvent(&timed);
  stream.appendSignalEvent(&span);
  executor.execute(stream.bytes());
  tiles[0].finishWork();
  tiles[1].finishWork();
  EXPECT_TRUE(executor.retire(false));
  ASSERT_TRUE(timed.isSignaled());
  // Each tile's clock ticks 1000 per mark: the two starts, then the two ends.
  EXPECT_EQ(tileIntervals(timed), (std::vector<Interval>{{1000, 3000}, {6000, 8000}}));
  EXPECT_EQ(timed.timestamps().globalStart, 1000u) << "the earliest start";
  EXPECT_EQ(timed.timestamps().globalEnd, 8000u) << "the latest end";
  EXPECT_EQ(timed.timestamps().contextEnd, 8000u);
  // An event that keeps no tile's timestamps still spans them.
  EXPECT_TRUE(span.tileTimestamps().empty());
  EXPECT_EQ(span.timestamps().globalStart, 2000u);
  EXPECT_EQ(span.timestamps().globalEnd, 9000u);
}

TEST_F(CompositeOverAsynchronousTiles, ReportsAFailureOfAnyTileOnce) {
  tiles[1].failure = kStatusOutOfResources;
  EXPECT_EQ(queue->takeFailure(), kStatusOutOfResources);
  EXPECT_EQ(queue->takeFailure(), 0);
}

// Four asynchronous tiles: a command on all of them after work on all of them.
class CompositeOverFourAsynchronousTiles : public ::testing::Test {
 protected:
  CompositeOverFourAsynchronousTiles() {
    root = createCompositeBackend({&tiles[0], &tiles[1], &tiles[2], &tiles[3]});
    queue = root->createQueue();
  }
  void finishEveryTilesWork() {
    for (int round = 0; round < 4; ++round)
      for (auto& tile : tiles) tile.finishWork();
  }

  testing::FakeAsynchronousBackend tiles[4];
  std::unique_ptr<Backend> root;
  std::unique_ptr<BackendQueue> queue;
};

// Tile 0 joins the three others, then each other tile joins tile 0 alone, which is after them all.
TEST_F(CompositeOverFourAsynchronousTiles, JoinsAllTilesThroughTileZero) {
  std::vector<uint8_t> first(4 * kGranule, 1), second(4 * kGranule, 2), destination(4 * kGranule, 0);
  queue->copy(destination.data(), first.data(), first.size());
  for (auto& tile : tiles) EXPECT_EQ(tile.copiesIssued, 1u);
  queue->copy(destination.data(), second.data(), second.size());
  EXPECT_EQ(tiles[0].joinsIssued, 3u);
  for (int tile = 1; tile < 4; ++tile) EXPECT_EQ(tiles[tile].joinsIssued, 1u) << tile;
  // Tile 3 may not copy its second piece before tile 0 ran past its joins, which need every
  // tile's first piece.
  tiles[3].finishWork();
  tiles[3].finishWork();
  EXPECT_EQ(tiles[3].copiesIssued, 2u);
  EXPECT_EQ(destination[3 * kGranule], 1) << "tile 3's second piece waits for tile 0";
  finishEveryTilesWork();
  EXPECT_TRUE(queue->completed());
  EXPECT_EQ(destination, second);
}

// A tile whose queue is idle finished everything it issued: no join with it.
TEST_F(CompositeOverFourAsynchronousTiles, JoinsNoTileWhoseQueueIsIdle) {
  std::vector<uint8_t> first(4 * kGranule, 1), second(4 * kGranule, 2), destination(4 * kGranule, 0);
  queue->copy(destination.data(), first.data(), first.size());
  tiles[1].finishWork();
  tiles[2].finishWork();
  queue->copy(destination.data(), second.data(), second.size());
  EXPECT_EQ(tiles[0].joinsIssued, 1u) << "only tile 3's piece was still pending";
  for (int tile = 1; tile < 4; ++tile) EXPECT_EQ(tiles[tile].joinsIssued, 1u) << "each follows tile 0, still busy: " << tile;
  finishEveryTilesWork();
  queue->copy(destination.data(), first.data(), first.size());
  size_t joins = 0;
  for (auto& tile : tiles) joins += tile.joinsIssued;
  EXPECT_EQ(joins, 4u) << "every tile was idle: no join";
  finishEveryTilesWork();
  EXPECT_EQ(destination, first);
}

// While the root's work runs, a poll asks the tiles in turn up to the first one still busy; a
// tile that said it completed is not asked again until something is issued to it (each ask is a
// driver call on a GPU).
TEST_F(CompositeOverFourAsynchronousTiles, AsksATileThatCompletedNoMoreUntilItIsIssuedWork) {
  std::vector<uint8_t> source(4 * kGranule, 1), destination(4 * kGranule, 0);
  queue->copy(destination.data(), source.data(), source.size());
  auto queries = [&] {
    std::vector<size_t> counts;
    for (auto& tile : tiles) counts.push_back(std::exchange(tile.completionQueries, 0));
    return counts;
  };
  EXPECT_FALSE(queue->completed());
  EXPECT_EQ(queries(), (std::vector<size_t>{1, 0, 0, 0})) << "tile 0 is busy: no other tile asked";
  for (int tile = 0; tile < 3; ++tile) tiles[tile].finishWork();
  EXPECT_FALSE(queue->completed());
  EXPECT_FALSE(queue->completed());
  EXPECT_EQ(queries(), (std::vector<size_t>{1, 1, 1, 2})) << "the tiles that completed were asked once";
  tiles[3].finishWork();
  EXPECT_TRUE(queue->completed());
  EXPECT_TRUE(queue->completed());
  EXPECT_EQ(queries(), (std::vector<size_t>{0, 0, 0, 1}));
  EXPECT_EQ(destination, source);

  queue->copy(destination.data(), source.data(), source.size());
  EXPECT_EQ(queries(), (std::vector<size_t>{0, 0, 0, 0})) << "idle tiles need neither a join nor an ask";
  EXPECT_FALSE(queue->completed()) << "issued work makes every tile busy again";
  finishEveryTilesWork();
  EXPECT_TRUE(queue->completed());
}

// A time mark is work on every tile's stream: a root whose tiles were idle is busy until each tile
// passed its mark, and only then are the mark's times there to read (on CUDA, asking an event's
// time before the stream reached it fails).
TEST_F(CompositeOverFourAsynchronousTiles, AMarkMakesIdleTilesBusyUntilTheyPassIt) {
  std::vector<uint8_t> source(4 * kGranule, 1), destination(4 * kGranule, 0);
  queue->copy(destination.data(), source.data(), source.size());
  finishEveryTilesWork();
  ASSERT_TRUE(queue->completed());
  const uint32_t mark = queue->markTime();
  EXPECT_FALSE(queue->completed()) << "no tile has passed the mark yet";
  EXPECT_FALSE(queue->markReached(mark));
  finishEveryTilesWork();
  EXPECT_TRUE(queue->completed());
  EXPECT_TRUE(queue->markReached(mark));
  EXPECT_NE(queue->timeOfMark(mark), 0u);
}

// A launch of 64 groups of a kernel with a body per tile, on the fixture's root remade over tiles
// that run parts of launches.
struct SplitLaunchOverFourTiles {
  SplitLaunchOverFourTiles(testing::FakeAsynchronousBackend (&tiles)[4], std::unique_ptr<Backend>& root,
                           std::unique_ptr<BackendQueue>& queue) {
    for (auto& tile : tiles) tile.runsParts = true;
    root = createCompositeBackend({&tiles[0], &tiles[1], &tiles[2], &tiles[3]});
    queue = root->createQueue();
    descriptor.name = "k";
    launch.setRange({1, {64, 1, 1}, {1, 1, 1}, {}, {}, false});
    launch.kernel = &kernel;
    launch.descriptor = &descriptor;
  }
  BackendKernel tileKernels[4];
  // Launches `count` times, each after `pause`, with `finish` (the tiles' work) after each.
  template <typename Finish>
  void launchEach(BackendQueue& queue, size_t count, std::chrono::milliseconds pause, Finish finish) const {
    const uint8_t noArguments[1] = {};
    for (size_t i = 0; i < count; ++i) {
      std::this_thread::sleep_for(pause);
      queue.launch(launch, noArguments);
      finish();
    }
  }

  CompositeKernel kernel{{&tileKernels[0], &tileKernels[1], &tileKernels[2], &tileKernels[3]}, 4};
  compiler::KernelDescriptor descriptor;
  KernelLaunch launch;
};

// Each tile issued `launches` parts, each with the tile's own kernel.
void expectEachTilesParts(const testing::FakeAsynchronousBackend (&tiles)[4], const SplitLaunchOverFourTiles& split,
                          size_t launches) {
  for (size_t tile = 0; tile < 4; ++tile) {
    ASSERT_EQ(tiles[tile].launches.size(), launches) << tile;
    for (const KernelLaunch& part : tiles[tile].launches) EXPECT_EQ(part.kernel, &split.tileKernels[tile]);
  }
}

// The GPUs of a root issue their parts of a split launch together: the tiles after the first from
// threads of their own while those are awake, else from the root's thread. Each part is issued
// once, with its tile's kernel, either way.
TEST_F(CompositeOverFourAsynchronousTiles, IssuesEachPartOnceFromTheTilesOwnThreadsWhileTheyAreAwake) {
  SplitLaunchOverFourTiles split(tiles, root, queue);
  constexpr size_t kLaunches = 200;
  split.launchEach(*queue, kLaunches, std::chrono::milliseconds(0), [&] { finishEveryTilesWork(); });
  expectEachTilesParts(tiles, split, kLaunches);
  if (HasFatalFailure()) return;
  for (size_t tile = 0; tile < 4; ++tile) {
    for (const KernelLaunch& part : tiles[tile].launches) EXPECT_EQ(part.groupsToRun(), 16u);
    const auto& threads = tiles[tile].launchThreads;
    const size_t fromRootsThread = std::count(threads.begin(), threads.end(), std::this_thread::get_id());
    if (tile == 0)
      EXPECT_EQ(fromRootsThread, kLaunches) << "tile 0's part comes from the root's thread";
    else
      EXPECT_LT(fromRootsThread, kLaunches) << "tile " << tile << "'s thread issued none of its parts";
  }
}

// Issuers that went to sleep between launches (an application that launches now and then): each
// part is still issued once, by the root's thread or by an issuer it woke.
TEST_F(CompositeOverFourAsynchronousTiles, IssuesEachPartOnceWhenTheIssuersSleptBetweenLaunches) {
  SplitLaunchOverFourTiles split(tiles, root, queue);
  constexpr size_t kLaunches = 5;
  // Pauses past an issuer's 1 ms of spinning.
  split.launchEach(*queue, kLaunches, std::chrono::milliseconds(3), [&] { finishEveryTilesWork(); });
  expectEachTilesParts(tiles, split, kLaunches);
}

// CPU tiles sharing one pool, running a kernel written by hand in the CPU's work-group ABI that
// records what each group sees.
struct GroupRecord {
  uint32_t groupId[3];
  uint32_t numGroups[3];
  uint64_t globalOffset[3];
  uint64_t globalSize[3];
  uint32_t localSize[3];
  std::atomic<uint32_t> runs;
};

struct RecordArguments {
  GroupRecord* records;
  std::atomic<uint32_t>* counter;
};

void recordGroups(const void* argumentBuffer, const compiler::WorkGroupContext* context) {
  const auto* arguments = static_cast<const RecordArguments*>(argumentBuffer);
  for (uint32_t run = 0; run < context->groupRun; ++run) {
    const uint32_t x = context->groupId[0] + run;
    const uint64_t linear =
        (uint64_t(context->groupId[2]) * context->numGroups[1] + context->groupId[1]) * context->numGroups[0] + x;
    GroupRecord& record = arguments->records[linear];
    record.groupId[0] = x;
    for (int d = 0; d < 3; ++d) {
      if (d > 0) record.groupId[d] = context->groupId[d];
      record.numGroups[d] = context->numGroups[d];
      record.globalOffset[d] = context->globalOffset[d];
      record.globalSize[d] = context->globalSize[d];
      record.localSize[d] = context->localSize[d];
    }
    record.runs.fetch_add(1);
    arguments->counter->fetch_add(context->localSize[0] * context->localSize[1] * context->localSize[2]);
  }
}

class CompositeOverCpuTiles : public ::testing::TestWithParam<unsigned> {
 protected:
  CompositeOverCpuTiles() {
    pool = std::make_shared<backends::cpu::ThreadPool>(4, GetParam());
    std::vector<Backend*> pointers;
    for (unsigned tile = 0; tile < GetParam(); ++tile) {
      tiles.push_back(std::make_unique<backends::cpu::CpuBackend>(backends::cpu::describeHostCpu(), pool, tile));
      pointers.push_back(tiles.back().get());
    }
    root = createCompositeBackend(pointers);
    queue = root->createQueue();
    std::vector<BackendKernel*> sameKernel(GetParam(), &cpuKernel);
    kernel = std::make_unique<CompositeKernel>(sameKernel, tiles[0]->info().computeUnits);
  }

  // Launches recordGroups and checks that every group ran once and saw the unsplit launch.
  void launchAndCheck(uint32_t workDim, std::array<uint32_t, 3> groups, std::array<uint64_t, 3> offset) {
    KernelLaunch launch;
    // A non-uniform last group along x: 3 groups of 4 cover 10 work-items.
    const std::array<uint64_t, 3> globalSize{uint64_t(groups[0]) * 4 - 2, groups[1], groups[2]};
    launch.setRange({workDim, groups, {4, 1, 1}, offset, globalSize, false});
    launch.kernel = kernel.get();
    launch.descriptor = &descriptor;
    launch.argumentSize = sizeof(RecordArguments);  // what a tile that starts its part copies
    const uint64_t count = uint64_t(groups[0]) * groups[1] * groups[2];
    std::vector<GroupRecord> records(count);
    std::atomic<uint32_t> workItems{0};
    const RecordArguments arguments{records.data(), &workItems};
    queue->launch(launch, reinterpret_cast<const uint8_t*>(&arguments));
    EXPECT_EQ(queue->takeFailure(), 0);
    EXPECT_EQ(workItems.load(), globalSize[0] * globalSize[1] * globalSize[2]);
    for (uint64_t linear = 0; linear < count; ++linear) {
      const GroupRecord& record = records[linear];
      ASSERT_EQ(record.runs.load(), 1u) << "group " << linear;
      const uint32_t expectedId[3] = {uint32_t(linear % groups[0]), uint32_t(linear / groups[0] % groups[1]),
                                      uint32_t(linear / (uint64_t(groups[0]) * groups[1]))};
      for (int d = 0; d < 3; ++d) {
        EXPECT_EQ(record.groupId[d], expectedId[d]);
        EXPECT_EQ(record.numGroups[d], groups[d]);
        EXPECT_EQ(record.globalOffset[d], offset[d]);
        EXPECT_EQ(record.globalSize[d], globalSize[d]);
      }
      EXPECT_EQ(record.localSize[0], expectedId[0] == groups[0] - 1 ? 2u : 4u);
    }
  }

  std::shared_ptr<backends::cpu::ThreadPool> pool;
  std::vector<std::unique_ptr<backends::cpu::CpuBackend>> tiles;
  std::unique_ptr<Backend> root;
  std::unique_ptr<BackendQueue> queue;
  backends::cpu::CpuKernel cpuKernel{recordGroups, nullptr};
  std::unique_ptr<CompositeKernel> kernel;
  compiler::KernelDescriptor descriptor;
};

TEST_P(CompositeOverCpuTiles, EveryGroupRunsOnceAndSeesTheUnsplitLaunch) {
  for (uint32_t groups : {1u, 7u, 300u}) {
    SCOPED_TRACE(groups);
    launchAndCheck(1, {groups, 1, 1}, {3, 0, 0});
    launchAndCheck(2, {groups, 5, 1}, {3, 2, 0});
    launchAndCheck(3, {3, 2, groups}, {1, 2, 9});
  }
}

TEST_P(CompositeOverCpuTiles, LoadsEachProgramOnceForTilesThatShareIt) {
  EXPECT_TRUE(tiles[0]->runsProgramsOf(*tiles[GetParam() - 1]));
  EXPECT_FALSE(root->runsProgramsOf(*tiles[0]));
}

INSTANTIATE_TEST_SUITE_P(Tiles, CompositeOverCpuTiles, ::testing::Values(2u, 3u));

}  // namespace
}  // namespace loom::core
