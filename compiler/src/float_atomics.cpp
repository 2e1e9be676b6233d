#include "float_atomics.h"

#include <vector>

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "module_passes.h"

namespace loom::compiler {

namespace {

// The Itanium mangling of __loom_atomic_fadd, whatever its overload.
constexpr const char* kMangledPrefix = "_Z18__loom_atomic_fadd";

bool isFloatAtomicAdd(const llvm::Function& function) {
  return function.isDeclaration() && function.getName().startswith(kMangledPrefix) && function.arg_size() == 2 &&
         function.getReturnType()->isFloatingPointTy() && function.getArg(0)->getType()->isPointerTy();
}

void replaceWithAtomicRmw(llvm::CallInst* call) {
  llvm::IRBuilder<> builder(call);
  llvm::Value* pointer = call->getArgOperand(0);
  llvm::Value* value = call->getArgOperand(1);
  llvm::Value* add = builder.CreateAtomicRMW(llvm::AtomicRMWInst::FAdd, pointer, value, llvm::MaybeAlign(),
                                             llvm::AtomicOrdering::SequentiallyConsistent);
  call->replaceAllUsesWith(add);
  call->eraseFromParent();
}

}  // namespace

void materializeFloatAtomicAdds(llvm::Module& module) {
  std::vector<llvm::Function*> declarations;
  for (llvm::Function& function : module)
    if (isFloatAtomicAdd(function)) declarations.push_back(&function);
  for (llvm::Function* function : declarations) {
    for (llvm::CallInst* call : callsOf(*function)) replaceWithAtomicRmw(call);
    if (function->use_empty()) function->eraseFromParent();
  }
}

}  // namespace loom::compiler
