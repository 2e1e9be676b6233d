#pragma once
// 64-bit rotates in PTX's terms.
#include "llvm/IR/Module.h"

namespace loom::compiler::nvptx {

// Rotates of 64-bit integers (llvm.fshl and llvm.fshr with both operands the same, scalar or
// vector) as two 32-bit funnel shifts (shf.l.wrap.b32) of the halves, swapped first where the
// amount modulo 64 is 32 or more. LLVM 15's NVPTX backend selects a 64-bit rotate as shl.b64 by
// the amount and shr.b64 by 64 minus it, without reducing the amount modulo 64 (and drops an
// `and` that does, as a rotate reads only the amount's low bits): rotate(x, 64 + n) came out 0.
// Its llvm.nvvm.rotate.b64 is two funnel shifts that wrap the amount modulo 32, wrong from 32 on.
void lowerWideRotates(llvm::Module& module);

}  // namespace loom::compiler::nvptx
