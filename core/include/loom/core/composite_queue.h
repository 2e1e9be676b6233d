#pragma once
// The queue of a root device over tiles (implicit scaling): one queue per tile underneath. Each
// launch large enough is split among the tiles (launch_split.h), copies and fills by the owners of
// their bytes (memory_coloring.h); the root's order holds across tiles: a command starts only
// after every tile finished what was issued before it.
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "loom/core/backend.h"
#include "loom/core/futex.h"
#include "loom/core/memory_coloring.h"
#include "loom/core/tile_issuer.h"

namespace loom::core {

class CompositeQueue final : public BackendQueue {
 public:
  // What is split among the tiles; the rest runs on tile 0 (all of it with
  // LOOM_EnableImplicitScaling=0).
  struct Splitting {
    bool launches = true;  // the tiles run parts of a launch (Backend::runsLaunchParts)
    bool copiesAndFills = true;
  };
  // `clock`: the root's timestamp clock (Backend::timestamp), which times synchronous tiles.
  CompositeQueue(std::vector<std::unique_ptr<BackendQueue>> tiles, Splitting splitting,
                 std::function<uint64_t()> clock = monotonicNanoseconds);

  bool asynchronous() const override { return asynchronous_; }
  // Launches receive the CompositeKernel of the root's programs.
  void launch(const KernelLaunch& launch, const uint8_t* arguments) override;
  void copy(void* destination, const void* source, size_t size) override;
  void fill(void* destination, const void* pattern, size_t patternSize, size_t size) override;
  // A whole rectangular copy on tile 0, which reaches all of the root's memory: split into rows
  // (the default), each row would be a command of its own.
  void copyRegion(const CopyRegionCommand& copy) override;
  bool completed() override;
  void synchronize() override;
  // A mark is passed once every tile passed it: its time is the latest of the tiles'. Each tile's
  // is its queue's mark; synchronous tiles, which have none, passed it when they returned from
  // their last command before it (or when it was made, if they ran none since the mark before).
  uint32_t markTime() override;
  uint64_t timeOfMark(uint32_t mark) override;
  void forgetMarks() override;
  bool markReached(uint32_t mark) override;
  uint32_t markTiles() const override { return static_cast<uint32_t>(tiles_.size()); }
  uint64_t timeOfMarkOnTile(uint32_t mark, uint32_t tile) override;
  int32_t takeFailure() override;
  bool waitValue(const uint32_t* address, uint32_t value) override;
  // Stores once every tile's commands before it completed.
  bool writeValue(uint32_t* address, uint32_t value) override;

  // Launches with fewer groups than this run on tile 0 alone (LOOM_ImplicitScalingMinGroups).
  uint64_t minimumGroupsToSplit() const { return minimumGroupsToSplit_; }

 private:
  bool splits(const KernelLaunch& launch) const;
  void runOnTile(size_t tile, const KernelLaunch& launch, const uint8_t* arguments);
  void runSplit(const KernelLaunch& launch, const uint8_t* arguments);
  // Runs every part at once: the tiles after the first start theirs (synchronous tiles by
  // BackendQueue::startLaunch, asynchronous ones through their issuers), the calling thread runs
  // tile 0's, then finishes the others'. A tile that cannot start gets its part from the caller.
  void runPartsTogether(const std::vector<KernelLaunch>& parts, const uint8_t* arguments);
  bool startPart(size_t tile, const KernelLaunch& part, const uint8_t* arguments);
  void finishPart(size_t tile);
  // Before a command on `tile` alone (or, with kAllTiles, on several): the work other tiles still
  // have in flight completes, so that the command sees it: nothing for tiles whose queues are
  // idle; the tile's queue waits for theirs where it can (BackendQueue::joinAfter, a stream wait
  // on a GPU), else the host waits. Joins are transitive, so a join of all tiles takes one join
  // per other tile into tile 0 and one from tile 0 into each other tile.
  static constexpr size_t kAllTiles = SIZE_MAX;
  void joinBefore(size_t tile);
  // After a command on `tile`, once it returned.
  void issued(size_t tile);
  // `tile`'s queue joined `other`'s; every tile's is after what `other` issued so far.
  void orderedAfter(size_t tile, size_t other);
  void orderedAfterAll(size_t other);
  // Whether `tile` has completed all it was issued: asked of its queue (a driver call on a GPU)
  // only until it says so, until something is issued to it again.
  bool tileIdle(size_t tile);

  std::vector<std::unique_ptr<BackendQueue>> tiles_;
  // By tile, from tile 1 (asynchronous tiles; LOOM_ImplicitScalingIssuers).
  std::vector<std::unique_ptr<TileIssuer>> issuers_;
  bool asynchronous_;
  Splitting splitting_;
  uint64_t minimumGroupsToSplit_;
  MemoryColoring coloring_;
  // [tile][other]: `other` issued commands that `tile`'s queue is not ordered after yet.
  std::vector<std::vector<bool>> unordered_;
  std::vector<bool> idle_;  // by tile: its queue said it completed, and nothing was issued to it since
  std::function<uint64_t()> clock_;
  std::vector<std::vector<uint32_t>> marks_;  // by mark: each tile's (asynchronous tiles)
  std::vector<std::vector<uint64_t>> markTimes_;  // by mark: each tile's time (synchronous tiles)
  std::vector<uint64_t> returnedAt_;  // by tile: when its last command returned (synchronous tiles)
  std::vector<bool> ranSinceMark_;    // by tile: it ran a command since the last mark
};

}  // namespace loom::core
