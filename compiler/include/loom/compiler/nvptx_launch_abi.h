#pragma once
// The launch ABI of the NVPTX target: the contract between the PTX the compiler makes and the
// CUDA backend that launches it, which both read from here (the CPU target's is
// work_group_context.h). Its layout is an ABI: change both sides together.
//
// A kernel has two PTX entries with the same parameters: `name`, whose threads outside the global
// range return at once, and `name` + kWholeGroupsEntrySuffix, which has no such check, takes the
// global offset as 0, and serves launches whose groups are all whole (the global size a multiple
// of the local size in each dimension) at offset 0, and the parts of such launches: the check is a chain of dependent parameter
// loads before the first memory access, which memory-bound kernels would otherwise pay for
// (docs/performance.md).
//
// A kernel's PTX entry takes, in order:
//   one parameter per descriptor argument, in the descriptor's order:
//     GlobalPointer, ConstantPointer  .u64  the device address
//     Value                           `size` bytes, the argument's bytes as set by the application
//     LocalPointer                    .u32  byte offset of the argument in dynamic shared memory
//   then one implicit parameter, an ImplicitLaunchParameters struct passed by value
//   (.param .align 8 .b8 [80]).
// Every entry starts with kGridDependencyWaitMarker, an inline-assembly PTX comment, before its
// first memory access: where a GPU that launches kernels early (backends/cuda/cuda_dependent_launch.h) puts
// `griddepcontrol.wait`, which the PTX that LLVM 15 writes (7.5, for sm_80) cannot have.
// Everything __local (static variables and local pointer arguments) lives in dynamic shared
// memory; its size is the launch's localMemorySize (core::KernelLaunch). Local ids and the
// enqueued local size come from the PTX special registers (%tid, %ntid).
//
// A launch may run in parts, one grid per GPU of a root device (implicit scaling,
// loom/core/launch_split.h): each grid is a box of the whole launch's groups, and every id a work-item
// sees is that of the whole launch. So a group's id is %ctaid plus the part's groupIdBase (0 for a
// launch that is no part: one add, no branch), and the group counts are numGroups, never %nctaid.
// globalSize and globalOffset are always the whole launch's.
#include <cstddef>
#include <cstdint>

namespace loom::compiler::nvptx {

struct ImplicitLaunchParameters {
  uint64_t globalOffset[3];
  uint64_t globalSize[3];  // may end inside the last group (OpenCL non-uniform work-groups)
  uint32_t workDim;
  uint32_t groupIdBase[3];  // the whole launch's id of this grid's group (0, 0, 0)
  uint32_t numGroups[3];    // the whole launch's group counts
};

constexpr char kWholeGroupsEntrySuffix[] = "__loom_whole_groups";

static_assert(sizeof(ImplicitLaunchParameters) == 80);
static_assert(alignof(ImplicitLaunchParameters) == 8);
static_assert(offsetof(ImplicitLaunchParameters, globalOffset) == 0);
static_assert(offsetof(ImplicitLaunchParameters, globalSize) == 24);
static_assert(offsetof(ImplicitLaunchParameters, workDim) == 48);
static_assert(offsetof(ImplicitLaunchParameters, groupIdBase) == 52);
static_assert(offsetof(ImplicitLaunchParameters, numGroups) == 64);

constexpr char kGridDependencyWaitMarker[] = "// loom: wait for the grids before";

// The most threads a block may have on every CUDA GPU (compute capability 2.0 and later); the
// compiler sizes per-group scratch areas in shared memory by it.
constexpr uint32_t kMaxThreadsPerBlock = 1024;

// PTX parameter size of a local pointer argument.
constexpr uint32_t kLocalPointerParameterSize = 4;

// Each function a program exports is a `.visible .func` (what another program's `.extern .func`
// links to), and has a `.visible .global .u64` named kFunctionAddressPrefix + its name that holds
// its device address: the host reads it for a function pointer (zeModuleGetFunctionPointer).
constexpr char kFunctionAddressPrefix[] = "__loom_address_of_";

}  // namespace loom::compiler::nvptx
