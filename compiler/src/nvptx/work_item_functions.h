#pragma once
// Work-item functions and barriers of a kernel entry as PTX special registers, reads of the
// implicit launch parameters and bar.sync.
#include "llvm/IR/IRBuilder.h"

namespace loom::compiler::nvptx {

// Lowers every call of a work-item function or barrier in `entry`, into which everything the
// kernel calls has been inlined; `implicit` points to its ImplicitLaunchParameters. An entry for
// `wholeGroups` serves only launches of whole groups without a global offset: its global
// offset is 0. Returns whether there were barriers.
bool lowerWorkItemFunctions(llvm::Function& entry, llvm::Value* implicit, bool wholeGroups);

// Whether this thread is a work-item. The CUDA backend launches whole blocks, also for the smaller
// last group of a non-uniform range: the threads past the global size must not run the kernel.
// They exit, and an exited thread no longer holds up bar.sync.
llvm::Value* isWorkItem(llvm::IRBuilder<>& builder, llvm::Value* implicit);

}  // namespace loom::compiler::nvptx
