#include "uniform_loop_barriers.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "uniform_values.h"

namespace loom::compiler::cpu {

namespace {

bool hasFloatingPointAccumulator(const llvm::Loop& loop) {
  for (const llvm::PHINode& phi : loop.getHeader()->phis())
    if (phi.getType()->isFPOrFPVectorTy()) return true;
  return false;
}

bool onlyReadsMemory(const llvm::Loop& loop) {
  for (const llvm::BasicBlock* block : loop.blocks())
    for (const llvm::Instruction& instruction : *block) {
      if (instruction.mayWriteToMemory()) return false;
      if (auto* call = llvm::dyn_cast<llvm::CallInst>(&instruction))
        if (!call->getCalledFunction() || !call->getCalledFunction()->isIntrinsic()) return false;
    }
  return true;
}

// Every exit taken at the same iteration by all work-items, after a number of iterations only
// known at run time (a short constant loop is better unrolled).
bool exitsUniformlyAfterRuntimeCount(const llvm::Loop& loop, const llvm::DenseSet<const llvm::Instruction*>& uniform) {
  llvm::SmallVector<llvm::BasicBlock*, 4> exiting;
  loop.getExitingBlocks(exiting);
  for (llvm::BasicBlock* block : exiting) {
    auto* branch = llvm::dyn_cast<llvm::BranchInst>(block->getTerminator());
    if (!branch || !branch->isConditional()) return false;
    auto* compare = llvm::dyn_cast<llvm::ICmpInst>(branch->getCondition());
    if (!compare || !uniform.contains(compare)) return false;
    if (llvm::isa<llvm::Constant>(compare->getOperand(0)) || llvm::isa<llvm::Constant>(compare->getOperand(1))) return false;
  }
  return !exiting.empty();
}

bool isCandidate(const llvm::Loop& loop, const llvm::DenseSet<const llvm::Instruction*>& uniform) {
  return loop.isInnermost() && loop.getLoopDepth() == 1 && loop.getLoopLatch() &&
         hasFloatingPointAccumulator(loop) && onlyReadsMemory(loop) && exitsUniformlyAfterRuntimeCount(loop, uniform);
}

void insertBarrierBefore(llvm::Instruction* position) {
  llvm::Module& module = *position->getModule();
  llvm::IRBuilder<> builder(position);
  llvm::FunctionCallee barrier = module.getOrInsertFunction("_Z7barrierj", builder.getVoidTy(), builder.getInt32Ty());
  builder.CreateCall(barrier, {builder.getInt32(0)});
}

}  // namespace

bool insertUniformLoopBarriers(llvm::Function& function, const llvm::BasicBlock& entry) {
  const llvm::DenseSet<const llvm::Instruction*> uniform = uniformValues(function, entry);
  llvm::DominatorTree dominators(function);
  llvm::LoopInfo loops(dominators);
  for (llvm::Loop* loop : loops) {
    if (!isCandidate(*loop, uniform)) continue;
    // One loop only: work-items that skip it never meet another barrier, so the group's
    // work-items that are still running always wait at the same one.
    llvm::BasicBlock* preheader = loop->getLoopPreheader();
    if (!preheader) preheader = llvm::InsertPreheaderForLoop(loop, &dominators, &loops, nullptr, false);
    insertBarrierBefore(preheader->getTerminator());
    insertBarrierBefore(loop->getLoopLatch()->getTerminator());
    return true;
  }
  return false;
}

}  // namespace loom::compiler::cpu
