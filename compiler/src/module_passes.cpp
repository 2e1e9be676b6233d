#include "module_passes.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/IPO/GlobalDCE.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/SROA.h"

namespace loom::compiler {

void runModulePipeline(llvm::Module& module, llvm::TargetMachine* machine,
                       llvm::function_ref<llvm::ModulePassManager(llvm::PassBuilder&)> build,
                       const llvm::PipelineTuningOptions& tuning) {
  llvm::PassBuilder passes(machine, tuning);
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

namespace {

// Gives every definition among `values` that `keep` does not name internal linkage, so that
// GlobalDCE may drop it once nothing uses it.
template <typename Values>
void internalizeAllBut(Values&& values, const std::vector<std::string>& keep) {
  llvm::StringSet<> kept;
  for (const std::string& name : keep) kept.insert(name);
  for (llvm::GlobalValue& value : values)
    if (!value.isDeclaration() && !kept.contains(value.getName())) value.setLinkage(llvm::GlobalValue::InternalLinkage);
}

// Drops what no visible symbol reaches; with `simplify`, also runs SROA and EarlyCSE on what stays.
void dropUnreached(llvm::Module& module, bool simplify) {
  runModulePipeline(module, nullptr, [simplify](llvm::PassBuilder&) {
    llvm::ModulePassManager manager;
    manager.addPass(llvm::GlobalDCEPass());
    if (!simplify) return manager;
    llvm::FunctionPassManager simplifications;
    simplifications.addPass(llvm::SROAPass());
    simplifications.addPass(llvm::EarlyCSEPass(/*UseMemorySSA=*/false));
    manager.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(simplifications)));
    return manager;
  });
}

}  // namespace

void prepareForInlining(llvm::Module& module, const std::vector<std::string>& roots) {
  internalizeAllBut(module.functions(), roots);  // variables stay: the runtime looks them up later
  dropUnreached(module, /*simplify=*/true);
}

void keepOnly(llvm::Module& module, const std::vector<std::string>& keepVisible) {
  internalizeAllBut(module.global_values(), keepVisible);
  dropUnreached(module, /*simplify=*/false);
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

llvm::StringRef mangledBaseName(llvm::StringRef name) {
  unsigned length = 0;
  if (!name.consume_front("_Z") || name.consumeInteger(10, length) || name.size() < length) return {};
  return name.take_front(length);
}

}  // namespace loom::compiler
