#include "local_atomics_lowering.h"

#include <vector>

#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/LowerAtomic.h"

namespace loom::compiler::cpu {

namespace {

constexpr unsigned kLocalAddressSpace = 3;

bool onLocalMemory(const llvm::Instruction& instruction) {
  if (auto* rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&instruction))
    return rmw->getPointerAddressSpace() == kLocalAddressSpace;
  if (auto* exchange = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&instruction))
    return exchange->getPointerAddressSpace() == kLocalAddressSpace;
  return false;
}

}  // namespace

void lowerLocalAtomics(llvm::Function& function) {
  std::vector<llvm::Instruction*> atomics;
  for (llvm::BasicBlock& block : function)
    for (llvm::Instruction& instruction : block)
      if (onLocalMemory(instruction)) atomics.push_back(&instruction);
  for (llvm::Instruction* atomic : atomics) {
    if (auto* rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(atomic))
      llvm::lowerAtomicRMWInst(rmw);
    else
      llvm::lowerAtomicCmpXchgInst(llvm::cast<llvm::AtomicCmpXchgInst>(atomic));
  }
}

}  // namespace loom::compiler::cpu
