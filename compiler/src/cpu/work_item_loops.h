#pragma once
// The two shapes a work-group function takes around the inlined kernel body [body ... tail]:
// a loop nest over local ids (no barriers), or a state machine over barrier regions.
#include <cstdint>

#include "llvm/IR/Function.h"

namespace loom::compiler::cpu {

// The current work-item's local id (i32 values usable anywhere in the body).
struct LocalIds {
  llvm::Value* x = nullptr;
  llvm::Value* y = nullptr;
  llvm::Value* z = nullptr;
};

// The part of a work-group function both shapes need: its blocks and the context argument.
struct WorkGroupBody {
  llvm::Function* function;
  llvm::BasicBlock* entry;  // per-group set-up; ends with a branch to `body`
  llvm::BasicBlock* body;   // first block of the inlined kernel
  llvm::BasicBlock* tail;   // where the kernel's returns arrive; holds only `ret void`
  llvm::Value* context;
};

// x innermost, so consecutive work-items are consecutive iterations for the vectorizer.
LocalIds buildWorkItemLoops(const WorkGroupBody& wg);

// Every barrier ends a region; all work-items run a region before any runs the next. Values
// live across a barrier, and all private variables, move to a frame per work-item at
// context->barrierFrame. Returns the frame size in bytes.
uint32_t buildBarrierStateMachine(const WorkGroupBody& wg, LocalIds& ids);

}  // namespace loom::compiler::cpu
