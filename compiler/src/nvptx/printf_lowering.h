#pragma once
// OpenCL's printf on NVPTX: calls to printf become calls to vprintf, the CUDA driver's device-side
// printf, whose output the driver prints when the work completes.
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

namespace loom::compiler::nvptx {

// The name the CUDA driver's JIT resolves as its printf.
constexpr const char* kVprintf = "vprintf";

// Rewrites every call printf(format, a, b, ...) into vprintf(format, &{a, b, ...}): the arguments
// stored one after another in a stack buffer, each aligned to its size, as vprintf reads them.
// Vector arguments (OpenCL's %v formats) have no vprintf equivalent: an error names them.
llvm::Error lowerPrintf(llvm::Module& module);

}  // namespace loom::compiler::nvptx
