#pragma once
// The two shapes a work-group function takes around the inlined kernel body [body ... tail]:
// a loop nest over local ids (no barriers), or a sequence of barrier regions, each such a loop
// nest.
#include <cstdint>
#include <vector>

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"

namespace loom::compiler::cpu {

// The current work-item's local id (i32 values usable anywhere in the body).
struct LocalIds {
  llvm::Value* x = nullptr;
  llvm::Value* y = nullptr;
  llvm::Value* z = nullptr;
};

// The part of a work-group function both shapes need: its blocks and the context argument.
struct WorkGroupBody {
  llvm::Function* function;
  llvm::BasicBlock* entry;  // per-group set-up; ends with a branch to `body`
  llvm::BasicBlock* body;   // first block of the inlined kernel
  llvm::BasicBlock* tail;   // where the kernel's returns arrive; holds only `ret void`
  llvm::Value* context;
};

// One loop over a local id: header: i = phi [0, preheader], [i+1, latch]; latch: i+1 < bound ?
// header : exit. The caller fills the header and branches from it, and to the latch.
struct WorkItemLoop {
  llvm::BasicBlock* header;
  llvm::BasicBlock* latch;
  llvm::PHINode* index;
};
WorkItemLoop makeWorkItemLoop(llvm::Function* function, llvm::BasicBlock* preheader, llvm::Value* bound, llvm::BasicBlock* exit,
                              const char* name);

// x innermost, so consecutive work-items are consecutive iterations for the vectorizer. With
// `acrossGroupRun`, the x loop runs over all context->groupRun groups of the call, as if they were
// one group as wide as all of them: for kernels that never tell those groups apart (the local id
// x counts on from group to group).
LocalIds buildWorkItemLoops(const WorkGroupBody& wg, bool acrossGroupRun);

// Runs the whole function (after its entry block) once for each of context->groupRun groups;
// returns that loop's index, the group's place in the run (i32).
llvm::Value* addGroupRunLoop(const WorkGroupBody& wg);

// The innermost loop over work-items of a barrier region: its blocks, latch included.
struct RegionLoop {
  llvm::BasicBlock* latch;
  std::vector<llvm::BasicBlock*> blocks;
};

struct BarrierRegions {
  uint32_t frameSize = 0;                            // bytes per work-item at context->barrierFrame
  llvm::DenseMap<llvm::BasicBlock*, LocalIds> ids;   // the local ids in each block of the regions
  std::vector<RegionLoop> loops;
};

// Every barrier ends a region; all work-items run a region, in a loop nest over local ids,
// before any runs the next. Values live across a barrier, and all private variables, move to
// the frames: one array per variable indexed by the linear local id (element 0 only for a
// uniform value), so that the region loops can be vectorized.
BarrierRegions buildBarrierRegions(const WorkGroupBody& wg);

}  // namespace loom::compiler::cpu
