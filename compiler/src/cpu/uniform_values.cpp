#include "uniform_values.h"

#include "llvm/Analysis/DivergenceAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/SyncDependenceAnalysis.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "work_item_builtins.h"

namespace loom::compiler::cpu {

namespace {

bool isUniformQuery(const llvm::Function* callee) {
  switch (workItemQuery(callee->getName())) {
    case WorkItemQuery::None:
    case WorkItemQuery::LocalId:
    case WorkItemQuery::GlobalId:
    case WorkItemQuery::LocalLinearId:
    case WorkItemQuery::GlobalLinearId: return false;
    default: return true;
  }
}

// Where values start to differ between work-items: their ids, and anything read from memory or
// returned by a call, since memory may hold something else for each (private variables do).
bool isSourceOfDivergence(const llvm::Instruction& instruction) {
  if (llvm::isa<llvm::AllocaInst>(instruction) || instruction.mayReadFromMemory()) {
    if (auto* intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction)) return intrinsic->mayReadFromMemory();
    if (auto* call = llvm::dyn_cast<llvm::CallInst>(&instruction))
      return !call->getCalledFunction() || !isUniformQuery(call->getCalledFunction());
    return true;
  }
  if (auto* call = llvm::dyn_cast<llvm::CallInst>(&instruction))
    return !call->getCalledFunction() || (!call->getCalledFunction()->isIntrinsic() && !isUniformQuery(call->getCalledFunction()));
  return false;
}

}  // namespace

llvm::DenseSet<const llvm::Instruction*> uniformValues(llvm::Function& function, const llvm::BasicBlock& entry) {
  llvm::DominatorTree dominators(function);
  llvm::PostDominatorTree postDominators(function);
  llvm::LoopInfo loops(dominators);
  llvm::SyncDependenceAnalysis synchronization(dominators, postDominators, loops);
  llvm::DivergenceAnalysisImpl divergence(function, nullptr, dominators, loops, synchronization, false);
  for (llvm::BasicBlock& block : function)
    for (llvm::Instruction& instruction : block)
      if (&block != &entry && isSourceOfDivergence(instruction)) divergence.markDivergent(instruction);
  divergence.compute();

  llvm::DenseSet<const llvm::Instruction*> uniform;
  for (llvm::BasicBlock& block : function)
    for (llvm::Instruction& instruction : block) {
      if (instruction.getType()->isVoidTy() || divergence.isDivergent(instruction)) continue;
      const bool usedUniformly = llvm::none_of(instruction.uses(), [&](const llvm::Use& use) { return divergence.isDivergentUse(use); });
      if (usedUniformly) uniform.insert(&instruction);
    }
  return uniform;
}

}  // namespace loom::compiler::cpu
