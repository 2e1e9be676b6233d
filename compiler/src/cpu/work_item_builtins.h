#pragma once
// Names of the work-item functions and barriers that the CPU target lowers itself rather than
// taking from the builtin library.
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Instructions.h"
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
  // Sub-groups: one work-item each on the CPU, warps on NVPTX.
  SubGroupSize,
  MaxSubGroupSize,
  NumSubGroups,
  EnqueuedNumSubGroups,
  SubGroupId,
  SubGroupLocalId,
};

// What the builtin library's sub-group functions are made of, besides the queries: the target
// lowers these (compiler/builtins/sub_groups.cl). Shuffle and Ballot act among the members their
// last operand names (bits by sub-group local id); Active is the set of work-items calling together.
enum class SubGroupOperation { None, Shuffle, Ballot, Active, Barrier };

WorkItemQuery workItemQuery(llvm::StringRef functionName);
bool isBarrier(llvm::StringRef functionName);
SubGroupOperation subGroupOperation(llvm::StringRef functionName);
// Whether a sub_group_barrier call orders memory beyond the work-group (memory_scope_device or
// wider, or a scope known only at run time); narrower scopes need no fence on the CPU, whose
// work-items of a group run on one thread.
bool fencesBeyondGroup(const llvm::CallInst& subGroupBarrier);

// Builtins of the library that wait for the whole group: work-group collectives, async copies.
bool isGroupFunction(llvm::StringRef functionName);

// Functions that call work-item functions, barriers, sub-group or group functions, directly or through others:
// they only make sense inlined into a kernel, so they are never exported.
llvm::DenseSet<const llvm::Function*> functionsUsingWorkItemState(const llvm::Module& module);

}  // namespace loom::compiler::cpu
