// Sub-group functions for the Level Zero API tests, as SPIR-V: OpGroup* with sub-group scope,
// the SubgroupSize... built-in variables and Intel's OpSubgroupShuffle*INTEL.
#define OVL __attribute__((overloadable))
int OVL intel_sub_group_shuffle(int, uint);
int OVL intel_sub_group_shuffle_down(int, int, uint);
int OVL intel_sub_group_shuffle_xor(int, uint);

#define kRecord 10
kernel void sub_groups(global const int* in, global int* out) {
  const size_t i = get_global_id(0);
  const uint size = get_sub_group_size(), id = get_sub_group_local_id();
  const int x = in[i];
  global int* record = out + i * kRecord;
  record[0] = size;
  record[1] = get_max_sub_group_size();
  record[2] = get_num_sub_groups();
  record[3] = get_sub_group_id();
  record[4] = id;
  record[5] = sub_group_reduce_add(x);
  record[6] = sub_group_scan_inclusive_max(x);
  record[7] = intel_sub_group_shuffle(x, (id + 1) % size);
  // The next work-item's value, from `-x` past the end of the window.
  record[8] = intel_sub_group_shuffle_down(x, -x, 1);
  record[9] = intel_sub_group_shuffle_xor(x, get_max_sub_group_size() > 1 ? 1 : 0);
}
