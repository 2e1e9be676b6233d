// Kernels with barriers: in loops, in uniform branches, in called functions; __local memory
// static and by argument.

// A reduction with barriers in a loop, and one with a barrier in a called function.
#include "../../../kernels/work_group_kernels.cl"

// Two static arrays and a local pointer argument, private values live across barriers, and a
// barrier in a branch every work-item takes the same way.
kernel void rotate_twice(global int* data, local int* extra, int uniform) {
  local int first[32];
  local short second[32];
  size_t l = get_local_id(0), n = get_local_size(0);
  int mine = data[get_global_id(0)];
  int privateArray[4] = {mine, mine + 1, mine + 2, mine + 3};
  first[l] = mine;
  barrier(CLK_LOCAL_MEM_FENCE);
  second[l] = (short)first[(l + 1) % n];
  if (uniform > 0) {
    barrier(CLK_LOCAL_MEM_FENCE);
    extra[l] = second[(l + 1) % n];
    barrier(CLK_LOCAL_MEM_FENCE);
  } else {
    extra[l] = 0;
  }
  data[get_global_id(0)] = extra[l] * 1000 + privateArray[uniform & 3] - mine;
}

// Private vectors wider than 16 bytes live in the frame across the barrier: each work-item's
// frame must keep their alignment.
kernel void wide_privates(global float8* data) {
  size_t g = get_global_id(0);
  float8 keep[2] = {data[g], data[g] * 2.0f};
  barrier(CLK_GLOBAL_MEM_FENCE);
  data[g] = keep[0] + keep[1];
}
