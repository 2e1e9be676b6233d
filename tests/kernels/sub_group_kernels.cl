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

// OpGroupNonUniform* among the work-items with odd input, and OpSubgroupBlockReadINTEL /
// OpSubgroupBlockWriteINTEL of the sub-group's block (one element per work-item).
uint2 OVL intel_sub_group_block_read2(const global uint*);
void OVL intel_sub_group_block_write2(global uint*, uint2);
#define kNonUniformRecord 6
kernel void non_uniform_and_blocks(global const int* in, global int* out, global const uint* words, global uint* copy) {
  const size_t i = get_global_id(0);
  const size_t first = get_group_id(0) * get_local_size(0) + get_sub_group_id() * get_max_sub_group_size();
  intel_sub_group_block_write2(copy + first * 2, intel_sub_group_block_read2(words + first * 2));
  const int x = in[i];
  if (x % 2 == 0) return;
  global int* record = out + i * kNonUniformRecord;
  record[0] = sub_group_elect();
  record[1] = sub_group_ballot(x > 10).x;
  record[2] = sub_group_broadcast_first(x);
  record[3] = sub_group_non_uniform_reduce_add(x);
  record[4] = sub_group_non_uniform_scan_exclusive_min(x);
  record[5] = sub_group_non_uniform_all_equal(x) * 10 + sub_group_non_uniform_any(x > 40);
}
