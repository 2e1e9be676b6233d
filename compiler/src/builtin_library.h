#pragma once
// Loom's OpenCL builtin library (compiler/builtins, compiled to bitcode at build time).
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

namespace loom::compiler {

// Links the library functions `module` uses into it.
llvm::Error linkBuiltinLibrary(llvm::Module& module);

// Whether a declaration names a builtin (Itanium-mangled as OpenCL builtins are, a __spirv_ one, or
// printf and clang's __to_global, __to_local and __to_private, which are not mangled) rather than a
// symbol that another module must define.
bool isBuiltinName(llvm::StringRef name);

}  // namespace loom::compiler
