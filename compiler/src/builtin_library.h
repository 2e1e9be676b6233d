#pragma once
// Loom's OpenCL builtin library (compiler/builtins, compiled to bitcode at build time).
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

namespace loom::compiler {

// Links the library functions `module` uses into it.
llvm::Error linkBuiltinLibrary(llvm::Module& module);

}  // namespace loom::compiler
