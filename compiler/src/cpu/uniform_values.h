#pragma once
// Which values of a work-group function's body are the same for every work-item of the group.
#include "llvm/ADT/DenseSet.h"
#include "llvm/IR/Function.h"

namespace loom::compiler::cpu {

// Instructions of `function` (work-item queries not lowered yet) whose value, wherever it is
// used, is the same for all work-items of a group: computed only from kernel arguments,
// constants and uniform work-item queries, under control flow that does not diverge. `entry`
// (the per-group set-up) is uniform by construction.
llvm::DenseSet<const llvm::Instruction*> uniformValues(llvm::Function& function, const llvm::BasicBlock& entry);

}  // namespace loom::compiler::cpu
