#pragma once
// Kernel descriptors from a translated SPIR-V module: arguments, argument buffer layout and the
// attributes the kernel declares. Resource sizes are filled in by the target.
#include <vector>

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "loom/compiler/kernel_descriptor.h"

namespace loom::compiler {

bool isKernel(const llvm::Function& function);
// Why `kernel` cannot run for an image it takes (a multisampled one), or empty.
std::string unsupportedImageArgument(const llvm::Function& kernel);
// `sourceTypeHint`, when not empty, is the kernel's vec_type_hint as its OpenCL C source wrote it
// (SPIR-V's VecTypeHint has no signedness).
llvm::Expected<KernelDescriptor> describeKernel(const llvm::Function& kernel, const std::string& sourceTypeHint = {});
// A kernel's vec_type_hint type from clang's metadata, whose integers carry their signedness.
std::string sourceVectorTypeHint(const llvm::Function& kernel);
// Program-scope globals, exported and imported functions.
void describeProgramSymbols(const llvm::Module& module, ProgramInfo& info);

}  // namespace loom::compiler
