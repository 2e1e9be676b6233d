#pragma once
// Streaming variants of work-group functions: the same code with its vector stores to kernel
// buffers made non-temporal (`movntps` and kin), for launches that write more than caches keep.
// Such stores skip the read of each line a plain store first makes the cache do: a memory-bound
// triad moves a quarter less data.
#include <string>

#include "llvm/IR/Module.h"

namespace loom::compiler::cpu {

// The symbol of the streaming variant of the work-group function `workGroupFunction`.
std::string streamingVariantName(const std::string& workGroupFunction);

// Adds a streaming variant next to each optimized work-group function that stores vectors to
// kernel buffers it does not read (a line read is in the cache already) and has no atomics, fences or calls that write memory (non-temporal stores are
// ordered by none of those on x86). Each such store checks its address: an aligned one streams,
// any other stays a plain store. The variant fences its stores before it returns, so that the
// runtime's signal that a launch is done orders them.
void addStreamingVariants(llvm::Module& module);

}  // namespace loom::compiler::cpu
