// Work-group kernels that every test layer runs: the compiler's tests and the Level Zero API tests
// include this file (barriers.cl, api_kernels.cl), the OpenCL API tests build it from source.

// A tree reduction over the group: barriers inside a loop, local memory passed by size.
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
