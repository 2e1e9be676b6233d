#pragma once
// Where a launch's __local pointer arguments lie in the work-group's local arena: part of the
// launch ABI of every target, which the runtime writes and the kernels' code reads.
#include <cstdint>
#include <span>

#include "loom/compiler/kernel_descriptor.h"

namespace loom::compiler {

// Alignment of each __local pointer argument inside the arena: enough for the widest OpenCL type
// (double16, long16).
constexpr uint32_t kLocalArgumentAlignment = 128;

// Lays out the arena of a launch of `kernel`: its static __local variables first, then each
// __local pointer argument i, aligned to kLocalArgumentAlignment and localSizes[i] bytes long (the
// sizes of other arguments are not read). Writes each such argument's offset into its 8-byte slot
// of `argumentBuffer` and returns the arena's size: UINT64_MAX when the sizes, which come from the
// application, add up past it.
uint64_t layOutLocalArguments(const KernelDescriptor& kernel, std::span<const uint64_t> localSizes, uint8_t* argumentBuffer);

}  // namespace loom::compiler
