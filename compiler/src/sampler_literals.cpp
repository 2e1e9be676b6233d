#include "sampler_literals.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "module_passes.h"

namespace loom::compiler {

void lowerSamplerLiterals(llvm::Module& module) {
  llvm::Function* initializer = module.getFunction("__translate_sampler_initializer");
  if (!initializer) return;
  for (llvm::CallInst* call : callsOf(*initializer)) {
    llvm::IRBuilder<> builder(call);
    llvm::Value* bits = builder.CreateZExtOrTrunc(call->getArgOperand(0), builder.getInt64Ty());
    call->replaceAllUsesWith(builder.CreateIntToPtr(bits, call->getType()));
    call->eraseFromParent();
  }
  if (initializer->use_empty()) initializer->eraseFromParent();
}

}  // namespace loom::compiler
