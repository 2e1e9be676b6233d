// The work-item record that every test layer checks: the compiler's tests and the Level Zero API
// tests include this file (work_items.cl, api_kernels.cl), the OpenCL API tests build it from
// source.

// One record of 27 values per work-item, at its global linear id: for each dimension the global
// id, local id, group id, local size, enqueued local size, global size, group count and offset,
// then the work dimension and the local and global linear ids.
kernel void work_item_ids(global ulong* out) {
  global ulong* record = out + get_global_linear_id() * 27;
  for (uint d = 0; d < 3; ++d) {
    record[d] = get_global_id(d);
    record[3 + d] = get_local_id(d);
    record[6 + d] = get_group_id(d);
    record[9 + d] = get_local_size(d);
    record[12 + d] = get_enqueued_local_size(d);
    record[15 + d] = get_global_size(d);
    record[18 + d] = get_num_groups(d);
    record[21 + d] = get_global_offset(d);
  }
  record[24] = get_work_dim();
  record[25] = get_local_linear_id();
  record[26] = get_global_linear_id();
}
