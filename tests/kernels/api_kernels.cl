// Kernels the Level Zero API tests run.

kernel void add_vectors(global const float* a, global const float* b, global float* sum) {
  size_t i = get_global_id(0);
  sum[i] = a[i] + b[i];
}

kernel void empty_kernel() {}

// work_item_ids: every work-item function, in a record of 27 values per work-item.
#include "work_item_kernels.cl"

// reduce_in_groups and reverse_in_groups: barriers in a loop and in a called function.
#include "work_group_kernels.cl"

// Work-items past n return before the barrier (undefined in OpenCL, common in real code): the
// others must still run the code after it.
kernel void early_exit_then_barrier(global int* data, int n) {
  local int first;
  if (get_global_id(0) >= (size_t)n) return;
  if (get_local_id(0) == 0) first = data[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  data[get_global_id(0)] = first + (int)get_local_id(0);
}

#include "mixed_t.h"

kernel void mixed_arguments(global double* out, mixed_t m, char c, short s, long l, float f, double d, uchar u) {
  out[0] = m.c + m.i + m.d + m.s;
  out[1] = c + s + l + f + d + u;
}

kernel void atomics(global int* counter, global int* maximum, global uint* exchanged, global int* group_totals) {
  local int group_count;
  if (get_local_id(0) == 0) group_count = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(counter);
  atomic_max(maximum, (int)get_global_id(0));
  atomic_cmpxchg(exchanged, 0u, 7u);
  atomic_add(&group_count, 1);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) group_totals[get_group_id(0)] = group_count;
}

kernel void math_functions(global const float* in, global float* out) {
  size_t i = get_global_id(0);
  float x = in[i];
  out[4 * i + 0] = sqrt(x);
  out[4 * i + 1] = exp(x);
  out[4 * i + 2] = sin(x);
  out[4 * i + 3] = pow(x, 1.5f);
}

kernel __attribute__((reqd_work_group_size(8, 1, 1))) void fixed_group(global int* out) {
  out[get_global_id(0)] = (int)get_local_size(0);
}

global int counter_global = 41;

kernel void increment_global(global int* out) { out[0] = ++counter_global; }

int exported_helper(int x) { return x * 3; }

kernel void call_helper(global int* out) { out[0] = exported_helper(14); }
