#include "barrier_kernel_simplification.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
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
constexpr unsigned kMaxUnrolledTrips = 64;
constexpr unsigned kMaxUnrolledInstructions = 2048;

bool callsBarrier(const llvm::Instruction& instruction) {
  auto* call = llvm::dyn_cast<llvm::CallInst>(&instruction);
  return call && call->getCalledFunction() && isBarrier(call->getCalledFunction()->getName());
}

void makeBarriersConvergent(llvm::Function& function) {
  for (llvm::BasicBlock& block : function)
    for (llvm::Instruction& instruction : block)
      if (callsBarrier(instruction)) llvm::cast<llvm::CallInst>(instruction).setConvergent();
}

// Instructions of `loop` once fully unrolled, inner loops too; 0 where some loop of the nest has
// no small constant trip count or holds a barrier.
unsigned unrolledSize(const llvm::Loop& loop, llvm::ScalarEvolution& evolution) {
  const unsigned trips = evolution.getSmallConstantTripCount(&loop);
  if (trips == 0 || trips > kMaxUnrolledTrips) return 0;
  unsigned body = 0;
  for (const llvm::Loop* inner : loop) {
    const unsigned size = unrolledSize(*inner, evolution);
    if (size == 0) return 0;
    body += size;
  }
  for (const llvm::BasicBlock* block : loop.blocks()) {
    const bool inInnerLoop = llvm::any_of(loop.getSubLoops(), [&](const llvm::Loop* inner) { return inner->contains(block); });
    if (inInnerLoop) continue;  // counted with its inner loop
    for (const llvm::Instruction& instruction : *block)
      if (callsBarrier(instruction)) return 0;
    body += static_cast<unsigned>(block->size());
  }
  return trips * body;
}

// A loop inside a barrier region keeps the region's loop over work-items from being innermost,
// which the vectorizer needs: loops of a small constant trip count are marked for full unrolling,
// while their unrolled size stays small.
struct MarkShortLoopsForUnrolling : llvm::PassInfoMixin<MarkShortLoopsForUnrolling> {
  llvm::PreservedAnalyses run(llvm::Function& function, llvm::FunctionAnalysisManager& analyses) {
    llvm::LoopInfo& loops = analyses.getResult<llvm::LoopAnalysis>(function);
    llvm::ScalarEvolution& evolution = analyses.getResult<llvm::ScalarEvolutionAnalysis>(function);
    for (llvm::Loop* loop : loops.getLoopsInPreorder()) {
      const unsigned size = unrolledSize(*loop, evolution);
      if (size != 0 && size <= kMaxUnrolledInstructions) llvm::addStringMetadataToLoop(loop, "llvm.loop.unroll.full");
    }
    return llvm::PreservedAnalyses::all();
  }
};

void addFullUnrolling(llvm::FunctionPassManager& passes) {
  llvm::LoopPassManager unrolling;
  unrolling.addPass(llvm::IndVarSimplifyPass());
  unrolling.addPass(llvm::LoopFullUnrollPass(kOptimizationLevel));
  passes.addPass(llvm::createFunctionToLoopPassAdaptor(std::move(unrolling)));
  passes.addPass(llvm::SROAPass());
  passes.addPass(llvm::EarlyCSEPass());
}

// Unrolling by LLVM's own measure first makes the loops around it smaller (arrays become values),
// then the short loops left are marked and unrolled too.
llvm::FunctionPassManager unrollingPipeline() {
  llvm::FunctionPassManager passes;
  passes.addPass(llvm::EarlyCSEPass());
  llvm::LoopPassManager rotation;
  rotation.addPass(llvm::LoopRotatePass());
  passes.addPass(llvm::createFunctionToLoopPassAdaptor(std::move(rotation)));
  addFullUnrolling(passes);
  passes.addPass(MarkShortLoopsForUnrolling());
  addFullUnrolling(passes);
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
