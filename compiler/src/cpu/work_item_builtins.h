#pragma once
// Names of the work-item functions and barriers that the CPU target lowers itself rather than
// taking from the builtin library.
#include "llvm/ADT/StringRef.h"

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

}  // namespace loom::compiler::cpu
