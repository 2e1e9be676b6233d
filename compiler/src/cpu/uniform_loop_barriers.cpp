#include "uniform_loop_barriers.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "cpu_code_generator.h"
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

bool isUniform(const llvm::Value* value, const llvm::DenseSet<const llvm::Instruction*>& uniform) {
  auto* instruction = llvm::dyn_cast<llvm::Instruction>(value);
  return !instruction || uniform.contains(instruction);
}

// Loads of register-wide vectors (float4 and wider) that differ between work-items would become
// interleaved loads across work-items, whose shuffles cost more than the loop gains: such a loop
// is memory-bound, and its vectors fill registers as they are. Loads every work-item shares (an
// n-body loop's other body) stay one load.
bool loadsWideVectorsPerWorkItem(const llvm::Loop& loop, const llvm::DenseSet<const llvm::Instruction*>& uniform) {
  for (const llvm::BasicBlock* block : loop.blocks())
    for (const llvm::Instruction& instruction : *block) {
      auto* load = llvm::dyn_cast<llvm::LoadInst>(&instruction);
      auto* vector = load ? llvm::dyn_cast<llvm::FixedVectorType>(load->getType()) : nullptr;
      if (vector && vector->getPrimitiveSizeInBits().getFixedSize() >= kRegisterVectorBits &&
          !isUniform(load->getPointerOperand(), uniform))
        return true;
    }
  return false;
}

// Scalar operations (a vector operation counts one per element, as the vectorizer across
// work-items sees it) beyond which LLVM does not unroll a loop of constant trip count fully.
constexpr uint64_t kFullUnrollLimit = 300;

uint64_t scalarOperations(const llvm::Loop& loop) {
  uint64_t operations = 0;
  for (const llvm::BasicBlock* block : loop.blocks())
    for (const llvm::Instruction& instruction : *block) {
      auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(instruction.getType());
      operations += vector ? vector->getNumElements() : 1;
    }
  return operations;
}

// A loop whose exit compares with a constant is one of constant trip count (`bound` roughly):
// worth the barriers only where it is too long to be unrolled.
bool tooLongToUnroll(const llvm::Loop& loop, const llvm::ConstantInt& bound) {
  return bound.getValue().getActiveBits() > 32 || bound.getZExtValue() * scalarOperations(loop) > kFullUnrollLimit;
}

// Every exit taken at the same iteration by all work-items, after a number of iterations known
// at run time or too large to unroll the loop fully.
bool exitsUniformlyAfterLongCount(const llvm::Loop& loop, const llvm::DenseSet<const llvm::Instruction*>& uniform) {
  llvm::SmallVector<llvm::BasicBlock*, 4> exiting;
  loop.getExitingBlocks(exiting);
  for (llvm::BasicBlock* block : exiting) {
    auto* branch = llvm::dyn_cast<llvm::BranchInst>(block->getTerminator());
    if (!branch || !branch->isConditional()) return false;
    auto* compare = llvm::dyn_cast<llvm::ICmpInst>(branch->getCondition());
    if (!compare || !uniform.contains(compare)) return false;
    for (const llvm::Value* operand : compare->operands())
      if (auto* bound = llvm::dyn_cast<llvm::ConstantInt>(operand); bound && !tooLongToUnroll(loop, *bound)) return false;
  }
  return !exiting.empty();
}

bool isCandidate(const llvm::Loop& loop, const llvm::DenseSet<const llvm::Instruction*>& uniform) {
  return loop.isInnermost() && loop.getLoopDepth() == 1 && loop.getLoopLatch() &&
         hasFloatingPointAccumulator(loop) && onlyReadsMemory(loop) && !loadsWideVectorsPerWorkItem(loop, uniform) &&
         exitsUniformlyAfterLongCount(loop, uniform);
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
