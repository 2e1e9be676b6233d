// Sub-group functions (cl_khr_subgroups, cl_khr_subgroup_shuffle(_relative), Intel's shuffles).
// Written for any sub-group size: the tests compute what to expect from the sizes reported.

// OpenCL C declares Intel's shuffles only with cl_intel_subgroups; SPIR-V has them as
// OpSubgroupShuffle*INTEL (SPV_INTEL_subgroups).
#define OVL __attribute__((overloadable))
int OVL intel_sub_group_shuffle(int, uint);
int OVL intel_sub_group_shuffle_xor(int, uint);
int OVL intel_sub_group_shuffle_down(int, int, uint);
int OVL intel_sub_group_shuffle_up(int, int, uint);
ulong OVL intel_sub_group_shuffle(ulong, uint);
float4 OVL intel_sub_group_shuffle_down(float4, float4, uint);

#define kQueryRecord 6
kernel void sub_group_queries(global uint* out) {
  global uint* record = out + get_global_linear_id() * kQueryRecord;
  record[0] = get_sub_group_size();
  record[1] = get_max_sub_group_size();
  record[2] = get_num_sub_groups();
  record[3] = get_enqueued_num_sub_groups();
  record[4] = get_sub_group_id();
  record[5] = get_sub_group_local_id();
}

// Per work-item: reduce, inclusive and exclusive scan for add, min and max, then a broadcast of
// the sub-group's first value.
#define kCollectiveRecord 10
#define COLLECTIVES(T)                                                   \
  kernel void collectives_##T(global const T* in, global T* out) {       \
    const size_t i = get_global_id(0);                                   \
    const T x = in[i];                                                   \
    global T* record = out + i * kCollectiveRecord;                      \
    record[0] = sub_group_reduce_add(x);                                 \
    record[1] = sub_group_reduce_min(x);                                 \
    record[2] = sub_group_reduce_max(x);                                 \
    record[3] = sub_group_scan_inclusive_add(x);                         \
    record[4] = sub_group_scan_inclusive_min(x);                         \
    record[5] = sub_group_scan_inclusive_max(x);                         \
    record[6] = sub_group_scan_exclusive_add(x);                         \
    record[7] = sub_group_scan_exclusive_min(x);                         \
    record[8] = sub_group_scan_exclusive_max(x);                         \
    record[9] = sub_group_broadcast(x, 0);                               \
  }
COLLECTIVES(int)
COLLECTIVES(uint)
COLLECTIVES(long)
COLLECTIVES(ulong)
COLLECTIVES(float)
COLLECTIVES(double)

kernel void votes(global const int* in, global int* out) {
  const size_t i = get_global_id(0);
  out[2 * i] = sub_group_all(in[i]);
  out[2 * i + 1] = sub_group_any(in[i]);
}

// Shuffles whose source exists for every sub-group size: the next work-item (cyclically), the
// xor and relative partners one away where the sub-group has them, else the work-item itself.
#define kShuffleRecord 8
kernel void shuffles(global const int* in, global int* out, global const ulong* wide, global ulong* wideOut,
                     global const float4* vectors, global float4* vectorsOut) {
  const size_t i = get_global_id(0);
  const uint size = get_sub_group_size(), id = get_sub_group_local_id();
  const uint step = get_max_sub_group_size() > 1 ? 1 : 0;
  const int x = in[i];
  global int* record = out + i * kShuffleRecord;
  record[0] = sub_group_shuffle(x, (id + 1) % size);
  record[1] = sub_group_shuffle_xor(x, step);
  record[2] = sub_group_shuffle_up(x, step);
  record[3] = sub_group_shuffle_down(x, step);
  record[4] = intel_sub_group_shuffle(x, (id + 1) % size);
  record[5] = intel_sub_group_shuffle_xor(x, step);
  // The window of current and next (previous and current): one further is the other operand.
  record[6] = intel_sub_group_shuffle_down(x, -x, 1);
  record[7] = intel_sub_group_shuffle_up(-x, x, 1);
  wideOut[i] = intel_sub_group_shuffle(wide[i], (id + 1) % size);
  vectorsOut[i] = intel_sub_group_shuffle_down(vectors[i], -vectors[i], 1);
}

// Exchange through local memory within each sub-group: no work-group barrier, so the CPU keeps
// its plain work-item loop (the kernel has no barrier regions).
kernel void sub_group_exchange(global const int* in, global int* out, local int* scratch) {
  const size_t i = get_global_id(0);
  const uint id = get_sub_group_local_id(), first = get_sub_group_id() * get_max_sub_group_size();
  scratch[first + id] = in[i];
  // Only some sub-groups reach this barrier: it must not be a work-group barrier.
  if (get_sub_group_id() % 2 == 0) sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  else sub_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_work_group);
  out[i] = scratch[first + (id + 1) % get_sub_group_size()];
}

// Sub-group functions in a kernel whose work-group barrier splits it into regions.
kernel void sub_groups_around_barrier(global const int* in, global int* out, local int* scratch) {
  const size_t lid = get_local_id(0), size = get_local_size(0);
  scratch[lid] = sub_group_reduce_add(in[get_global_id(0)]);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = scratch[size - 1 - lid] * 1000 + (int)get_sub_group_id();
}
