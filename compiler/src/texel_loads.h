#pragma once
// How the builtin library's image functions load texels (builtins/images.cl), as the target
// prefers it.
#include "llvm/IR/Module.h"

namespace loom::compiler {

// Answers each call of __loom_wide_texel_loads(), the library's question whether a texel of the
// direct paths (RGBA 8-bit and float) is worth one wide load after a check of its alignment,
// with `wide`: true on GPUs, where each byte or word loaded is an instruction, false on the CPU,
// where a branch per texel would keep work-item loops from being vectorized.
void answerWideTexelLoads(llvm::Module& module, bool wide);

}  // namespace loom::compiler
