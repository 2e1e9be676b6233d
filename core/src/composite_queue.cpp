#include "loom/core/composite_queue.h"

#include <algorithm>
#include <string>

#include "loom/core/composite_kernel.h"
#include "loom/core/debug_keys.h"
#include "loom/core/launch_split.h"
#include "loom/core/log.h"

namespace loom::core {

namespace {
const char* kernelName(const KernelLaunch& launch) {
  return launch.descriptor ? launch.descriptor->name.c_str() : "?";
}

// "tile 0: 4, tile 1: 3" (groups along the split dimension).
std::string describeParts(const std::vector<KernelLaunch>& parts, int dimension) {
  std::string text;
  for (size_t tile = 0; tile < parts.size(); ++tile) {
    if (!text.empty()) text += ", ";
    text += "tile " + std::to_string(tile) + ": " + std::to_string(parts[tile].groupsToRun(dimension));
  }
  return text;
}
}  // namespace

CompositeQueue::CompositeQueue(std::vector<std::unique_ptr<BackendQueue>> tiles, Splitting splitting,
                               std::function<uint64_t()> clock)
    : tiles_(std::move(tiles)),
      asynchronous_(tiles_[0]->asynchronous()),
      splitting_{splitting.launches && tiles_.size() > 1, splitting.copiesAndFills && tiles_.size() > 1},
      coloring_(MemoryColoring::fromDebugKeys(static_cast<unsigned>(tiles_.size()))),
      unordered_(tiles_.size(), std::vector<bool>(tiles_.size(), false)),
      idle_(tiles_.size(), true),
      clock_(std::move(clock)),
      returnedAt_(tiles_.size(), 0),
      ranSinceMark_(tiles_.size(), false) {
  const int64_t minimum = debugKeys().ImplicitScalingMinGroups;
  minimumGroupsToSplit_ = minimum > 0 ? uint64_t(minimum) : tiles_.size();
  // Synchronous tiles start their parts themselves (BackendQueue::startLaunch).
  if (asynchronous_ && splitting_.launches && debugKeys().ImplicitScalingIssuers)
    for (size_t tile = 1; tile < tiles_.size(); ++tile) issuers_.push_back(std::make_unique<TileIssuer>(*tiles_[tile]));
}

bool CompositeQueue::splits(const KernelLaunch& launch) const {
  if (!splitting_.launches) return false;
  if (!static_cast<const CompositeKernel*>(launch.kernel)->splits()) {
    debugMessage("implicit scaling: kernel %s runs on tile 0, with its program's global variables", kernelName(launch));
    return false;
  }
  if (launch.cooperative) {
    debugMessage("implicit scaling: cooperative kernel %s runs on tile 0, all of its groups together", kernelName(launch));
    return false;
  }
  if (launch.groupsToRun() < minimumGroupsToSplit_) {
    debugMessage("implicit scaling: kernel %s of %llu groups runs on tile 0 (ImplicitScalingMinGroups %llu)", kernelName(launch),
                 (unsigned long long)launch.groupsToRun(), (unsigned long long)minimumGroupsToSplit_);
    return false;
  }
  return true;
}

void CompositeQueue::launch(const KernelLaunch& launch, const uint8_t* arguments) {
  if (!splits(launch)) return runOnTile(0, launch, arguments);
  runSplit(launch, arguments);
}

void CompositeQueue::runOnTile(size_t tile, const KernelLaunch& launch, const uint8_t* arguments) {
  KernelLaunch onTile = launch;
  onTile.kernel = static_cast<const CompositeKernel*>(launch.kernel)->onTile(tile);
  joinBefore(tile);
  tiles_[tile]->launch(onTile, arguments);
  issued(tile);
}

void CompositeQueue::runSplit(const KernelLaunch& launch, const uint8_t* arguments) {
  const uint32_t groups[3] = {launch.groupsToRun(0), launch.groupsToRun(1), launch.groupsToRun(2)};
  const int dimension = splitDimension(groups, static_cast<unsigned>(tiles_.size()));
  std::vector<KernelLaunch> parts = splitLaunch(launch, dimension, static_cast<unsigned>(tiles_.size()));
  if (debugKeys().PrintDebugMessages)  // the description takes allocations every launch would pay for
    debugMessage("implicit scaling: kernel %s (%u x %u x %u groups) split along %c: %s", kernelName(launch), groups[0], groups[1],
                 groups[2], "xyz"[dimension], describeParts(parts, dimension).c_str());
  const auto* kernel = static_cast<const CompositeKernel*>(launch.kernel);
  for (size_t tile = 0; tile < parts.size(); ++tile) parts[tile].kernel = kernel->onTile(tile);
  joinBefore(kAllTiles);
  runPartsTogether(parts, arguments);
}

void CompositeQueue::runPartsTogether(const std::vector<KernelLaunch>& parts, const uint8_t* arguments) {
  std::vector<size_t> started;
  for (size_t tile = 1; tile < parts.size(); ++tile) {
    if (parts[tile].groupsToRun() == 0) continue;
    if (startPart(tile, parts[tile], arguments)) {
      started.push_back(tile);
      continue;
    }
    tiles_[tile]->launch(parts[tile], arguments);
    issued(tile);
  }
  if (parts[0].groupsToRun() != 0) {
    tiles_[0]->launch(parts[0], arguments);
    issued(0);
  }
  for (size_t tile : started) {
    finishPart(tile);
    issued(tile);
  }
  for (auto& issuer : issuers_) issuer->wake();
}

bool CompositeQueue::startPart(size_t tile, const KernelLaunch& part, const uint8_t* arguments) {
  if (!issuers_.empty()) return issuers_[tile - 1]->start(part, arguments);
  return tiles_[tile]->startLaunch(part, arguments);
}

void CompositeQueue::finishPart(size_t tile) {
  if (!issuers_.empty()) return issuers_[tile - 1]->finish();
  tiles_[tile]->finishLaunches();
}

void CompositeQueue::copy(void* destination, const void* source, size_t size) {
  const std::vector<MemoryColoring::Piece> pieces = coloring_.pieces(reinterpret_cast<uintptr_t>(destination), size);
  if (!splitting_.copiesAndFills || pieces.size() == 1) {
    joinBefore(0);
    tiles_[0]->copy(destination, source, size);
    return issued(0);
  }
  debugMessage("implicit scaling: copy of %zu bytes split in %zu pieces among %zu tiles", size, pieces.size(), tiles_.size());
  joinBefore(kAllTiles);
  for (const MemoryColoring::Piece& piece : pieces) {
    tiles_[piece.tile]->copy(static_cast<char*>(destination) + piece.offset, static_cast<const char*>(source) + piece.offset,
                             piece.size);
    issued(piece.tile);
  }
}

void CompositeQueue::copyRegion(const CopyRegionCommand& copy) {
  joinBefore(0);
  tiles_[0]->copyRegion(copy);
  issued(0);
}

void CompositeQueue::fill(void* destination, const void* pattern, size_t patternSize, size_t size) {
  const std::vector<MemoryColoring::Piece> pieces = coloring_.pieces(reinterpret_cast<uintptr_t>(destination), size);
  if (!splitting_.copiesAndFills || pieces.size() == 1) {
    joinBefore(0);
    tiles_[0]->fill(destination, pattern, patternSize, size);
    return issued(0);
  }
  debugMessage("implicit scaling: fill of %zu bytes split in %zu pieces among %zu tiles", size, pieces.size(), tiles_.size());
  joinBefore(kAllTiles);
  // A piece starting inside a repetition of the pattern fills with the pattern turned to start there.
  std::vector<uint8_t> turned(patternSize);
  const auto* bytes = static_cast<const uint8_t*>(pattern);
  for (const MemoryColoring::Piece& piece : pieces) {
    const size_t phase = piece.offset % patternSize;
    std::rotate_copy(bytes, bytes + phase, bytes + patternSize, turned.begin());
    tiles_[piece.tile]->fill(static_cast<char*>(destination) + piece.offset, turned.data(), patternSize, piece.size);
    issued(piece.tile);
  }
}

void CompositeQueue::joinBefore(size_t tile) {
  if (tile == kAllTiles) {
    // Tile 0 first: the tiles after it then join tile 0 alone, which is after all the others.
    for (size_t each = 0; each < tiles_.size(); ++each) joinBefore(each);
    return;
  }
  for (size_t other = 0; other < tiles_.size(); ++other) {
    if (!unordered_[tile][other]) continue;
    // A tile whose queue is idle has completed all it issued: every tile is after it, at the cost
    // of a query rather than a join the device has to pass.
    if (tileIdle(other)) {
      orderedAfterAll(other);
      continue;
    }
    if (tiles_[tile]->joinAfter(*tiles_[other])) {
      idle_[tile] = false;
      orderedAfter(tile, other);
      continue;
    }
    // Where the queues cannot wait for each other, the host waits: then every tile is after it.
    tiles_[other]->synchronize();
    orderedAfterAll(other);
  }
}

void CompositeQueue::orderedAfter(size_t tile, size_t other) {
  // Joins are transitive: `tile` now also follows whatever `other` was ordered after.
  for (size_t each = 0; each < tiles_.size(); ++each) unordered_[tile][each] = unordered_[tile][each] && unordered_[other][each];
  unordered_[tile][other] = false;
}

void CompositeQueue::orderedAfterAll(size_t other) {
  for (std::vector<bool>& row : unordered_) row[other] = false;
}

bool CompositeQueue::tileIdle(size_t tile) {
  if (!idle_[tile]) idle_[tile] = tiles_[tile]->completed();
  return idle_[tile];
}

void CompositeQueue::issued(size_t tile) {
  idle_[tile] = false;
  if (!asynchronous_) {
    returnedAt_[tile] = clock_();
    ranSinceMark_[tile] = true;
    return;
  }
  for (size_t other = 0; other < tiles_.size(); ++other) unordered_[other][tile] = other != tile;
}

// Polled while the device works: the first tile still busy ends the poll, and the tiles that
// finished are not asked again.
bool CompositeQueue::completed() {
  for (size_t tile = 0; tile < tiles_.size(); ++tile)
    if (!tileIdle(tile)) return false;
  // Every tile idle: each is after all the others' work, with no join (synchronous tiles never
  // need one).
  if (asynchronous_)
    for (std::vector<bool>& row : unordered_) std::fill(row.begin(), row.end(), false);
  return true;
}

void CompositeQueue::synchronize() {
  for (auto& tile : tiles_) tile->synchronize();
  for (std::vector<bool>& row : unordered_) std::fill(row.begin(), row.end(), false);
  std::fill(idle_.begin(), idle_.end(), true);
}

uint32_t CompositeQueue::markTime() {
  if (!asynchronous_) {
    const uint64_t now = clock_();
    std::vector<uint64_t> times(tiles_.size());
    for (size_t tile = 0; tile < tiles_.size(); ++tile) {
      times[tile] = ranSinceMark_[tile] ? returnedAt_[tile] : now;
      ranSinceMark_[tile] = false;
    }
    markTimes_.push_back(std::move(times));
    return static_cast<uint32_t>(markTimes_.size() - 1);
  }
  // A mark is work of each tile's stream: the tile is busy until it passed it. It orders nothing,
  // so no tile needs to join another for it.
  std::vector<uint32_t> tileMarks;
  for (size_t tile = 0; tile < tiles_.size(); ++tile) {
    tileMarks.push_back(tiles_[tile]->markTime());
    idle_[tile] = false;
  }
  if (std::find(tileMarks.begin(), tileMarks.end(), kNoMark) != tileMarks.end()) return kNoMark;
  marks_.push_back(std::move(tileMarks));
  return static_cast<uint32_t>(marks_.size() - 1);
}

uint64_t CompositeQueue::timeOfMarkOnTile(uint32_t mark, uint32_t tile) {
  if (!asynchronous_) return markTimes_[mark][tile];
  return tiles_[tile]->timeOfMark(marks_[mark][tile]);
}

uint64_t CompositeQueue::timeOfMark(uint32_t mark) {
  uint64_t latest = 0;
  for (uint32_t tile = 0; tile < tiles_.size(); ++tile) latest = std::max(latest, timeOfMarkOnTile(mark, tile));
  return latest;
}

bool CompositeQueue::markReached(uint32_t mark) {
  for (size_t tile = 0; tile < tiles_.size(); ++tile)
    if (!tiles_[tile]->markReached(marks_.at(mark)[tile])) return false;
  return true;
}

void CompositeQueue::forgetMarks() {
  for (auto& tile : tiles_) tile->forgetMarks();
  marks_.clear();
  markTimes_.clear();
}

int32_t CompositeQueue::takeFailure() {
  int32_t first = 0;
  for (auto& tile : tiles_)
    if (int32_t failure = tile->takeFailure(); failure != 0 && first == 0) first = failure;
  return first;
}

bool CompositeQueue::waitValue(const uint32_t* address, uint32_t value) {
  if (!tiles_[0]->waitValue(address, value)) return false;
  // Tiles of one root are alike: what tile 0 can, the others can.
  issued(0);
  for (size_t tile = 1; tile < tiles_.size(); ++tile) {
    tiles_[tile]->waitValue(address, value);
    issued(tile);
  }
  return true;
}

bool CompositeQueue::writeValue(uint32_t* address, uint32_t value) {
  // A cross-tile join: the other tiles' work completes before tile 0 stores after its own.
  joinBefore(0);
  if (!tiles_[0]->writeValue(address, value)) return false;
  issued(0);
  return true;
}

}  // namespace loom::core
