// Seed: the simplest kernel, work-item builtins and global memory.
kernel void vector_add(global const float* a, global const float* b, global float* sum) {
  size_t i = get_global_id(0);
  sum[i] = a[i] + b[i];
}
