// Sub-group functions: cl_khr_subgroups, cl_khr_subgroup_shuffle, cl_khr_subgroup_shuffle_relative
// and the shuffles of cl_intel_subgroups (SPV_INTEL_subgroups). All are built on what each target
// lowers itself: the sub-group queries (get_sub_group_size...), sub_group_barrier and the three
// primitives below. On the CPU a sub-group is one work-item, so the loops fold away; on NVPTX the
// primitives are warp shuffles and votes.

// The value `value` of the work-item whose sub-group local id is `index` (undefined if none is).
uint __loom_sub_group_shuffle(uint value, uint index);
int __loom_sub_group_all(int predicate);
int __loom_sub_group_any(int predicate);

int OVL sub_group_all(int predicate) { return __loom_sub_group_all(predicate); }
int OVL sub_group_any(int predicate) { return __loom_sub_group_any(predicate); }

// Every type as 32-bit shuffles: narrower ones widened, 64-bit ones by halves.
#define SHUFFLE_WIDENED(T) \
  static T OVL __loom_shuffle(T x, uint index) { return (T)__loom_sub_group_shuffle((uint)x, index); }
SHUFFLE_WIDENED(char)
SHUFFLE_WIDENED(uchar)
SHUFFLE_WIDENED(short)
SHUFFLE_WIDENED(ushort)
SHUFFLE_WIDENED(int)
SHUFFLE_WIDENED(uint)
static float OVL __loom_shuffle(float x, uint index) { return as_float(__loom_sub_group_shuffle(as_uint(x), index)); }
static ulong OVL __loom_shuffle(ulong x, uint index) {
  const uint2 halves = as_uint2(x);
  return as_ulong((uint2)(__loom_sub_group_shuffle(halves.x, index), __loom_sub_group_shuffle(halves.y, index)));
}
static long OVL __loom_shuffle(long x, uint index) { return as_long(__loom_shuffle(as_ulong(x), index)); }
static double OVL __loom_shuffle(double x, uint index) { return as_double(__loom_shuffle(as_ulong(x), index)); }

// Reductions and scans by shuffles within the sub-group, whose last one may be partial: a
// reduction folds each work-item's upper neighbours into it (ids past the size take no part), a
// scan its lower ones (Hillis-Steele).
#define SG_ADD(a, b) ((a) + (b))
#define SG_COLLECTIVE(T, name, op, identity)                                         \
  T OVL sub_group_reduce_##name(T x) {                                                \
    const uint size = get_sub_group_size(), id = get_sub_group_local_id();            \
    for (uint offset = 1; offset < size; offset <<= 1) {                              \
      const T other = __loom_shuffle(x, id + offset);                                 \
      if (id + offset < size) x = op(x, other);                                       \
    }                                                                                 \
    return __loom_shuffle(x, 0);                                                      \
  }                                                                                   \
  T OVL sub_group_scan_inclusive_##name(T x) {                                        \
    const uint size = get_sub_group_size(), id = get_sub_group_local_id();            \
    for (uint offset = 1; offset < size; offset <<= 1) {                              \
      const T other = __loom_shuffle(x, id - offset);                                 \
      if (id >= offset) x = op(other, x);                                             \
    }                                                                                 \
    return x;                                                                         \
  }                                                                                   \
  T OVL sub_group_scan_exclusive_##name(T x) {                                        \
    const uint id = get_sub_group_local_id();                                         \
    const T previous = __loom_shuffle(sub_group_scan_inclusive_##name(x), id - 1);    \
    return id == 0 ? (T)(identity) : previous;                                        \
  }
#define SG_COLLECTIVES(T, minimum, maximum, lowest, highest) \
  SG_COLLECTIVE(T, add, SG_ADD, 0)                           \
  SG_COLLECTIVE(T, min, minimum, highest)                    \
  SG_COLLECTIVE(T, max, maximum, lowest)                     \
  T OVL sub_group_broadcast(T x, uint id) { return __loom_shuffle(x, id); }
SG_COLLECTIVES(int, min, max, INT_MIN, INT_MAX)
SG_COLLECTIVES(uint, min, max, 0, UINT_MAX)
SG_COLLECTIVES(long, min, max, LONG_MIN, LONG_MAX)
SG_COLLECTIVES(ulong, min, max, 0, ULONG_MAX)
SG_COLLECTIVES(float, fmin, fmax, -INFINITY, INFINITY)
SG_COLLECTIVES(double, fmin, fmax, -INFINITY, INFINITY)

