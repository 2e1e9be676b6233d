#pragma once
// A PTX entry per kernel, taking its parameters as loom/compiler/nvptx_launch_abi.h says,
// with everything the kernel calls inlined into it.
#include <vector>

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "loom/compiler/kernel_descriptor.h"

namespace loom::compiler::nvptx {

// Replaces each kernel with an entry of the kernel's name and lowers work-item functions,
// barriers and __local memory in it: static __local variables first, then the local pointer
// arguments, all in one dynamic shared memory array. Sets each descriptor's
// staticLocalMemorySize and hasBarriers.
llvm::Error buildKernelEntries(llvm::Module& module, std::vector<KernelDescriptor>& kernels);

}  // namespace loom::compiler::nvptx
