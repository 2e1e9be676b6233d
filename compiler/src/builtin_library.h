#pragma once
// Loom's OpenCL builtin library (compiler/builtins, compiled to bitcode at build time).
#include <cstdint>

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

namespace loom::compiler {

// Links the library functions `module` uses into it.
llvm::Error linkBuiltinLibrary(llvm::Module& module);

// Whether a declaration names a builtin (Itanium-mangled as OpenCL builtins are, a __spirv_ one, or
// printf and clang's __to_global, __to_local and __to_private, which are not mangled) rather than a
// symbol that another module must define.
bool isBuiltinName(llvm::StringRef name);

// The target's part of the library's generic address space functions (generic_pointers.cl): each
// target replaces the calls of this function, which answers which named address space a generic
// pointer points into, as one of PointerSpace's SPIR numbers.
constexpr const char* kPointerSpaceFunction = "__loom_pointer_space";
// Constant answers for memory that is none of the others (NVPTX's const window): to_global,
// to_local and to_private give NULL for it and get_fence the global fence.
enum class PointerSpace : uint32_t { Private = 0, Global = 1, Constant = 2, Local = 3 };

}  // namespace loom::compiler
