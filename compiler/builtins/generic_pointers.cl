// OpenCL C 2.0's generic address space functions: to_global, to_local, to_private (clang calls
// them __to_global and so on) and get_fence. The target answers which named address space a
// generic pointer points into (the CPU by its local memory and stack, NVPTX by isspacep).

// 1 for global memory, 3 for the work-group's local memory, 0 for the work-item's private memory:
// SPIR's address space numbers (compiler/src/builtin_library.h's PointerSpace); 2, constant, for
// memory none of the three (which to_global, to_local and to_private turn into NULL).
uint __loom_pointer_space(const generic void* pointer);

#define LOOM_SPACE_PRIVATE 0u
#define LOOM_SPACE_GLOBAL 1u
#define LOOM_SPACE_LOCAL 3u

global void* __to_global(generic void* pointer) {
  return __loom_pointer_space(pointer) == LOOM_SPACE_GLOBAL ? (global void*)pointer : NULL;
}
local void* __to_local(generic void* pointer) {
  return __loom_pointer_space(pointer) == LOOM_SPACE_LOCAL ? (local void*)pointer : NULL;
}
private void* __to_private(generic void* pointer) {
  return __loom_pointer_space(pointer) == LOOM_SPACE_PRIVATE ? (private void*)pointer : NULL;
}

// No fence flag names private memory: global's, a valid fence for any pointer, is its answer.
cl_mem_fence_flags OVL get_fence(const generic void* pointer) {
  return __loom_pointer_space(pointer) == LOOM_SPACE_LOCAL ? CLK_LOCAL_MEM_FENCE : CLK_GLOBAL_MEM_FENCE;
}
cl_mem_fence_flags OVL get_fence(generic void* pointer) { return get_fence((const generic void*)pointer); }
