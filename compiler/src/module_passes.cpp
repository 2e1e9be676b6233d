#include "module_passes.h"

namespace loom::compiler {

void runModulePipeline(llvm::Module& module, llvm::TargetMachine* machine,
                       llvm::function_ref<llvm::ModulePassManager(llvm::PassBuilder&)> build) {
  llvm::PassBuilder passes(machine);
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager cgscc;
  llvm::ModuleAnalysisManager modules;
  passes.registerModuleAnalyses(modules);
  passes.registerCGSCCAnalyses(cgscc);
  passes.registerFunctionAnalyses(functions);
  passes.registerLoopAnalyses(loops);
  passes.crossRegisterProxies(loops, functions, cgscc, modules);
  build(passes).run(module, modules);
}

}  // namespace loom::compiler
