#pragma once
// The launch ABI of the CPU target: the context of one work-group, shared by the runtime (which
// fills it) and the code the CPU target generates (which reads it). Its layout is an ABI: change
// both sides together. The NVPTX target's is nvptx_launch_abi.h.
#include <cstdint>

namespace loom::compiler {

// The CPU device's largest work-group; the compiler sizes per-group scratch areas by it.
constexpr uint32_t kMaxWorkGroupSize = 4096;

// The elements of each array of a group's barrier frames: one per work-item and 16 more, so that
// in a group of a power-of-two size from 32 on no two arrays of elements up to 128 bytes start a
// multiple of 4 KiB apart, and arrays of floats still start on cache lines. A vectorized region
// loop reads one element of every array at a time; arrays a whole number of pages apart (a group
// of 4096 float values makes them 16 KiB apart) fall into the same sets of the L1 cache, which has
// fewer ways than a float8 kernel has arrays: ze_peak's float8 ran at a third of its float4 so.
constexpr uint64_t kBarrierFramePaddingItems = 16;
constexpr uint64_t barrierFrameElements(uint64_t workItems) { return workItems + kBarrierFramePaddingItems; }

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
  // KernelDescriptor::barrierFrameSize bytes per element of barrierFrameElements(the enqueued
  // group's work-items). It follows the local memory, whose end it marks: the group's local memory
  // is [localMemory, barrierFrame).
  char* barrierFrame;
};

// A kernel compiled for the CPU: runs every work-item of context->groupRun work-groups.
using WorkGroupFunction = void (*)(const void* argumentBuffer, const WorkGroupContext* context);

}  // namespace loom::compiler
