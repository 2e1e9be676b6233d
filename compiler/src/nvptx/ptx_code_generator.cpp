#include "ptx_code_generator.h"

#include <mutex>

#include "address_spaces.h"
#include "float_extensions.h"
#include "libdevice.h"
#include "memory_ordering.h"
#include "pointer_spaces.h"
#include "printf_lowering.h"
#include "rotates.h"
#include "texture_loop_unrolling.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "module_passes.h"

namespace loom::compiler::nvptx {

namespace {

void initializeNvptxTarget() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
}

llvm::Expected<std::unique_ptr<llvm::TargetMachine>> createTargetMachine() {
  initializeNvptxTarget();
  std::string error;
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(kTriple, error);
  if (!target) return llvm::createStringError(llvm::inconvertibleErrorCode(), "no NVPTX target: %s", error.c_str());
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(kTriple, kProcessor, kFeatures, llvm::TargetOptions(),
                                                                           llvm::None, llvm::None, llvm::CodeGenOpt::Aggressive));
  if (!machine) return llvm::createStringError(llvm::inconvertibleErrorCode(), "cannot create the NVPTX target machine");
  return machine;
}

bool hasAtomicLoadOrStore(const llvm::Function& function) {
  for (const llvm::Instruction& instruction : llvm::instructions(function))
    if (instruction.isAtomic() && (llvm::isa<llvm::LoadInst>(instruction) || llvm::isa<llvm::StoreInst>(instruction)))
      return true;
  return false;
}

// What the backend would stop the process on ("Cannot select", "Undefined external symbol"),
// reported as a build failure instead.
llvm::Error checkSelectable(const llvm::Module& module, const std::vector<std::string>& imports) {
  std::string unresolved;
  for (const llvm::Function& function : module) {
    if (hasAtomicLoadOrStore(function))
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "atomic loads and stores are not supported on NVPTX devices yet");
    if (!function.isDeclaration() || function.use_empty()) continue;
    if (function.getName() == kVprintf) continue;  // the driver's JIT provides it
    if (llvm::is_contained(imports, function.getName())) continue;  // the CUDA linker resolves it
    if (!function.isIntrinsic() || needsLibdevice(function.getIntrinsicID()))
      unresolved += (unresolved.empty() ? "" : ", ") + function.getName().str();
  }
  if (unresolved.empty()) return llvm::Error::success();
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "functions the NVPTX target cannot provide: %s",
                                 unresolved.c_str());
}

// LLVM 15's NVPTX printer declares an unnamed function as __unnamed_N but names its parameters
// after the empty name (`ld.param.f32 %f1, [_param_0]`), which ptxas rejects. SPIR-V functions
// need no name (OpName is optional), so every function gets one.
void nameAnonymousFunctions(llvm::Module& module) {
  for (llvm::Function& function : module)
    if (!function.hasName()) function.setName("__loom_function");  // LLVM numbers repeated names
}

}  // namespace

llvm::Error retargetToNvptx(llvm::Module& module) {
  auto machine = createTargetMachine();
  if (!machine) return machine.takeError();
  remapAddressSpaces(module);
  lowerPointerSpaces(module);
  if (llvm::Error error = lowerPrintf(module)) return error;
  module.setTargetTriple(kTriple);
  module.setDataLayout((*machine)->createDataLayout());
  useCCallingConvention(module);
  return llvm::Error::success();
}

llvm::Expected<std::vector<uint8_t>> generatePtx(llvm::Module& module, const std::vector<std::string>& imports, bool dumpIr) {
  auto machine = createTargetMachine();
  if (!machine) return machine.takeError();
  // The target's own passes join the pipeline here, NVVMReflect among them (libdevice needs it).
  runModulePipeline(module, machine->get(), [](llvm::PassBuilder& passes) {
    addTextureLoopUnrolling(passes);
    return passes.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  });
  preserveNullInCasts(module);
  routeCastsThroughGeneric(module);
  scalarizeLoadedFloatExtensions(module);
  widenAtomicsToSystemScope(module);
  lowerWideRotates(module);
  if (dumpIr) module.print(llvm::errs(), nullptr);
  std::string problems;
  llvm::raw_string_ostream problemStream(problems);
  if (llvm::verifyModule(module, &problemStream))
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "internal compiler error: %s", problems.c_str());
  if (llvm::Error error = checkSelectable(module, imports)) return error;
  nameAnonymousFunctions(module);
  llvm::SmallVector<char, 0> ptx;
  llvm::raw_svector_ostream stream(ptx);
  llvm::legacy::PassManager codegen;
  if ((*machine)->addPassesToEmitFile(codegen, stream, nullptr, llvm::CGFT_AssemblyFile))
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "the NVPTX target cannot emit assembly");
  codegen.run(module);
  std::vector<uint8_t> text(ptx.begin(), ptx.end());
  text.push_back('\0');  // the CUDA driver reads PTX up to its NUL
  return text;
}

}  // namespace loom::compiler::nvptx
