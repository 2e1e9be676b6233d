#include "loom/core/composite_backend.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <optional>
#include <set>

#include "loom/core/colored_allocations.h"
#include "loom/core/colored_memory_ipc.h"
#include "loom/core/composite_kernel.h"
#include "loom/core/composite_queue.h"
#include "loom/core/debug_keys.h"
#include "loom/core/descriptor_channel.h"
#include "loom/core/log.h"

namespace loom::core {

namespace {

// A program of the root: loaded once where every tile runs the programs of tile 0 (so that its
// global variables are one for all tiles), else once per tile.
class CompositeProgram final : public BackendProgram {
 public:
  // `kernelsSplit`: the tiles share the program's global variables, or it has none.
  CompositeProgram(std::vector<std::unique_ptr<BackendProgram>> programs, size_t tiles, uint32_t tileZeroComputeUnits,
                   bool kernelsSplit)
      : programs_(std::move(programs)), tiles_(tiles), tileZeroComputeUnits_(tileZeroComputeUnits), kernelsSplit_(kernelsSplit) {}

  BackendKernel* kernel(const std::string& name, std::string& log) override {
    std::lock_guard lock(mutex_);
    if (auto found = kernels_.find(name); found != kernels_.end()) return found->second.get();
    std::vector<BackendKernel*> tileKernels;
    for (size_t tile = 0; tile < tiles_; ++tile) {
      BackendKernel* kernel = programOf(tile).kernel(name, log);
      if (!kernel) return nullptr;
      tileKernels.push_back(kernel);
    }
    auto& slot = kernels_[name];
    slot = std::make_unique<CompositeKernel>(std::move(tileKernels), tileZeroComputeUnits_, kernelsSplit_);
    return slot.get();
  }
  void* globalVariable(const std::string& name) override { return programs_[0]->globalVariable(name); }
  void* function(const std::string& name) override { return programs_[0]->function(name); }
  bool link(const std::vector<BackendProgram*>& others, std::string& log) override {
    for (size_t index = 0; index < programs_.size(); ++index) {
      std::vector<BackendProgram*> tileOthers;
      for (BackendProgram* other : others) tileOthers.push_back(static_cast<CompositeProgram*>(other)->programs_[index].get());
      if (!programs_[index]->link(tileOthers, log)) return false;
    }
    return true;
  }

 private:
  BackendProgram& programOf(size_t tile) { return *programs_[programs_.size() == 1 ? 0 : tile]; }

  std::vector<std::unique_ptr<BackendProgram>> programs_;
  size_t tiles_;
  uint32_t tileZeroComputeUnits_;
  bool kernelsSplit_;
  std::mutex mutex_;
  std::map<std::string, std::unique_ptr<CompositeKernel>> kernels_;
};

// What the root reports: tile 0's description with the tiles' compute and memory summed.
DeviceInfo sumOfTiles(const std::vector<Backend*>& tiles) {
  DeviceInfo info = tiles[0]->info();
  info.uuid[15] = 0;  // tiles differ from their root in this byte (tile number + 1 on the CPU)
  info.computeUnits = 0;
  info.numSlices = 0;
  info.globalMemorySize = 0;
  info.maxAllocationSize = 0;
  for (Backend* tile : tiles) {
    const DeviceInfo& tileInfo = tile->info();
    info.computeUnits += tileInfo.computeUnits;
    info.numSlices += tileInfo.numSlices;
    info.globalMemorySize += tileInfo.globalMemorySize;
    info.maxAllocationSize += tileInfo.maxAllocationSize;
    info.maxCacheReservationSize = std::min(info.maxCacheReservationSize, tileInfo.maxCacheReservationSize);
  }
  info.maxAllocationSize = std::min(info.maxAllocationSize, info.globalMemorySize);
  return info;
}

class CompositeBackend final : public Backend {
 public:
  explicit CompositeBackend(std::vector<Backend*> tiles)
      : tiles_(std::move(tiles)),
        info_(sumOfTiles(tiles_)),
        splitting_(chooseSplitting()),
        coloring_(MemoryColoring::fromDebugKeys(static_cast<unsigned>(tiles_.size()), largestPhysicalGranularity(tiles_))) {}

