#include "memory_ordering.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicsNVPTX.h"

namespace loom::compiler::nvptx {

void lowerFences(llvm::Module& module) {
  std::vector<llvm::FenceInst*> fences;
  for (llvm::Function& function : module)
    for (llvm::Instruction& instruction : llvm::instructions(function))
      if (auto* fence = llvm::dyn_cast<llvm::FenceInst>(&instruction)) fences.push_back(fence);
  for (llvm::FenceInst* fence : fences) {
    if (fence->getSyncScopeID() != llvm::SyncScope::SingleThread)
      llvm::IRBuilder<>(fence).CreateIntrinsic(llvm::Intrinsic::nvvm_membar_gl, {}, {});
    fence->eraseFromParent();
  }
}

}  // namespace loom::compiler::nvptx
