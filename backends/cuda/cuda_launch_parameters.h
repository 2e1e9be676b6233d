#pragma once
// The contract between the NVPTX code the compiler makes and the CUDA backend that launches it.
// It depends on nothing but <cstdint> so that the compiler can include it too.
//
// A kernel's PTX entry takes, in order:
//   one parameter per descriptor argument, in the descriptor's order:
//     GlobalPointer, ConstantPointer  .u64  the device address
//     Value                           `size` bytes, the argument's bytes as set by the application
//     LocalPointer                    .u32  byte offset of the argument in dynamic shared memory
//   then one implicit parameter, an ImplicitLaunchParameters struct passed by value
//   (.param .align 8 .b8 [64]).
// Everything __local (static variables and local pointer arguments) lives in dynamic shared
// memory; its size is KernelLaunch::localMemorySize. Group ids, local ids and group counts come
// from the PTX special registers (%ctaid, %tid, %nctaid).
#include <cstddef>
#include <cstdint>

namespace loom::backends::cuda {

struct ImplicitLaunchParameters {
  uint64_t globalOffset[3];
  uint64_t globalSize[3];          // may end inside the last group (OpenCL non-uniform work-groups)
  uint32_t enqueuedLocalSize[3];   // %ntid; the last group's local size is derived from globalSize
  uint16_t workDim;
  uint16_t flags;                  // kWholeGroups
};

// Every group is whole (the global size is a multiple of the local size in each dimension): the
// kernel entry then skips the per-thread check that the thread is inside the global range.
constexpr uint16_t kWholeGroups = 1;

static_assert(sizeof(ImplicitLaunchParameters) == 64);
static_assert(alignof(ImplicitLaunchParameters) == 8);
static_assert(offsetof(ImplicitLaunchParameters, globalOffset) == 0);
static_assert(offsetof(ImplicitLaunchParameters, globalSize) == 24);
static_assert(offsetof(ImplicitLaunchParameters, enqueuedLocalSize) == 48);
static_assert(offsetof(ImplicitLaunchParameters, workDim) == 60);
static_assert(offsetof(ImplicitLaunchParameters, flags) == 62);

// The most threads a block may have on every CUDA GPU (compute capability 2.0 and later); the
// compiler sizes per-group scratch areas in shared memory by it.
constexpr uint32_t kMaxThreadsPerBlock = 1024;

// PTX parameter size of a local pointer argument.
constexpr uint32_t kLocalPointerParameterSize = 4;

}  // namespace loom::backends::cuda
