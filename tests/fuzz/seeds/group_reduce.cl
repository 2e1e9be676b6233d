// Seed: __local memory (static and by argument), barriers in a loop, a reqd_work_group_size.
kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void group_reduce(global const int* in, global int* sums, local int* scratch) {
  local int first;
  size_t l = get_local_id(0);
  scratch[l] = in[get_global_id(0)];
  if (l == 0) first = scratch[0];
  for (size_t stride = get_local_size(0) / 2; stride > 0; stride /= 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < stride) scratch[l] += scratch[l + stride];
  }
  if (l == 0) sums[get_group_id(0)] = scratch[0] - first;
}
