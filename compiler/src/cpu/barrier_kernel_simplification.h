#pragma once
// Kernels with barriers simplified before they become barrier regions.
#include <vector>

#include "llvm/IR/Module.h"

namespace loom::compiler::cpu {

// Every private variable and every value that lives across a barrier of a kernel run as barrier
// regions goes to the per-work-item frames, and a loop inside a region keeps the region's loop
// over work-items from being innermost, which the vectorizer needs. Tuned kernels (CLBlast's GEMM)
// keep their tiles in private arrays indexed by short loops of a constant trip count: unrolling
// those loops fully turns the arrays into values (registers) and leaves fewer loops inside the
// regions. Barriers become convergent first, so that no pass moves them across control flow.
void simplifyBarrierKernels(llvm::Module& module, const std::vector<llvm::Function*>& kernels);

}  // namespace loom::compiler::cpu
