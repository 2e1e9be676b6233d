#pragma once
// Host x86-64 code from a module of work-group functions: retargeting, optimization, object file.
#include <vector>

#include "loom/compiler/build_options.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

namespace loom::compiler::cpu {

// The widest vectors the optimizer makes (see preferVectorsOf256Bits).
constexpr unsigned kPreferredVectorBits = 256;
// The narrowest vectors that fill a register (SSE's): float4, int4, double2.
constexpr unsigned kRegisterVectorBits = 128;

// Moves a SPIR module (spir64 triple, SPIR calling conventions) onto the host target.
llvm::Error retargetToHost(llvm::Module& module);

// Optimizes and returns a relocatable object for the host CPU.
llvm::Expected<std::vector<uint8_t>> generateObject(llvm::Module& module, const BuildOptions& options, bool dumpIr);

}  // namespace loom::compiler::cpu
