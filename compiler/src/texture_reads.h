#pragma once
// The builtin library's reads through texture units (builtins/images.cl): __loom_texture_units()
// says whether the target has them, __loom_texture_read_2d(texture, x, y) samples a texture object.
#include "llvm/IR/Module.h"
#include "loom/compiler/compiler.h"

namespace loom::compiler {

// On NVPTX: __loom_texture_units() is true and each read a tex.2d.v4.f32.f32 through the texture
// object (the unified texture mode's llvm.nvvm.tex.unified intrinsic), which the optimizer may
// move and merge as a call that reads no memory: textures are read-only images, which nothing
// writes while the kernel runs. On the CPU, which has no
// texture units: false, and the reads, never reached, zeros, so that the optimizer drops both.
void materializeTextureReads(llvm::Module& module, Target target);

}  // namespace loom::compiler
