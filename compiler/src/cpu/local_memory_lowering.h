#pragma once
// __local variables (address space 3 globals) become offsets into the work-group's local arena.
#include <cstdint>

#include "llvm/IR/Function.h"

namespace loom::compiler::cpu {

// Replaces every __local variable `function` uses with `localMemory + offset` (computed at the
// end of `entry`); returns the bytes they take, which the runtime reserves first in the arena.
uint32_t lowerLocalVariables(llvm::Function& function, llvm::BasicBlock& entry, llvm::Value* localMemory);

// Rewrites constant expressions over `constant` used by instructions of `function` as
// instructions, so that `constant` can be replaced there.
void expandConstantExpressionUses(llvm::Constant* constant, llvm::Function& function);

}  // namespace loom::compiler::cpu
