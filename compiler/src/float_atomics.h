#pragma once
// Floating-point atomic addition of the builtin library (builtins/atomics.cl).
#include "llvm/IR/Module.h"

namespace loom::compiler {

// Makes each call of __loom_atomic_fadd(pointer, value), the library's float and double atomic
// add in every address space, an `atomicrmw fadd` (sequentially consistent, as the library's
// other atomics): a native instruction where the target has one (NVPTX's atom.add.f32/f64), a
// compare-and-swap loop from the backend elsewhere, a plain add for the CPU's __local memory.
void materializeFloatAtomicAdds(llvm::Module& module);

}  // namespace loom::compiler
