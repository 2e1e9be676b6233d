#pragma once
// An LLVM module (typed pointers, spir64) to SPIR-V, as the OpenCL C frontend and the linker make it.
#include <cstdint>
#include <vector>

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

namespace loom::compiler {

// The translator rewrites `module` on the way.
llvm::Expected<std::vector<uint8_t>> writeSpirvModule(llvm::Module& module);

}  // namespace loom::compiler