  const DeviceInfo& info() const override { return info_; }
  compiler::Target compilerTarget() const override { return tiles_[0]->compilerTarget(); }
  std::unique_ptr<BackendProgram> loadProgram(std::shared_ptr<const compiler::CompiledProgram> program, std::string& log) override {
    const bool shared = std::all_of(tiles_.begin(), tiles_.end(), [&](Backend* tile) { return tile->runsProgramsOf(*tiles_[0]); });
    std::vector<std::unique_ptr<BackendProgram>> programs;
    for (size_t tile = 0; tile < (shared ? 1 : tiles_.size()); ++tile) {
      auto loaded = tiles_[tile]->loadProgram(program, log);
      if (!loaded) return nullptr;
      programs.push_back(std::move(loaded));
    }
    const bool kernelsSplit = shared || program->info.globalVariableTotalSize == 0;
    if (!kernelsSplit)
      debugMessage("implicit scaling: a program with global variables on %s runs its kernels on tile 0, where the host sees them",
                   info_.name.c_str());
    return std::make_unique<CompositeProgram>(std::move(programs), tiles_.size(), tiles_[0]->info().computeUnits, kernelsSplit);
  }
  bool runsProgramsOf(const Backend& other) const override { return false; }
  bool runsLaunchParts() const override { return false; }  // its parts would need splitting again
  std::unique_ptr<BackendQueue> createQueue() override {
    std::vector<std::unique_ptr<BackendQueue>> queues;
    for (Backend* tile : tiles_) queues.push_back(tile->createQueue());
    Backend* clock = tiles_[0];  // the root's timestamps are tile 0's (timestamp())
    return std::make_unique<CompositeQueue>(std::move(queues), splitting_, [clock] { return clock->timestamp(); });
  }
  void copy(void* destination, const void* source, size_t size) override { tiles_[0]->copy(destination, source, size); }
  void fill(void* destination, const void* pattern, size_t patternSize, size_t size) override {
    tiles_[0]->fill(destination, pattern, patternSize, size);
  }
  uint64_t timestamp() const override { return tiles_[0]->timestamp(); }

  // Device memory is colored across the tiles (memory_coloring.h) while implicit scaling is on;
  // the rest of memory, and the address space, are tile 0's, which every tile reaches.
  void* allocateMemory(MemoryType type, size_t size) override {
    if (type != MemoryType::Device || !splitting_.copiesAndFills) return tiles_[0]->allocateMemory(type, size);
    std::vector<MemoryChunk> chunks = coloring_.chunks(size);
    if (chunks.size() > 1) {
      if (void* colored = tiles_[0]->allocateColoredMemory(tiles_, chunks, size)) {
        std::lock_guard lock(mutex_);
        coloredByTiles_.insert(colored);
        record(colored, size, std::move(chunks));
        return colored;
      }
    }
    void* whole = tiles_[0]->allocateMemory(type, size);
    if (!whole) return nullptr;
    if (chunks.size() > 1)
      debugMessage("%s: %zu bytes of device memory on tile 0 alone: the tiles cannot make colored memory", info_.name.c_str(), size);
    record(whole, size, {{0, size, 0}});
    return whole;
  }
  bool providesHostMemory() const override { return tiles_[0]->providesHostMemory(); }
  void releaseMemory(void* address, MemoryType type) override {
    withdrawOffer(address);  // before the memory goes: no other process may fetch it any more
    ColoredAllocations::instance().remove(address);
    bool colored = false;
    {
      std::lock_guard lock(mutex_);
      colored = coloredByTiles_.erase(address) != 0;
    }
    if (colored)
      tiles_[0]->releaseColoredMemory(address);
    else
      tiles_[0]->releaseMemory(address, type);
  }
  size_t physicalGranularity() const override { return largestPhysicalGranularity(tiles_); }
  // Core's host memory as a device allocation (the CPU's tiles): colored, each chunk placed on its
  // tile's memory where the tile has memory of its own.
  void adoptHostMemory(void* address, size_t size) override {
    if (!splitting_.copiesAndFills) return;
    std::vector<MemoryChunk> chunks = coloring_.chunks(size);
    for (const MemoryChunk& chunk : chunks) tiles_[chunk.tile]->placeHostMemory(static_cast<char*>(address) + chunk.offset, chunk.size);
    record(address, size, std::move(chunks));
  }
  // A backend's registration serves every device of the driver (backend.h), so tile 0's serves
  // every tile; a second registration of the same memory would fail (CUDA: already registered).
  bool registerHostMemory(void* address, size_t size) override { return tiles_[0]->registerHostMemory(address, size); }
  void unregisterHostMemory(void* address) override { tiles_[0]->unregisterHostMemory(address); }
  // Colored memory's chunks travel over the descriptor channel (colored_memory_ipc.h), served
  // until the memory is freed; the rest of memory is tile 0's.
  bool exportMemory(void* address, MemoryType type, DriverIpcHandle& handle) override {
    if (!isColoredByTiles(address)) return tiles_[0]->exportMemory(address, type, handle);
    std::lock_guard lock(mutex_);
    if (auto offered = offers_.find(address); offered != offers_.end()) {
      handle = offered->second.second;
      return true;
    }
    const std::optional<uint32_t> offer = offerColoredMemory(*tiles_[0], address, handle);
    if (!offer) return false;
    offers_.emplace(address, std::make_pair(*offer, handle));
    return true;
  }
  void* importMemory(const DriverIpcHandle& handle) override {
    if (handle.form != DriverIpcHandle::Form::ColoredChunks) return tiles_[0]->importMemory(handle);
    std::optional<OpenedColoredMemory> opened = openColoredMemory(*tiles_[0], tiles_, handle);
    if (!opened) return nullptr;
    {
      std::lock_guard lock(mutex_);
      coloredByTiles_.insert(opened->address);
    }
    record(opened->address, opened->size, std::move(opened->chunks));
    return opened->address;
  }
  void closeImportedMemory(void* address) override {
    bool colored = false;
    {
      std::lock_guard lock(mutex_);
      colored = coloredByTiles_.erase(address) != 0;
    }
    if (!colored) return tiles_[0]->closeImportedMemory(address);
    ColoredAllocations::instance().remove(address);
    tiles_[0]->releaseColoredMemory(address);
  }
  AddressSpace* addressSpace() override { return tiles_[0]->addressSpace(); }
  std::unique_ptr<PhysicalMemory> createPhysicalMemory(size_t size) override { return tiles_[0]->createPhysicalMemory(size); }
  PeerAccess peerAccess(const Backend& peer) const override { return tiles_[0]->peerAccess(peer); }
  std::unique_ptr<Telemetry> createTelemetry() override { return tiles_[0]->createTelemetry(); }
  // Each tile has its own last-level cache: the reservation and the advice go to every one.
  // All tiles or none: when one refuses, those before it go back to the reservation they had.
  bool reserveCache(size_t bytes, std::string& why) override {
    for (size_t refused = 0; refused < tiles_.size(); ++refused) {
      if (tiles_[refused]->reserveCache(bytes, why)) continue;
      std::string restoring;
      for (size_t tile = 0; tile < refused; ++tile) tiles_[tile]->reserveCache(reservedCache_, restoring);
      return false;
    }
    reservedCache_ = bytes;
    return true;
  }
  bool adviseCache(const void* address, size_t size, bool reserved, std::string& why) override {
    return std::all_of(tiles_.begin(), tiles_.end(), [&](Backend* tile) { return tile->adviseCache(address, size, reserved, why); });
  }

