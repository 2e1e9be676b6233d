#pragma once
// The scratch area of the builtin library's work-group collectives (builtins/work_group_collectives.cl).
#include <cstdint>

#include "llvm/IR/Module.h"

namespace loom::compiler {

// Makes each call of __loom_work_group_scratch() the address of one module-level __local array of
// `slots` 64-bit slots. The targets then lay it out with the kernels' static __local variables,
// in the per-group arena on the CPU and in shared memory on NVPTX; only kernels that use it get it.
void materializeWorkGroupScratch(llvm::Module& module, uint32_t slots);

}  // namespace loom::compiler
