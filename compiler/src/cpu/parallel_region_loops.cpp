#include "parallel_region_loops.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Metadata.h"

namespace loom::compiler::cpu {

namespace {

bool isPlainAccess(const llvm::Instruction& instruction) {
  if (auto* load = llvm::dyn_cast<llvm::LoadInst>(&instruction)) return load->isSimple();
  if (auto* store = llvm::dyn_cast<llvm::StoreInst>(&instruction)) return store->isSimple();
  return false;
}

// The group's own variables (the next region asked for) become registers before the vectorizer
// runs; until then the loop is not parallel, which is what their accesses need.
bool onGroupVariable(const llvm::Instruction& instruction) {
  const llvm::Value* pointer = llvm::getLoadStorePointerOperand(&instruction);
  return pointer && llvm::isa<llvm::AllocaInst>(llvm::getUnderlyingObject(pointer));
}

bool onlyPlainAccesses(const RegionLoop& loop) {
  for (llvm::BasicBlock* block : loop.blocks)
    for (llvm::Instruction& instruction : *block)
      if (instruction.mayReadOrWriteMemory() && !isPlainAccess(instruction)) return false;
  return true;
}

void markParallel(const RegionLoop& loop) {
  llvm::LLVMContext& context = loop.latch->getContext();
  llvm::MDNode* group = llvm::MDNode::getDistinct(context, {});
  for (llvm::BasicBlock* block : loop.blocks)
    for (llvm::Instruction& instruction : *block)
      if (instruction.mayReadOrWriteMemory() && !onGroupVariable(instruction))
        instruction.setMetadata(llvm::LLVMContext::MD_access_group, group);
  llvm::Metadata* parallel[] = {llvm::MDString::get(context, "llvm.loop.parallel_accesses"), group};
  llvm::TempMDTuple placeholder = llvm::MDNode::getTemporary(context, {});
  llvm::Metadata* properties[] = {placeholder.get(), llvm::MDNode::get(context, parallel)};
  llvm::MDNode* loopId = llvm::MDNode::getDistinct(context, properties);
  loopId->replaceOperandWith(0, loopId);
  loop.latch->getTerminator()->setMetadata(llvm::LLVMContext::MD_loop, loopId);
}

}  // namespace

void markRegionLoopsParallel(const std::vector<RegionLoop>& loops) {
  for (const RegionLoop& loop : loops)
    if (onlyPlainAccesses(loop)) markParallel(loop);
}

}  // namespace loom::compiler::cpu
