#pragma once
// Kernel descriptors from a translated SPIR-V module: arguments, argument buffer layout and the
// attributes the kernel declares. Resource sizes are filled in by the target.
#include <vector>

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "loom/compiler/kernel_descriptor.h"

namespace loom::compiler {

bool isKernel(const llvm::Function& function);
llvm::Expected<KernelDescriptor> describeKernel(const llvm::Function& kernel);
// Program-scope globals, exported and imported functions.
void describeProgramSymbols(const llvm::Module& module, ProgramInfo& info);

}  // namespace loom::compiler
