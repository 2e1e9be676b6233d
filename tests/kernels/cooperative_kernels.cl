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
