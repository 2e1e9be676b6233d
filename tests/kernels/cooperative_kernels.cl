// Kernels of cooperative launches (zeCommandListAppendLaunchCooperativeKernel): their groups wait
// for each other, which only works where all of them run at once.

// A grid barrier: the first work-item of each group counts its group in `arrived` and waits until
// every group has; then each work-item writes the count it sees into `seen`.
kernel void grid_barrier(global uint* arrived, global uint* seen) {
  if (get_local_id(0) == 0) {
    atomic_inc(arrived);
    while (atomic_add(arrived, 0) < get_num_groups(0)) {
    }
  }
  barrier(CLK_GLOBAL_MEM_FENCE);
  seen[get_global_id(0)] = atomic_add(arrived, 0);
}

// Intel's global_barrier(), which Loom's builtin library provides (level-zero-tests'
// cooperative kernels call it): the rows of Pascal's triangle, one per step, each element read
// from its neighbours in other groups after every group wrote the row before.
void global_barrier(void);
kernel void pascal_rows(global ulong* row, int rows) {
  const size_t x = get_global_id(0);
  for (int i = 0; i <= rows; ++i) {
    ulong value = row[x];
    if (x == 0 || x == i)
      value = 1;
    else if (x < i)
      value = row[x - 1] + row[x];
    global_barrier();
    row[x] = value;
    global_barrier();
  }
}
