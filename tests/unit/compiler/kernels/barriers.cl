// Kernels with barriers: in loops, in uniform branches, in called functions; __local memory
// static and by argument.

// A tree reduction over the group, barriers inside the loop.
kernel void reduce_in_groups(global const int* in, global int* sums, local int* scratch) {
  size_t l = get_local_id(0);
  scratch[l] = in[get_global_id(0)];
  for (size_t stride = get_local_size(0) / 2; stride > 0; stride /= 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < stride) scratch[l] += scratch[l + stride];
  }
  if (l == 0) sums[get_group_id(0)] = scratch[0];
}

// A barrier in a non-kernel function: each group's slice reversed through a static __local array.
void exchange(local int* tile, size_t l, size_t n, global int* data, size_t g) {
  tile[l] = data[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  data[g] = tile[n - 1 - l];
}
kernel void reverse_in_groups(global int* data) {
  local int tile[64];
  exchange(tile, get_local_id(0), get_local_size(0), data, get_global_id(0));
}

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
