// Work-group collective functions: work_group_all/any/broadcast and the reductions and scans.
// Every work-item of the group calls them, with the same operation and, for broadcast, the same
// local id. Each work-item stores its value in its slot of the group's scratch area, work-item 0
// combines the slots in linear-id order (O(group size) per call), and all read the result. The
// last barrier lets the next collective reuse the area. The translator expresses SPIR-V's
// OpGroupAll/Any/Broadcast and OpGroup{I,F}Add, {S,U,F}Min, {S,U,F}Max with Workgroup scope in
// these names, for 8- and 16-bit integers too and with 32-bit local ids.

// The scratch area: one 64-bit slot per work-item of the largest group, in local memory. A
// compiler pass makes it (work_group_scratch.cpp): OpenCL C has no __local variables outside kernels.
__local ulong* __loom_work_group_scratch(void) __attribute__((const));

#define SUM(a, b) ((a) + (b))
#define BOTH(a, b) ((a) && (b))
#define EITHER(a, b) ((a) || (b))

// Declares `slots` and `id`, stores `x` in this work-item's slot and waits for the group.
#define PUBLISH(T, x)                                                           \
  __local T* slots = (__local T*)__loom_work_group_scratch();                   \
  const size_t id = groupLinearLocalId();                                       \
  slots[id] = x;                                                                \
  barrier(CLK_LOCAL_MEM_FENCE)

// Reads `value` (an expression of the slots) and waits until the whole group has read it.
#define COLLECT(T, value)                                                       \
  const T result = value;                                                       \
  barrier(CLK_LOCAL_MEM_FENCE);                                                 \
  return result

// Work-item 0 folds the slots into slot 0, or into running totals in every slot (`scan`).
#define COMBINE(T, OP, scan)                                                    \
  if (id == 0) {                                                                \
    T total = slots[0];                                                         \
    for (size_t i = 1, count = groupWorkItems(); i < count; ++i) {              \
      total = OP(total, slots[i]);                                              \
      if (scan) slots[i] = total;                                               \
    }                                                                           \
    if (!scan) slots[0] = total;                                                \
  }                                                                             \
  barrier(CLK_LOCAL_MEM_FENCE)

#define REDUCE_AND_SCANS(T, name, OP, identity)                                 \
  T OVL work_group_reduce_##name(T x) {                                         \
    PUBLISH(T, x);                                                              \
    COMBINE(T, OP, false);                                                      \
    COLLECT(T, slots[0]);                                                       \
  }                                                                             \
  T OVL work_group_scan_inclusive_##name(T x) {                                 \
    PUBLISH(T, x);                                                              \
    COMBINE(T, OP, true);                                                       \
    COLLECT(T, slots[id]);                                                      \
  }                                                                             \
  T OVL work_group_scan_exclusive_##name(T x) {                                 \
    PUBLISH(T, x);                                                              \
    COMBINE(T, OP, true);                                                       \
    COLLECT(T, id == 0 ? (T)(identity) : slots[id - 1]);                        \
  }

// Identities of the exclusive scans: 0 for add, the type's largest value for min, its smallest for max.
#define ARITHMETIC(T, lowest, highest)                                          \
  REDUCE_AND_SCANS(T, add, SUM, 0)                                              \
  REDUCE_AND_SCANS(T, min, min, highest)                                        \
  REDUCE_AND_SCANS(T, max, max, lowest)

ARITHMETIC(char, CHAR_MIN, CHAR_MAX)
ARITHMETIC(uchar, 0, UCHAR_MAX)
ARITHMETIC(short, SHRT_MIN, SHRT_MAX)
ARITHMETIC(ushort, 0, USHRT_MAX)
ARITHMETIC(int, INT_MIN, INT_MAX)
ARITHMETIC(uint, 0, UINT_MAX)
ARITHMETIC(long, LONG_MIN, LONG_MAX)
ARITHMETIC(ulong, 0, ULONG_MAX)
ARITHMETIC(float, -INFINITY, INFINITY)
ARITHMETIC(double, -INFINITY, INFINITY)
ARITHMETIC(half, -INFINITY, INFINITY)

int OVL work_group_all(int predicate) {
  PUBLISH(int, predicate != 0);
  COMBINE(int, BOTH, false);
  COLLECT(int, slots[0]);
}

int OVL work_group_any(int predicate) {
  PUBLISH(int, predicate != 0);
  COMBINE(int, EITHER, false);
  COLLECT(int, slots[0]);
}

// `chosen` is the linear local id of the work-item whose value every work-item gets.
#define BROADCAST_FROM(T)                                                       \
  static T broadcast_##T(T x, size_t chosen) {                                  \
    PUBLISH(T, x);                                                              \
    COLLECT(T, slots[chosen]);                                                  \
  }

#define BROADCAST(T)                                                                                   \
  BROADCAST_FROM(T)                                                                                    \
  T OVL work_group_broadcast(T x, size_t local_id) { return broadcast_##T(x, local_id); }              \
  T OVL work_group_broadcast(T x, size_t x_id, size_t y_id) {                                          \
    return broadcast_##T(x, x_id + get_local_size(0) * y_id);                                          \
  }                                                                                                    \
  T OVL work_group_broadcast(T x, size_t x_id, size_t y_id, size_t z_id) {                             \
    return broadcast_##T(x, x_id + get_local_size(0) * (y_id + get_local_size(1) * z_id));             \
  }                                                                                                    \
  T OVL work_group_broadcast(T x, uint local_id) { return work_group_broadcast(x, (size_t)local_id); } \
  T OVL work_group_broadcast(T x, uint x_id, uint y_id) {                                              \
    return work_group_broadcast(x, (size_t)x_id, (size_t)y_id);                                        \
  }                                                                                                    \
  T OVL work_group_broadcast(T x, uint x_id, uint y_id, uint z_id) {                                   \
    return work_group_broadcast(x, (size_t)x_id, (size_t)y_id, (size_t)z_id);                          \
  }

BROADCAST(char) BROADCAST(uchar) BROADCAST(short) BROADCAST(ushort) BROADCAST(int) BROADCAST(uint)
BROADCAST(long) BROADCAST(ulong) BROADCAST(float) BROADCAST(double) BROADCAST(half)
