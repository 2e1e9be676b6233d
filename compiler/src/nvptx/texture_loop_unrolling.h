#pragma once
// Loops of texture fetches unrolled whole on NVPTX. A texture fetch takes hundreds of cycles; a
// loop that consumes each fetch in the iteration that issues it leaves a warp one fetch in flight
// at a time. Unrolled, the fetches of all iterations issue together, as NVIDIA's compilers issue
// them. LLVM's own unrolling stops at a size that loops of filter taps often pass.
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"

namespace loom::compiler::nvptx {

// Asks LLVM's unroller (llvm.loop.unroll.full) to unroll each loop of a constant trip count that
// fetches from textures, where the unrolled loop stays small: at most 64 fetches and 4096
// instructions. Loops the program already gave unrolling directives keep them.
struct TextureLoopUnrolling : llvm::PassInfoMixin<TextureLoopUnrolling> {
  llvm::PreservedAnalyses run(llvm::Function& function, llvm::FunctionAnalysisManager& analyses);
};

// Adds TextureLoopUnrolling to the pipelines `passes` builds, ahead of their loop unrolling.
void addTextureLoopUnrolling(llvm::PassBuilder& passes);

}  // namespace loom::compiler::nvptx
