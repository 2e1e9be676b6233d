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

// Non-uniform functions among the work-items whose input is not 0; the others skip them.
#define kNonUniformRecord 12
kernel void non_uniform(global const int* in, global int* out) {
  const size_t i = get_global_id(0);
  const int x = in[i];
  if (x == 0) return;
  global int* record = out + i * kNonUniformRecord;
  record[0] = sub_group_elect();
  record[1] = sub_group_non_uniform_all(x > 0);
  record[2] = sub_group_non_uniform_any(x > 5);
  record[3] = sub_group_non_uniform_all_equal(x);
  record[4] = sub_group_ballot(x > 2).x;
  record[5] = sub_group_broadcast_first(x);
  record[6] = sub_group_non_uniform_reduce_add(x);
  record[7] = sub_group_non_uniform_scan_inclusive_max(x);
  record[8] = sub_group_non_uniform_scan_exclusive_add(x);
  record[9] = sub_group_non_uniform_reduce_xor(x);
  record[10] = sub_group_non_uniform_scan_inclusive_logical_and(x > 2);
  record[11] = sub_group_clustered_reduce_add(x, 2);
}

// The ballot functions on given ballots (every work-item takes part), and the masks.
#define kBallotRecord 13
kernel void ballots(global const uint4* in, global uint* out) {
  const size_t i = get_global_id(0);
  const uint4 value = in[i];
  global uint* record = out + i * kBallotRecord;
  record[0] = sub_group_inverse_ballot(value);
  record[1] = sub_group_ballot_bit_extract(value, i % 37);
  record[2] = sub_group_ballot_bit_count(value);
  record[3] = sub_group_ballot_inclusive_scan(value);
  record[4] = sub_group_ballot_exclusive_scan(value);
  record[5] = sub_group_ballot_find_lsb(value | (uint4)(1, 0, 0, 0));
  record[6] = sub_group_ballot_find_msb(value | (uint4)(1, 0, 0, 0));
  const uint4 eq = get_sub_group_eq_mask(), ge = get_sub_group_ge_mask(), gt = get_sub_group_gt_mask();
  const uint4 le = get_sub_group_le_mask(), lt = get_sub_group_lt_mask();
  record[7] = eq.x, record[8] = ge.x, record[9] = gt.x, record[10] = le.x, record[11] = lt.x;
  const uint4 upper = eq | ge | gt | le | lt;
  record[12] = upper.y | upper.z | upper.w;
}

// cl_khr_subgroup_extended_types: 8- and 16-bit collectives and vector broadcasts. Intel's names
// for the narrow ones (cl_intel_subgroups_char and _short) stay calls by name in SPIR-V.
short OVL intel_sub_group_reduce_max(short);
uchar2 OVL intel_sub_group_broadcast(uchar2, uint);
#define kExtendedRecord 4
kernel void extended_types(global const char* c, global char* cOut, global const ushort* s, global ushort* sOut,
                           global const float4* f, global float4* fOut) {
  const size_t i = get_global_id(0);
  const uint last = get_sub_group_size() - 1;
  cOut[i * kExtendedRecord] = sub_group_reduce_add(c[i]);
  cOut[i * kExtendedRecord + 1] = sub_group_scan_inclusive_max(c[i]);
  cOut[i * kExtendedRecord + 2] = intel_sub_group_reduce_max((short)c[i]);
  cOut[i * kExtendedRecord + 3] = intel_sub_group_broadcast((uchar2)(c[i], 0), last).x;
  sOut[i * kExtendedRecord] = sub_group_reduce_min(s[i]);
  sOut[i * kExtendedRecord + 1] = sub_group_scan_exclusive_add(s[i]);
  sOut[i * kExtendedRecord + 2] = sub_group_non_uniform_reduce_mul(s[i]);
  sOut[i * kExtendedRecord + 3] = sub_group_broadcast(s[i], last);
  fOut[i] = sub_group_broadcast(f[i], last);
}

// Intel's block reads and writes (SPV_INTEL_subgroups' OpSubgroupBlockRead/WriteINTEL), of every
// element type, from the block of this work-item's sub-group: the groups are made of full sub-groups.
uint4 OVL intel_sub_group_block_read4(const global uint*);
ushort8 OVL intel_sub_group_block_read_us8(const global ushort*);
uchar16 OVL intel_sub_group_block_read_uc16(const global uchar*);
ulong2 OVL intel_sub_group_block_read_ul2(const global ulong*);
uint2 OVL intel_sub_group_block_read2(const local uint*);
void OVL intel_sub_group_block_write4(global uint*, uint4);
void OVL intel_sub_group_block_write_us8(global ushort*, ushort8);
void OVL intel_sub_group_block_write_uc16(global uchar*, uchar16);
void OVL intel_sub_group_block_write_ul2(global ulong*, ulong2);
void OVL intel_sub_group_block_write2(local uint*, uint2);
uint OVL intel_sub_group_block_read(const local uint*);
size_t firstOfSubGroup(void) { return get_group_id(0) * get_local_size(0) + get_sub_group_id() * get_max_sub_group_size(); }
kernel void block_reads(global const uint* ui, global uint4* uiOut, global const ushort* us, global ushort8* usOut,
                        global const uchar* uc, global uchar16* ucOut, global const ulong* ul, global ulong2* ulOut) {
  const size_t i = get_global_id(0), first = firstOfSubGroup();
  uiOut[i] = intel_sub_group_block_read4(ui + first * 4);
  usOut[i] = intel_sub_group_block_read_us8(us + first * 8);
  ucOut[i] = intel_sub_group_block_read_uc16(uc + first * 16);
  ulOut[i] = intel_sub_group_block_read_ul2(ul + first * 2);
}
kernel void block_writes(global uint* ui, global ushort* us, global uchar* uc, global ulong* ul) {
  const size_t i = get_global_id(0), first = firstOfSubGroup();
  intel_sub_group_block_write4(ui + first * 4, (uint)i * 4 + (uint4)(0, 1, 2, 3));
  intel_sub_group_block_write_us8(us + first * 8, (ushort)(i * 8) + (ushort8)(0, 1, 2, 3, 4, 5, 6, 7));
  intel_sub_group_block_write_uc16(uc + first * 16, (uchar)(i * 16) + (uchar16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
  intel_sub_group_block_write_ul2(ul + first * 2, (ulong)i * 2 + (ulong2)(0, 1));
}
// Through local memory: each sub-group writes its block of pairs there and reads it back, one
// element per work-item.
kernel void local_block_io(global const uint2* in, global uint* out, local uint* scratch) {
  const size_t i = get_global_id(0);
  local uint* block = scratch + get_sub_group_id() * get_max_sub_group_size() * 2;
  intel_sub_group_block_write2(block, in[i]);
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  out[2 * i] = intel_sub_group_block_read(block);
  out[2 * i + 1] = intel_sub_group_block_read(block + get_max_sub_group_size());
}
