#include "barrier_kernel_simplification.h"

#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/IndVarSimplify.h"
#include "llvm/Transforms/Scalar/LoopPassManager.h"
#include "llvm/Transforms/Scalar/LoopRotation.h"
#include "llvm/Transforms/Scalar/LoopUnrollPass.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "module_passes.h"
#include "work_item_builtins.h"

namespace loom::compiler::cpu {

namespace {

constexpr int kOptimizationLevel = 3;

void makeBarriersConvergent(llvm::Function& function) {
  for (llvm::BasicBlock& block : function)
    for (llvm::Instruction& instruction : block)
      if (auto* call = llvm::dyn_cast<llvm::CallInst>(&instruction))
        if (call->getCalledFunction() && isBarrier(call->getCalledFunction()->getName())) call->setConvergent();
}

llvm::FunctionPassManager unrollingPipeline() {
  llvm::FunctionPassManager passes;
  passes.addPass(llvm::EarlyCSEPass());
  llvm::LoopPassManager rotation;
  rotation.addPass(llvm::LoopRotatePass());
  passes.addPass(llvm::createFunctionToLoopPassAdaptor(std::move(rotation)));
  llvm::LoopPassManager unrolling;
  unrolling.addPass(llvm::IndVarSimplifyPass());
  unrolling.addPass(llvm::LoopFullUnrollPass(kOptimizationLevel));
  passes.addPass(llvm::createFunctionToLoopPassAdaptor(std::move(unrolling)));
  passes.addPass(llvm::SROAPass());
  passes.addPass(llvm::EarlyCSEPass());
  return passes;
}

}  // namespace

void simplifyBarrierKernels(llvm::Module& module, const std::vector<llvm::Function*>& kernels) {
  if (kernels.empty()) return;
  for (llvm::Function* kernel : kernels) makeBarriersConvergent(*kernel);
  runModulePipeline(module, nullptr, [&](llvm::PassBuilder&) {
    llvm::ModulePassManager manager;
    manager.addPass(llvm::createModuleToFunctionPassAdaptor(OnlyFunctions<llvm::FunctionPassManager>(kernels, unrollingPipeline())));
    return manager;
  });
}

}  // namespace loom::compiler::cpu
