#pragma once
// Half-precision arithmetic in float on the CPU.
#include "llvm/IR/Module.h"

namespace loom::compiler::cpu {

// x86 has no half arithmetic without AVX-512 FP16, and the x86 backend of LLVM 15 fails on some
// half vector operations it would have to widen itself (minnum on <8 x half> ends the process).
// Every half operation becomes the same operation in float between conversions, which F16C does
// in hardware: exact for comparisons, minimum, maximum, sign operations, rounding to integers and
// conversions from and to integers, and rounded once back to half for +, -, *, /, remainder and
// sqrt, which gives the correctly rounded half (float's 24 bits are more than twice half's 11
// plus 2, so the second rounding cannot err). fmuladd becomes a multiplication and an addition,
// each rounded to half, never a float fma rounded twice. Runs after optimization, which would
// narrow the float operations back to half.
void computeHalfInFloat(llvm::Module& module);

}  // namespace loom::compiler::cpu
