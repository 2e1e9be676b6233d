#include "nvptx/texture_loop_unrolling.h"

#include <cstdint>
#include <optional>

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Metadata.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

namespace loom::compiler::nvptx {

namespace {

constexpr uint64_t kMaxUnrolledFetches = 64;
constexpr uint64_t kMaxUnrolledInstructions = 4096;

bool isTextureFetch(const llvm::Instruction& instruction) {
  const auto* intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction);
  return intrinsic && intrinsic->getIntrinsicID() == llvm::Intrinsic::nvvm_tex_unified_2d_v4f32_f32;
}

struct Size {
  uint64_t instructions = 0;
  uint64_t fetches = 0;
};

// How many times one iteration of `loop` runs `block`: the trip counts of the loops between
// them; nullopt where one of them is not a constant.
std::optional<uint64_t> runsPerIteration(const llvm::BasicBlock& block, const llvm::Loop& loop, const llvm::LoopInfo& loops,
                                         llvm::ScalarEvolution& evolution) {
  uint64_t runs = 1;
  for (const llvm::Loop* inner = loops.getLoopFor(&block); inner != &loop; inner = inner->getParentLoop()) {
    const unsigned trips = evolution.getSmallConstantTripCount(inner);
    if (trips == 0) return std::nullopt;
    runs *= trips;
  }
  return runs;
}

// One iteration's instructions and fetches, inner loops counted unrolled.
std::optional<Size> iterationSize(const llvm::Loop& loop, const llvm::LoopInfo& loops, llvm::ScalarEvolution& evolution) {
  Size size;
  for (const llvm::BasicBlock* block : loop.blocks()) {
    const std::optional<uint64_t> runs = runsPerIteration(*block, loop, loops, evolution);
    if (!runs) return std::nullopt;
    for (const llvm::Instruction& instruction : *block) {
      size.instructions += *runs;
      if (isTextureFetch(instruction)) size.fetches += *runs;
    }
  }
  return size;
}

bool worthUnrollingWhole(const llvm::Loop& loop, const llvm::LoopInfo& loops, llvm::ScalarEvolution& evolution) {
  if (llvm::findOptionMDForLoop(&loop, "llvm.loop.unroll.disable") || llvm::findOptionMDForLoop(&loop, "llvm.loop.unroll.count") ||
      llvm::findOptionMDForLoop(&loop, "llvm.loop.unroll.full") || llvm::findOptionMDForLoop(&loop, "llvm.loop.unroll.enable"))
    return false;
  const unsigned trips = evolution.getSmallConstantTripCount(&loop);
  if (trips == 0) return false;
  const std::optional<Size> size = iterationSize(loop, loops, evolution);
  return size && size->fetches > 0 && size->fetches * trips <= kMaxUnrolledFetches &&
         size->instructions * trips <= kMaxUnrolledInstructions;
}

// The loop's directives, and llvm.loop.unroll.full.
void askForFullUnrolling(llvm::Loop& loop) {
  llvm::LLVMContext& context = loop.getHeader()->getContext();
  llvm::SmallVector<llvm::Metadata*, 4> directives{nullptr};
  if (llvm::MDNode* existing = loop.getLoopID())
    for (unsigned index = 1; index < existing->getNumOperands(); ++index) directives.push_back(existing->getOperand(index));
  directives.push_back(llvm::MDNode::get(context, llvm::MDString::get(context, "llvm.loop.unroll.full")));
  llvm::MDNode* id = llvm::MDNode::getDistinct(context, directives);
  id->replaceOperandWith(0, id);
  loop.setLoopID(id);
}

}  // namespace

llvm::PreservedAnalyses TextureLoopUnrolling::run(llvm::Function& function, llvm::FunctionAnalysisManager& analyses) {
  llvm::LoopInfo& loops = analyses.getResult<llvm::LoopAnalysis>(function);
  llvm::ScalarEvolution& evolution = analyses.getResult<llvm::ScalarEvolutionAnalysis>(function);
  for (llvm::Loop* loop : loops.getLoopsInPreorder())
    if (worthUnrollingWhole(*loop, loops, evolution)) askForFullUnrolling(*loop);
  return llvm::PreservedAnalyses::all();  // directives only
}

void addTextureLoopUnrolling(llvm::PassBuilder& passes) {
  passes.registerVectorizerStartEPCallback(
      [](llvm::FunctionPassManager& manager, llvm::OptimizationLevel) { manager.addPass(TextureLoopUnrolling()); });
}

}  // namespace loom::compiler::nvptx