 private:
  CompositeQueue::Splitting chooseSplitting() const {
    if (!debugKeys().EnableImplicitScaling) {
      debugMessage("implicit scaling is off (EnableImplicitScaling=0): the root device %s runs on tile 0", info_.name.c_str());
      return {false, false};
    }
    const bool tilesRunParts = std::all_of(tiles_.begin(), tiles_.end(), [](Backend* tile) { return tile->runsLaunchParts(); });
    if (!tilesRunParts)
      debugMessage("the tiles of %s cannot run parts of a launch: its launches run on tile 0, its copies and fills split", info_.name.c_str());
    return {tilesRunParts, true};
  }

  static size_t largestPhysicalGranularity(const std::vector<Backend*>& tiles) {
    size_t largest = 0;
    for (Backend* tile : tiles) largest = std::max(largest, tile->physicalGranularity());
    return largest;
  }
  void record(void* address, size_t size, std::vector<MemoryChunk> chunks) const {
    ColoredAllocations::instance().add(address, size, static_cast<unsigned>(tiles_.size()), std::move(chunks));
  }
  void withdrawOffer(void* address) {
    std::optional<uint32_t> offer;
    {
      std::lock_guard lock(mutex_);
      auto found = offers_.find(address);
      if (found == offers_.end()) return;
      offer = found->second.first;
      offers_.erase(found);
    }
    DescriptorChannel::instance().withdraw(*offer);
  }
  bool isColoredByTiles(void* address) {
    std::lock_guard lock(mutex_);
    return coloredByTiles_.count(address) != 0;
  }

  std::vector<Backend*> tiles_;
  size_t reservedCache_ = 0;  // what every tile has reserved
  DeviceInfo info_;
  CompositeQueue::Splitting splitting_;
  MemoryColoring coloring_;
  std::mutex mutex_;
  std::set<void*> coloredByTiles_;  // memory of allocateColoredMemory, which releaseColoredMemory frees
  // Colored memory shared with other processes: its offer and the handle that names it.
  std::map<void*, std::pair<uint32_t, DriverIpcHandle>> offers_;
};

}  // namespace

std::unique_ptr<Backend> createCompositeBackend(std::vector<Backend*> tiles) {
  if (tiles.empty()) return nullptr;
  return std::make_unique<CompositeBackend>(std::move(tiles));
}

}  // namespace loom::core
