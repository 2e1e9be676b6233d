#pragma once
// The NVPTX target's answer to the builtin library's __loom_pointer_space
// (compiler/builtins/generic_pointers.cl): which named address space a generic pointer points into,
// by the windows of the generic address space that PTX's isspacep tells apart.
#include "llvm/IR/Module.h"

namespace loom::compiler::nvptx {

// Replaces each call of __loom_pointer_space in `module` (whose address spaces are NVPTX's, generic
// being 0): global (1) in the global window, local (3) in the shared one, private (0) in the local
// one, constant (2) in the const window, where the program keeps nothing OpenCL C can point to.
void lowerPointerSpaces(llvm::Module& module);

// Makes each addrspacecast of `module`'s functions between generic and a named space (or two
// named ones) keep null pointers null, as OpenCL C requires (a NULL of a named space converted to
// generic compares equal to generic NULL), where PTX's cvta converts 0 to the window's base:
// casts of constant null become null, casts of pointers that may be null a select on null, and
// casts of pointers known not to be null stay as they are. Runs before routeCastsThroughGeneric.
void preserveNullInCasts(llvm::Module& module);

// Rewrites each addrspacecast of `module`'s functions between two named address spaces, which the
// NVPTX backend cannot select, into a cast to generic and the conversion from generic to the target
// space. Optimizations make such casts out of pairs through generic on paths the program never
// runs (to_local of a pointer isspacep found global) or where OpenCL C leaves the result undefined.
void routeCastsThroughGeneric(llvm::Module& module);

}  // namespace loom::compiler::nvptx