// Shuffles by sub-group local id. Intel's up and down shuffles address a window of twice the
// maximum sub-group size: `previous`/`current` and `current`/`next`.
#define SG_SHUFFLES(T)                                                                                   \
  T OVL sub_group_shuffle(T x, uint id) { return __loom_shuffle(x, id); }                                \
  T OVL sub_group_shuffle_xor(T x, uint mask) { return __loom_shuffle(x, get_sub_group_local_id() ^ mask); } \
  T OVL sub_group_shuffle_up(T x, uint delta) { return __loom_shuffle(x, get_sub_group_local_id() - delta); } \
  T OVL sub_group_shuffle_down(T x, uint delta) { return __loom_shuffle(x, get_sub_group_local_id() + delta); } \
  T OVL intel_sub_group_shuffle(T x, uint id) { return __loom_shuffle(x, id); }                          \
  T OVL intel_sub_group_shuffle_xor(T x, uint mask) { return sub_group_shuffle_xor(x, mask); }           \
  T OVL intel_sub_group_shuffle_down(T current, T next, uint delta) {                                    \
    const uint window = get_max_sub_group_size(), index = get_sub_group_local_id() + delta;              \
    const T fromCurrent = __loom_shuffle(current, index), fromNext = __loom_shuffle(next, index - window); \
    return index < window ? fromCurrent : fromNext;                                                      \
  }                                                                                                      \
  T OVL intel_sub_group_shuffle_up(T previous, T current, uint delta) {                                  \
    const uint window = get_max_sub_group_size(), id = get_sub_group_local_id();                         \
    const T fromCurrent = __loom_shuffle(current, id - delta);                                           \
    const T fromPrevious = __loom_shuffle(previous, window + id - delta);                                \
    return delta <= id ? fromCurrent : fromPrevious;                                                     \
  }
SG_SHUFFLES(char)
SG_SHUFFLES(uchar)
SG_SHUFFLES(short)
SG_SHUFFLES(ushort)
SG_SHUFFLES(int)
SG_SHUFFLES(uint)
SG_SHUFFLES(long)
SG_SHUFFLES(ulong)
SG_SHUFFLES(float)
SG_SHUFFLES(double)

// Intel's shuffles of vectors, component by component.
#define SG_INTEL_VECTOR_N(T, N)                                                                         \
  T##N OVL intel_sub_group_shuffle(T##N x, uint id) {                                                   \
    T##N r;                                                                                             \
    for (int i = 0; i < N; ++i) ((T*)&r)[i] = intel_sub_group_shuffle(((T*)&x)[i], id);                 \
    return r;                                                                                           \
  }                                                                                                     \
  T##N OVL intel_sub_group_shuffle_xor(T##N x, uint mask) {                                             \
    T##N r;                                                                                             \
    for (int i = 0; i < N; ++i) ((T*)&r)[i] = intel_sub_group_shuffle_xor(((T*)&x)[i], mask);           \
    return r;                                                                                           \
  }                                                                                                     \
  T##N OVL intel_sub_group_shuffle_down(T##N current, T##N next, uint delta) {                          \
    T##N r;                                                                                             \
    for (int i = 0; i < N; ++i)                                                                         \
      ((T*)&r)[i] = intel_sub_group_shuffle_down(((T*)&current)[i], ((T*)&next)[i], delta);             \
    return r;                                                                                           \
  }                                                                                                     \
  T##N OVL intel_sub_group_shuffle_up(T##N previous, T##N current, uint delta) {                        \
    T##N r;                                                                                             \
    for (int i = 0; i < N; ++i)                                                                         \
      ((T*)&r)[i] = intel_sub_group_shuffle_up(((T*)&previous)[i], ((T*)&current)[i], delta);           \
    return r;                                                                                           \
  }
#define SG_INTEL_VECTORS(T) \
  SG_INTEL_VECTOR_N(T, 2) SG_INTEL_VECTOR_N(T, 3) SG_INTEL_VECTOR_N(T, 4) SG_INTEL_VECTOR_N(T, 8) SG_INTEL_VECTOR_N(T, 16)
SG_INTEL_VECTORS(char)
SG_INTEL_VECTORS(uchar)
SG_INTEL_VECTORS(short)
SG_INTEL_VECTORS(ushort)
SG_INTEL_VECTORS(int)
SG_INTEL_VECTORS(uint)
SG_INTEL_VECTORS(long)
SG_INTEL_VECTORS(ulong)
SG_INTEL_VECTORS(float)
SG_INTEL_VECTORS(double)
