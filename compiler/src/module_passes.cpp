#include "module_passes.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/IPO/GlobalDCE.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/SROA.h"

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

void prepareForInlining(llvm::Module& module, const std::vector<std::string>& roots) {
  llvm::StringSet<> keep;
  for (const std::string& name : roots) keep.insert(name);
  for (llvm::Function& function : module)
    if (!function.isDeclaration() && !keep.contains(function.getName())) function.setLinkage(llvm::GlobalValue::InternalLinkage);
  runModulePipeline(module, nullptr, [](llvm::PassBuilder&) {
    llvm::ModulePassManager manager;
    manager.addPass(llvm::GlobalDCEPass());
    llvm::FunctionPassManager simplify;
    simplify.addPass(llvm::SROAPass());
    simplify.addPass(llvm::EarlyCSEPass(/*UseMemorySSA=*/false));
    manager.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(simplify)));
    return manager;
  });
}

void keepOnly(llvm::Module& module, const std::vector<std::string>& keepVisible) {
  llvm::StringSet<> keep;
  for (const std::string& name : keepVisible) keep.insert(name);
  for (llvm::GlobalValue& value : module.global_values()) {
    if (value.isDeclaration() || keep.contains(value.getName())) continue;
    value.setLinkage(llvm::GlobalValue::InternalLinkage);
  }
  runModulePipeline(module, nullptr, [](llvm::PassBuilder&) {
    llvm::ModulePassManager manager;
    manager.addPass(llvm::GlobalDCEPass());
    return manager;
  });
}

void useCCallingConvention(llvm::Module& module) {
  for (llvm::Function& function : module) {
    function.setCallingConv(llvm::CallingConv::C);
    for (llvm::BasicBlock& block : function)
      for (llvm::Instruction& instruction : block)
        if (auto* call = llvm::dyn_cast<llvm::CallBase>(&instruction)) call->setCallingConv(llvm::CallingConv::C);
  }
}

std::vector<llvm::CallInst*> callsOf(llvm::Function& function) {
  std::vector<llvm::CallInst*> calls;
  for (llvm::User* user : function.users())
    if (auto* call = llvm::dyn_cast<llvm::CallInst>(user); call && call->getCalledFunction() == &function) calls.push_back(call);
  return calls;
}

}  // namespace loom::compiler
