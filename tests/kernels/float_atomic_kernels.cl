// cl_ext_float_atomics in real kernels: every work-item of the range on the same global
// locations, every work-item of a group on the same local ones. Shared by the Level Zero tests
// (as SPIR-V: OpAtomicFAddEXT, OpAtomicFMinEXT, OpAtomicFMaxEXT) and the OpenCL tests (as source);
// float_atomic_reference.h computes the results on the host.

// Each work-item: +1 on counter (writing the value it took), its value added to floats[0],
// taken into the minimum floats[1] and maximum floats[2], subtracted from doubles[0] and taken
// into doubles[1] and doubles[2]; in its group, added to a local float and taken into a local
// double minimum and maximum, which the group's first work-item writes to group_results.
kernel void float_atomic_sums(global const float* values, volatile global atomic_float* counter, global float* taken,
                              volatile global atomic_float* floats, volatile global atomic_double* doubles,
                              global double* group_results) {
  local atomic_float group_sum;
  local atomic_double group_extremes[2];
  const size_t i = get_global_id(0);
  const float value = values[i];
  if (get_local_id(0) == 0) {
    atomic_init(&group_sum, 0.0f);
    atomic_init(&group_extremes[0], value);
    atomic_init(&group_extremes[1], value);
  }
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  taken[i] = atomic_fetch_add_explicit(counter, 1.0f, memory_order_relaxed, memory_scope_device);
  atomic_fetch_add(&floats[0], value);
  atomic_fetch_min(&floats[1], value);
  atomic_fetch_max_explicit(&floats[2], value, memory_order_relaxed, memory_scope_device);
  atomic_fetch_sub_explicit(&doubles[0], (double)value, memory_order_relaxed, memory_scope_device);
  atomic_fetch_min_explicit(&doubles[1], (double)value, memory_order_relaxed);
  atomic_fetch_max(&doubles[2], (double)value);
  atomic_fetch_add_explicit(&group_sum, value, memory_order_relaxed, memory_scope_work_group);
  atomic_fetch_min_explicit(&group_extremes[0], (double)value, memory_order_relaxed, memory_scope_work_group);
  atomic_fetch_max_explicit(&group_extremes[1], (double)value, memory_order_relaxed, memory_scope_work_group);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    const size_t g = get_group_id(0);
    group_results[3 * g] = atomic_load_explicit(&group_sum, memory_order_relaxed, memory_scope_work_group);
    group_results[3 * g + 1] = atomic_load_explicit(&group_extremes[0], memory_order_relaxed, memory_scope_work_group);
    group_results[3 * g + 2] = atomic_load(&group_extremes[1]);
  }
}
