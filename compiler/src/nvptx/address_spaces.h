#pragma once
// SPIR address spaces (0 private, 1 global, 2 constant, 3 local, 4 generic) onto NVPTX's (0 generic,
// 1 global, 3 shared, 4 const, 5 local).
#include "llvm/IR/Module.h"

namespace loom::compiler::nvptx {

// Rewrites every type, global, function and instruction of `module`: generic pointers become
// NVPTX generic (0) and __constant ones global (1), since constant buffers are global memory.
// Private (0), global (1) and local (3) keep their numbers.
void remapAddressSpaces(llvm::Module& module);

}  // namespace loom::compiler::nvptx
