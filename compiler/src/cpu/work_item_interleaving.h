#pragma once
// Work-items whose computations run side by side: for kernels that keep vectors wider than the
// vectorizer's (float16), whose work-items the vectorizer cannot widen across. Each work-item of
// such a kernel may be one long chain of dependent operations (clpeak's mad chains), which one
// after another keep the arithmetic units waiting on each operation's latency; the work-item loop
// instead runs several work-items per iteration with their instructions alternating, so that
// their chains overlap.
#include <vector>

#include "llvm/IR/Module.h"
#include "llvm/Target/TargetMachine.h"
#include "work_item_loops.h"

namespace loom::compiler::cpu {

// Before optimization: the parallel region loops among `loops` are to be interleaved (which LLVM's
// unroller then leaves to interleaveWorkItems: its copies would run one after another).
void markForWorkItemInterleaving(const std::vector<RegionLoop>& loops);

// After optimization: each marked loop whose one block holds a long chain of dependent
// floating-point operations runs several work-items per iteration (as many as the vector
// registers hold the values of, up to kMostInterleavedWorkItems), their instructions alternating;
// the rest of the range runs in a loop of one work-item per iteration.
void interleaveWorkItems(llvm::Module& module, llvm::TargetMachine& machine);

// The most work-items an interleaved loop runs side by side: with four, clpeak's float16 chains
// (two values of two 256-bit registers each per work-item) fill AVX2's sixteen registers and keep
// both FMA units busy.
constexpr unsigned kMostInterleavedWorkItems = 4;

}  // namespace loom::compiler::cpu
