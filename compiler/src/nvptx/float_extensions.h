#pragma once
// Widening conversions of loaded float vectors, which the NVPTX backend of LLVM 15 folds into
// vector loads that ptxas rejects.
#include "llvm/IR/Module.h"

namespace loom::compiler::nvptx {

// Rewrites each fpext of a loaded vector (float8 to double8, as convert_double16(vload_half16)
// makes) into one fpext per component. Whole, the backend makes it an extending load of eight or
// sixteen floats that it emits as `ld.v2.f32` into f64 registers ("Arguments mismatch for
// instruction 'ld'"); per component it loads the floats and converts each with cvt.f64.f32.
void scalarizeLoadedFloatExtensions(llvm::Module& module);

}  // namespace loom::compiler::nvptx
