#pragma once
// Memory fences as PTX membar: the NVPTX backend of LLVM 15 cannot select LLVM's fence.
#include "llvm/IR/Module.h"

namespace loom::compiler::nvptx {

// Every fence (the builtin library's mem_fence, read_mem_fence, write_mem_fence) becomes
// membar.gl, which orders for every scope OpenCL C can name short of the host; single-thread
// fences (compiler barriers) go away.
void lowerFences(llvm::Module& module);

}  // namespace loom::compiler::nvptx
