#pragma once
// Half-precision atomics of cl_ext_float_atomics, which LLVM 15's SPIR-V translator cannot write
// (it lacks SPV_EXT_shader_atomic_float16_add, and SPIR-V's OpenCL environment has no 16-bit
// atomics at all).
#include "llvm/IR/Module.h"

namespace loom::compiler {

// Replaces each call of atomic_load, atomic_store, atomic_exchange and atomic_fetch_add, _sub,
// _min and _max (plain or _explicit, in any address space) on an atomic_half with the same
// operation on the aligned 32-bit word that holds the half: an atomic load of the word, or a
// compare-and-swap loop that changes only the half's 16 bits. The orders are sequentially
// consistent, at least as strong as any the program asks for. The word may reach two bytes past
// the half's allocation but never into another page, and the loop writes those bytes back as it
// found them. Runs on clang's IR before it
// becomes SPIR-V, so that the SPIR-V holds only 32-bit atomics, which every consumer reads.
void lowerHalfAtomics(llvm::Module& module);

}  // namespace loom::compiler
