#pragma once
// PTX from a module of kernel entries: retargeting, optimization, assembly text.
#include <string>
#include <vector>

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

namespace loom::compiler::nvptx {

// sm_80 PTX: the CUDA driver JIT-compiles it for every newer GPU too (LLVM 15 knows no sm_90).
// PTX ISA 7.5 needs a driver of CUDA 11.5 or later.
inline constexpr const char* kTriple = "nvptx64-nvidia-cuda";
inline constexpr const char* kProcessor = "sm_80";
inline constexpr const char* kFeatures = "+ptx75";

// Moves a SPIR module (spir64 triple and address spaces, SPIR calling conventions) onto NVPTX and
// answers the builtin library's question of a generic pointer's space (pointer_spaces.h).
llvm::Error retargetToNvptx(llvm::Module& module);

// Optimizes (O3) and returns NUL-terminated PTX text. Fails, rather than letting LLVM abort the
// process, on what the NVPTX backend of LLVM 15 cannot select, and routes the casts between named
// address spaces it cannot select through generic (pointer_spaces.h). The functions of `imports` stay
// `.extern .func` declarations, for the CUDA linker to resolve (zeModuleDynamicLink).
llvm::Expected<std::vector<uint8_t>> generatePtx(llvm::Module& module, const std::vector<std::string>& imports, bool dumpIr);

}  // namespace loom::compiler::nvptx
