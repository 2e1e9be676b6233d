#pragma once
// A large program's CPU code is generated on several threads: its kernels' work-group functions
// and its exported functions are split into partitions, each optimized and compiled to an object
// of its own in an LLVM context of its own.
// The program's code is then the partitions' objects, each preceded by its size (a uint64_t),
// and the JIT loads them all into the program's library, where they resolve each other's symbols.
#include <cstdint>
#include <optional>
#include <vector>

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "loom/compiler/build_options.h"

namespace loom::compiler::cpu {

// The code of `module` (work-group functions and what they use, as keepOnly left it) in at most
// `threads` partitions; 0 threads means one per core, for modules large enough to gain from it.
// Variables are defined in the first partition only, each function in one.
llvm::Expected<std::vector<uint8_t>> generateCode(llvm::Module& module, const BuildOptions& options, unsigned threads, bool dumpIr);

// The objects of CPU code, or nullopt when the framing is broken or a part is not an ELF object.
std::optional<std::vector<llvm::StringRef>> objectsOf(const std::vector<uint8_t>& code);

}  // namespace loom::compiler::cpu
