#pragma once
// Names of the work-item functions and barriers that the CPU target lowers itself rather than
// taking from the builtin library.
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Module.h"

namespace loom::compiler::cpu {

enum class WorkItemQuery {
  None,
  GlobalId,
  LocalId,
  GroupId,
  LocalSize,
  EnqueuedLocalSize,
  GlobalSize,
  NumGroups,
  GlobalOffset,
  WorkDim,
  GlobalLinearId,
  LocalLinearId,
};

WorkItemQuery workItemQuery(llvm::StringRef functionName);
bool isBarrier(llvm::StringRef functionName);

// Functions that call work-item functions or barriers, directly or through other functions:
// they only make sense inlined into a kernel, so they are never exported.
llvm::DenseSet<const llvm::Function*> functionsUsingWorkItemState(const llvm::Module& module);

}  // namespace loom::compiler::cpu
