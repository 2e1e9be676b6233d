#pragma once
// Half-precision atomics of cl_ext_float_atomics, which LLVM 15's SPIR-V translator can neither
// write nor read (it lacks SPV_EXT_shader_atomic_float16_add), and which neither backend has
// instructions for.
#include <cstdint>
#include <vector>

#include "llvm/IR/Module.h"

namespace loom::compiler {

// Replaces each call of atomic_load, atomic_store, atomic_exchange and atomic_fetch_add, _sub,
// _min and _max (plain or _explicit, in any address space) on an atomic_half, and each of the
// translator's __spirv_AtomicLoad, _Store, _Exchange, _FAddEXT, _FMinEXT and _FMaxEXT on a half
// (SPIR-V friendly IR), with the same
// operation on the aligned 32-bit word that holds the half: an atomic add of 0 to the word, or a
// compare-and-swap loop that changes only the half's 16 bits. The orders are sequentially
// consistent, at least as strong as any the program asks for. The word may reach two bytes past
// the half's allocation but never into another page, and the loop writes those bytes back as it
// found them. Runs on clang's IR before it
// becomes SPIR-V, so that the SPIR-V holds only 32-bit atomics, which every consumer reads; and
// on the IR the translator reads from SPIR-V, before its OpenCL 1.2 lowering.
void lowerHalfAtomics(llvm::Module& module);

// SPIR-V's half atomic add (capability AtomicFloat16AddEXT of SPV_EXT_shader_atomic_float16_add)
// declared as the float one (AtomicFloat32AddEXT of SPV_EXT_shader_atomic_float_add), whose
// OpAtomicFAddEXT the translator reads for any float type: the module the translator reads once
// the validator has checked it as it was.
void declareHalfAtomicAddsAsFloatAdds(std::vector<uint32_t>& words);

}  // namespace loom::compiler
