// Kernels of the implicit scaling tests (tests/api and tests/opencl): on a root device over tiles
// each launch is split among the tiles, and these show what its work-items see and share.

#define RECORD_WORDS 16

// Every work-item writes the ids it sees at its place in the launch: global id, group id, number
// of groups, global offset and global size per dimension, then its local ids plus one.
kernel void record_ids(global uint* records) {
  const size_t x = get_global_id(0) - get_global_offset(0);
  const size_t y = get_global_id(1) - get_global_offset(1);
  const size_t z = get_global_id(2) - get_global_offset(2);
  global uint* record = records + ((z * get_global_size(1) + y) * get_global_size(0) + x) * RECORD_WORDS;
  for (uint d = 0; d < 3; ++d) {
    record[d] = (uint)get_global_id(d);
    record[3 + d] = (uint)get_group_id(d);
    record[6 + d] = (uint)get_num_groups(d);
    record[9 + d] = (uint)get_global_offset(d);
    record[12 + d] = (uint)get_global_size(d);
  }
  record[15] = (uint)(get_local_id(0) + get_local_id(1) * 1000 + get_local_id(2) * 1000000) + 1;
}

// One counter that every work-item of every tile increments.
kernel void count_work_items(volatile global uint* counter) { atomic_inc(counter); }

kernel void write_squares(global uint* out) {
  const size_t i = get_global_id(0);
  out[i] = (uint)(i * i);
}

// Reads what the work-items at the other end wrote: on other tiles when the launches were split.
kernel void read_reversed(global const uint* in, global uint* out) {
  const size_t i = get_global_id(0);
  out[i] = in[get_global_size(0) - 1 - i] + 1;
}

kernel void increment(global uint* data) { data[get_global_id(0)] += 1; }

// The groups from `heldFrom` on wait until the host sets *release (for at most 2^32 polls, so that
// a broken test ends), then every work-item counts itself in *done.
kernel void hold_last_groups(volatile global uint* release, volatile global uint* done, uint heldFrom) {
  if (get_group_id(0) >= heldFrom) {
    for (ulong polls = 0; polls < 0xffffffffUL && atomic_add(release, 0u) == 0u; ++polls) {
    }
  }
  atomic_inc(done);
}
