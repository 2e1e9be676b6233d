// Group operations as SYCL compilers emit them: __spirv_Group* calls with Workgroup scope (2) and
// Reduce (0), InclusiveScan (1) or ExclusiveScan (2), on 8- and 16-bit integers too, with 32-bit
// and vector local ids. llvm-spirv makes them OpGroupIAdd, OpGroupSMin, OpGroupBroadcast...
#define OVL __attribute__((overloadable))
#define WORKGROUP 2
#define REDUCE 0
#define INCLUSIVE 1
#define EXCLUSIVE 2

char OVL __spirv_GroupIAdd(int scope, int operation, char x);
short OVL __spirv_GroupSMin(int scope, int operation, short x);
uchar OVL __spirv_GroupUMax(int scope, int operation, uchar x);
ushort OVL __spirv_GroupUMin(int scope, int operation, ushort x);
long OVL __spirv_GroupSMax(int scope, int operation, long x);
float OVL __spirv_GroupFMin(int scope, int operation, float x);
double OVL __spirv_GroupFAdd(int scope, int operation, double x);
bool OVL __spirv_GroupAll(int scope, bool predicate);
bool OVL __spirv_GroupAny(int scope, bool predicate);
int OVL __spirv_GroupBroadcast(int scope, int x, uint local_id);
int OVL __spirv_GroupBroadcast(int scope, int x, uint2 local_id);
int OVL __spirv_GroupBroadcast(int scope, int x, ulong3 local_id);
char OVL __spirv_GroupBroadcast(int scope, char x, ulong local_id);

// One result per operation, in blocks of the (one-dimensional) range's size.
kernel void small_integers(global const char* in, global int* out) {
  size_t i = get_global_id(0), n = get_global_size(0);
  char x = in[i];
  out[i] = __spirv_GroupIAdd(WORKGROUP, REDUCE, x);
  out[n + i] = __spirv_GroupSMin(WORKGROUP, INCLUSIVE, (short)x);
  out[2 * n + i] = __spirv_GroupUMax(WORKGROUP, EXCLUSIVE, (uchar)x);
  out[3 * n + i] = __spirv_GroupUMin(WORKGROUP, REDUCE, (ushort)x);
  out[4 * n + i] = __spirv_GroupBroadcast(WORKGROUP, x, 1ul);
}

kernel void wide_and_floating(global const long* in, global double* out) {
  size_t i = get_global_id(0), n = get_global_size(0);
  long x = in[i];
  out[i] = (double)__spirv_GroupSMax(WORKGROUP, INCLUSIVE, x);
  out[n + i] = __spirv_GroupFMin(WORKGROUP, EXCLUSIVE, (float)x);
  out[2 * n + i] = __spirv_GroupFAdd(WORKGROUP, REDUCE, (double)x);
  out[3 * n + i] = __spirv_GroupAll(WORKGROUP, x > 0);
  out[4 * n + i] = __spirv_GroupAny(WORKGROUP, x > 0);
}

// The local id (1, 0, 0) as a 32-bit scalar, a uint2 and a ulong3.
kernel void broadcast_ids(global const int* in, global int* out) {
  size_t i = get_global_linear_id(), n = get_global_size(0) * get_global_size(1) * get_global_size(2);
  out[i] = __spirv_GroupBroadcast(WORKGROUP, in[i], 1u);
  out[n + i] = __spirv_GroupBroadcast(WORKGROUP, in[i], (uint2)(1, 0));
  out[2 * n + i] = __spirv_GroupBroadcast(WORKGROUP, in[i], (ulong3)(1, 0, 0));
}
