#pragma once
// Atomics on __local memory become plain read-modify-writes on the CPU.
#include "llvm/IR/Function.h"

namespace loom::compiler::cpu {

// A group's __local arena belongs to the one thread that runs all of the group's work-items, one
// after another and never interleaved between barriers, so no other thread can see a local
// atomic half done: lock-prefixed instructions there only cost time.
void lowerLocalAtomics(llvm::Function& function);

}  // namespace loom::compiler::cpu
