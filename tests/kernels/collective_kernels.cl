// Work-group collective functions for the API tests (Level Zero through SPIR-V): five results per
// work-item, in blocks of the launch's work-item count, indexed by global linear id.
kernel void group_collectives(global const int* in, global long* out, global float* maxima) {
  size_t i = get_global_linear_id(), n = get_global_size(0) * get_global_size(1) * get_global_size(2);
  int x = in[i];
  out[i] = work_group_reduce_add(x);
  out[n + i] = work_group_scan_exclusive_add((long)x);
  out[2 * n + i] = work_group_scan_inclusive_min(x);
  // The group's last work-item in x and z, first in y.
  out[3 * n + i] = work_group_broadcast(x, get_local_size(0) - 1, 0, get_local_size(2) - 1);
  out[4 * n + i] = work_group_all(x > -50) + 2 * work_group_any(x > 95);
  maxima[i] = work_group_reduce_max(0.5f * (float)x);
}
