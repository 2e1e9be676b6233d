#pragma once
// Sampler literals (`const sampler_t s = CLK_...;`, SPIR-V's OpConstantSampler) as the translator
// gives them: calls of __translate_sampler_initializer(i32 bits).
#include "llvm/IR/Module.h"

namespace loom::compiler {

// Replaces each call with its bits as a sampler pointer: a sampler is its SamplerBits value
// (image_abi.h), whether a kernel argument or a literal, so the image builtins read both alike.
void lowerSamplerLiterals(llvm::Module& module);

}  // namespace loom::compiler
