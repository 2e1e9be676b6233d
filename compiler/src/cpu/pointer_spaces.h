#pragma once
// The CPU target's answer to the builtin library's __loom_pointer_space (compiler/builtins/generic_pointers.cl):
// which named address space a generic pointer points into, by where the address lies.
#include <cstdint>

#include "llvm/IR/Function.h"

namespace loom::compiler::cpu {

// Whether `name` is __loom_pointer_space or a builtin the library makes of it (to_global, to_local,
// to_private, get_fence): their callers need the group's context, so kernels inline them
// (functionsUsingWorkItemState).
bool asksPointerSpace(llvm::StringRef name);

// Replaces each call of __loom_pointer_space in the work-group function `function`, whose context
// argument is `context` and whose work-items keep `frameSize` bytes each in the barrier frames:
// local (3) inside the group's local memory, private (0) inside the function's own stack frame
// (everything is inlined into it) or a work-item's barrier frame, global (1) otherwise.
void lowerPointerSpaces(llvm::Function& function, llvm::Value* context, uint32_t frameSize);

}  // namespace loom::compiler::cpu
