#pragma once
// Implicit barriers around a loop that is better vectorized across work-items than along itself.
#include "llvm/IR/Function.h"

namespace loom::compiler::cpu {

// A kernel without barriers whose innermost loop runs the same number of times for every
// work-item (known at run time only, or too many to unroll the loop fully) and only reads memory
// to accumulate a floating-point value (an n-body inner loop, a chain of multiply-adds)
// cannot be vectorized along the loop (that would reorder the sums) nor across work-items (the
// loop over work-items is not innermost). Barriers before the loop and at the end of each
// iteration turn it into barrier regions whose innermost loop is the one over work-items: every
// work-item runs one iteration before any runs the next. Without other barriers and with a
// uniform trip count, that changes no result. Returns whether barriers were added.
bool insertUniformLoopBarriers(llvm::Function& function, const llvm::BasicBlock& entry);

}  // namespace loom::compiler::cpu
