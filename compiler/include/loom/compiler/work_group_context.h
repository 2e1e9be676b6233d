#pragma once
// The launch ABI of the CPU target: the context of one work-group, shared by the runtime (which
// fills it) and the code the CPU target generates (which reads it). Its layout is an ABI: change
// both sides together. The NVPTX target's is nvptx_launch_abi.h.
#include <cstdint>

namespace loom::compiler {

// The CPU device's largest work-group; the compiler sizes per-group scratch areas by it.
constexpr uint32_t kMaxWorkGroupSize = 4096;

struct WorkGroupContext {
  uint32_t groupId[3];
  uint32_t localSize[3];          // this group's size: smaller for the last group of a non-uniform range
  uint32_t enqueuedLocalSize[3];
  uint32_t numGroups[3];
  uint64_t globalSize[3];
  uint64_t globalOffset[3];
  uint32_t workDim;
  // Consecutive groups along x, from groupId[0] on, that one call runs: all of localSize, with the
  // same y and z ids. At least 1.
  uint32_t groupRun;
  char* localMemory;   // static __local variables first, then local pointer arguments (their offsets)
  // KernelDescriptor::barrierFrameSize bytes per work-item of an enqueued group. It follows the
  // local memory, whose end it marks: the group's local memory is [localMemory, barrierFrame).
  char* barrierFrame;
};

// A kernel compiled for the CPU: runs every work-item of context->groupRun work-groups.
using WorkGroupFunction = void (*)(const void* argumentBuffer, const WorkGroupContext* context);

}  // namespace loom::compiler
