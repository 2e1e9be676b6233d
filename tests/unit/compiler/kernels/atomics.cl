// OpenCL 1.x and C11 atomics on global and local memory.

kernel void legacy_atomics(global int* counter, global int* maximum, global uint* exchanged, global long* wide,
                           global int* group_totals) {
  local int group_count;
  if (get_local_id(0) == 0) group_count = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(counter);
  atomic_max(maximum, (int)get_global_id(0));
  atomic_cmpxchg(exchanged, 0u, 7u);
  atom_add(wide, 1L << 33);
  atomic_add(&group_count, 2);
  atomic_sub(&group_count, 1);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) group_totals[get_group_id(0)] = group_count;
}

kernel void c11_atomics(global atomic_int* counter, global atomic_long* wide, global atomic_int* flag, global int* group_totals,
                        global int* loaded) {
  local atomic_int group_count;
  if (get_local_id(0) == 0) atomic_init(&group_count, 0);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  atomic_fetch_add(counter, 1);
  atomic_fetch_add_explicit(wide, 3L << 32, memory_order_relaxed, memory_scope_device);
  int expected = 0;
  atomic_compare_exchange_strong(flag, &expected, (int)get_global_id(0) + 1);
  atomic_fetch_add_explicit(&group_count, 1, memory_order_relaxed, memory_scope_work_group);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    group_totals[get_group_id(0)] = atomic_load(&group_count);
    atomic_store(&group_count, 0);
    loaded[get_group_id(0)] = atomic_load_explicit(&group_count, memory_order_acquire);
  }
}
