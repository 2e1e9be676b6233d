#pragma once
// Work-group functions of kernels with reqd_work_group_size, specialized for that size: the
// group's size becomes a constant (work-item loops of known trip counts, frame arrays at known
// offsets), which lets the optimizer unroll and vectorize them as it would a fixed-size loop nest.
#include <array>
#include <cstdint>

#include "llvm/IR/Function.h"

namespace loom::compiler::cpu {

// Makes the finished work-group function `workGroupFunction` read the group's local size and
// enqueued local size as `size`. With `otherSizes`, a check on entry first hands groups of
// another size (the smaller last groups of a non-uniform range) to an unoptimized copy of the
// general code; without, the function runs groups of `size` only.
void specializeForGroupSize(llvm::Function& workGroupFunction, const std::array<uint32_t, 3>& size, bool otherSizes);

}  // namespace loom::compiler::cpu
