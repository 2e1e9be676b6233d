// Kernels that fault or never end, for the tests of how a device survives them.

// Each work-item stores `distance` elements past its own: far out of bounds for a large distance.
kernel void store_far(global int* data, ulong distance) { data[get_global_id(0) + distance] = 1; }

// Spins until the host sets *flag, then counts itself in *done: a kernel that runs as long as
// the test wants.
kernel void spin_until_set(global int* flag, global int* done) {
  while (atomic_add(flag, 0) == 0) {
  }
  atomic_inc(done);
}
