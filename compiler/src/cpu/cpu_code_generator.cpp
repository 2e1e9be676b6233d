#include "cpu_code_generator.h"

#include "half_arithmetic.h"
#include "module_passes.h"
#include "streaming_stores.h"
#include "work_item_interleaving.h"

#include <mutex>

#include "llvm/IR/Instructions.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Operator.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Host.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

namespace loom::compiler::cpu {

namespace {

void initializeNativeTarget() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
}

std::string hostFeatures() {
  llvm::StringMap<bool> features;
  llvm::sys::getHostCPUFeatures(features);
  std::string joined;
  for (const auto& feature : features) joined += (joined.empty() ? "" : ",") + std::string(feature.second ? "+" : "-") + feature.first().str();
  return joined;
}

llvm::Expected<std::unique_ptr<llvm::TargetMachine>> createHostTargetMachine(bool optimize) {
  initializeNativeTarget();
  const std::string triple = llvm::sys::getProcessTriple();
  std::string error;
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target) return llvm::createStringError(llvm::inconvertibleErrorCode(), "no host target: %s", error.c_str());
  llvm::TargetOptions options;
  auto level = optimize ? llvm::CodeGenOpt::Aggressive : llvm::CodeGenOpt::None;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, llvm::sys::getHostCPUName(), hostFeatures(), options, llvm::Reloc::PIC_, llvm::CodeModel::Small, level));
  if (!machine) return llvm::createStringError(llvm::inconvertibleErrorCode(), "cannot create the host target machine");
  return machine;
}

void applyFastMath(llvm::Module& module, const BuildOptions& options) {
  if (!options.fastMath && !options.finiteMathOnly && !options.noSignedZeros) return;
  for (llvm::Function& function : module)
    for (llvm::BasicBlock& block : function)
      for (llvm::Instruction& instruction : block) {
        if (!llvm::isa<llvm::FPMathOperator>(instruction)) continue;
        if (options.fastMath) instruction.setFast(true);
        if (options.finiteMathOnly) instruction.setHasNoNaNs(true), instruction.setHasNoInfs(true);
        if (options.noSignedZeros) instruction.setHasNoSignedZeros(true);
      }
}

// Vectors of 256 bits at most, also where the CPU has AVX-512: AMD's Zen 4 executes 512-bit
// operations as two halves and Intel's cores lower their clock for them. LLVM prefers 256 bits on
// Intel's AVX-512 CPUs already, but not on Zen 4, which LLVM 15 does not know (docs/performance.md
// has the kernel suite's figures at both widths).
void preferVectorsOf256Bits(llvm::Module& module) {
  const std::string width = std::to_string(kPreferredVectorBits);
  for (llvm::Function& function : module) function.addFnAttr("prefer-vector-width", width);
}

// LLVM's default pipelines leave out the SLP vectorizer (clang turns it on): kernels that
// compute a vector one component at a time (CLBlast's AXPY and GEMM) need it to use vectors.
llvm::PipelineTuningOptions tuning() {
  llvm::PipelineTuningOptions options;
  options.SLPVectorization = true;
  return options;
}

void optimize(llvm::Module& module, llvm::TargetMachine& machine, bool aggressive) {
  runModulePipeline(
      module, &machine,
      [&](llvm::PassBuilder& passes) {
        return aggressive ? passes.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3)
                          : passes.buildO0DefaultPipeline(llvm::OptimizationLevel::O0);
      },
      tuning());
}

}  // namespace

llvm::Error retargetToHost(llvm::Module& module) {
  auto machine = createHostTargetMachine(true);
  if (!machine) return machine.takeError();
  module.setTargetTriple((*machine)->getTargetTriple().str());
  module.setDataLayout((*machine)->createDataLayout());
  useCCallingConvention(module);
  return llvm::Error::success();
}

llvm::Expected<std::vector<uint8_t>> generateObject(llvm::Module& module, const BuildOptions& options, bool dumpIr) {
  auto machine = createHostTargetMachine(options.optimize);
  if (!machine) return machine.takeError();
  applyFastMath(module, options);
  preferVectorsOf256Bits(module);
  optimize(module, **machine, options.optimize);
  if (options.optimize) interleaveWorkItems(module, **machine);
  addStreamingVariants(module);
  computeHalfInFloat(module);
  if (dumpIr) module.print(llvm::errs(), nullptr);
  std::string problems;
  llvm::raw_string_ostream problemStream(problems);
  if (llvm::verifyModule(module, &problemStream))
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "internal compiler error: %s", problems.c_str());
  llvm::SmallVector<char, 0> object;
  llvm::raw_svector_ostream stream(object);
  llvm::legacy::PassManager codegen;
  if ((*machine)->addPassesToEmitFile(codegen, stream, nullptr, llvm::CGFT_ObjectFile))
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "the host target cannot emit object files");
  codegen.run(module);
  return std::vector<uint8_t>(object.begin(), object.end());
}

}  // namespace loom::compiler::cpu
