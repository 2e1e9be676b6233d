#pragma once
// Runs a pipeline of LLVM's new pass manager over a module, with every analysis registered.
#include <string>
#include <vector>

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"

namespace loom::compiler {

// `build` makes the pipeline from a PassBuilder for `machine` (which may be null), whose default
// pipelines follow `tuning`.
void runModulePipeline(llvm::Module& module, llvm::TargetMachine* machine,
                       llvm::function_ref<llvm::ModulePassManager(llvm::PassBuilder&)> build,
                       const llvm::PipelineTuningOptions& tuning = llvm::PipelineTuningOptions());

// Before a target inlines everything into its kernels: drops the functions that no function named
// in `roots` (the kernels, the program's exports) reaches, and simplifies the rest (SROA, EarlyCSE).
// Large programs define hundreds of helpers their kernels never call, and an unoptimized helper is
// several times the size it shrinks to, in every kernel it is inlined into. Neither changes
// control flow, so barriers stay where the source put them.
void prepareForInlining(llvm::Module& module, const std::vector<std::string>& roots);

// Keeps only `keepVisible` visible (what the runtime looks up: kernels or their entries, program
// globals, exported functions) and drops everything nothing reaches. Every target does this.
void keepOnly(llvm::Module& module, const std::vector<std::string>& keepVisible);

// SPIR-V's functions and calls use SPIR calling conventions; native targets want the C one.
void useCCallingConvention(llvm::Module& module);

// A function pass run on some functions only.
template <typename Pass>
struct OnlyFunctions : llvm::PassInfoMixin<OnlyFunctions<Pass>> {
  OnlyFunctions(std::vector<llvm::Function*> functions, Pass pass) : functions(std::move(functions)), pass(std::move(pass)) {}
  llvm::PreservedAnalyses run(llvm::Function& function, llvm::FunctionAnalysisManager& analyses) {
    if (!llvm::is_contained(functions, &function)) return llvm::PreservedAnalyses::all();
    return pass.run(function, analyses);
  }
  static bool isRequired() { return true; }
  std::vector<llvm::Function*> functions;
  Pass pass;
};

// The calls of `function` (not other uses of it, such as taking its address).
std::vector<llvm::CallInst*> callsOf(llvm::Function& function);

// The unqualified name an Itanium-mangled function name starts with (`_Z<length><name>...`:
// "atomic_load" of _Z11atomic_loadPU3AS1VU7_AtomicDh); empty for a name that is not mangled so.
llvm::StringRef mangledBaseName(llvm::StringRef name);

}  // namespace loom::compiler
