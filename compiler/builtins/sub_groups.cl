// Sub-group functions: cl_khr_subgroups, cl_khr_subgroup_extended_types, cl_khr_subgroup_shuffle,
// cl_khr_subgroup_shuffle_relative and the shuffles of cl_intel_subgroups (SPV_INTEL_subgroups).
// All are built on what each target lowers itself: the sub-group queries (get_sub_group_size...),
// sub_group_barrier and the three primitives below, which name work-items of the sub-group by
// `members` masks (bit i: the work-item whose sub-group local id is i; sub-groups have at most 32).
// On the CPU a sub-group is one work-item, so the loops fold away; on NVPTX the primitives are
// warp shuffles and votes.

// The value `value` of the work-item whose sub-group local id is `index` (undefined if that is no
// member). Every member calls it.
uint __loom_sub_group_shuffle(uint value, uint index, uint members);
// The members whose `predicate` is not 0. Every member calls it.
uint __loom_sub_group_ballot(int predicate, uint members);
// The work-items of the sub-group that reach this call together (the non-uniform functions' active set).
uint __loom_sub_group_active(void);

// Every work-item of the sub-group: what the uniform functions take part in.
static uint __loom_sub_group_members(void) { return ~0u >> (32 - get_sub_group_size()); }

int OVL sub_group_all(int predicate) {
  const uint members = __loom_sub_group_members();
  return __loom_sub_group_ballot(predicate, members) == members;
}
int OVL sub_group_any(int predicate) { return __loom_sub_group_ballot(predicate, __loom_sub_group_members()) != 0; }

// Every type as 32-bit shuffles: narrower ones widened, 64-bit ones by halves, vectors by components.
#define SHUFFLE_WIDENED(T)                                                            \
  static T OVL __loom_shuffle_among(T x, uint index, uint members) {                  \
    return (T)__loom_sub_group_shuffle((uint)x, index, members);                      \
  }
SHUFFLE_WIDENED(char)
SHUFFLE_WIDENED(uchar)
SHUFFLE_WIDENED(short)
SHUFFLE_WIDENED(ushort)
SHUFFLE_WIDENED(int)
SHUFFLE_WIDENED(uint)
static float OVL __loom_shuffle_among(float x, uint index, uint members) {
  return as_float(__loom_sub_group_shuffle(as_uint(x), index, members));
}
static half OVL __loom_shuffle_among(half x, uint index, uint members) {
  return as_half((ushort)__loom_sub_group_shuffle(as_ushort(x), index, members));
}
static ulong OVL __loom_shuffle_among(ulong x, uint index, uint members) {
  const uint2 halves = as_uint2(x);
  return as_ulong((uint2)(__loom_sub_group_shuffle(halves.x, index, members), __loom_sub_group_shuffle(halves.y, index, members)));
}
static long OVL __loom_shuffle_among(long x, uint index, uint members) { return as_long(__loom_shuffle_among(as_ulong(x), index, members)); }
static double OVL __loom_shuffle_among(double x, uint index, uint members) {
  return as_double(__loom_shuffle_among(as_ulong(x), index, members));
}
#define SHUFFLE_VECTOR(T, N)                                                                \
  static T##N OVL __loom_shuffle_among(T##N x, uint index, uint members) {                  \
    T##N r;                                                                                 \
    for (int i = 0; i < N; ++i) ((T*)&r)[i] = __loom_shuffle_among(((T*)&x)[i], index, members); \
    return r;                                                                               \
  }
// sub_group_broadcast of every type and width (cl_khr_subgroup_extended_types for vectors).
#define SG_BROADCAST(T) \
  T OVL sub_group_broadcast(T x, uint id) { return __loom_shuffle_among(x, id, __loom_sub_group_members()); }
#define SG_VECTORS(T)                                                                           \
  SHUFFLE_VECTOR(T, 2) SHUFFLE_VECTOR(T, 3) SHUFFLE_VECTOR(T, 4) SHUFFLE_VECTOR(T, 8) SHUFFLE_VECTOR(T, 16) \
  SG_BROADCAST(T) SG_BROADCAST(T##2) SG_BROADCAST(T##3) SG_BROADCAST(T##4) SG_BROADCAST(T##8) SG_BROADCAST(T##16)
SG_VECTORS(char)
SG_VECTORS(uchar)
SG_VECTORS(short)
SG_VECTORS(ushort)
SG_VECTORS(int)
SG_VECTORS(uint)
SG_VECTORS(long)
SG_VECTORS(ulong)
SG_VECTORS(float)
SG_VECTORS(double)
SG_VECTORS(half)

// Among the whole sub-group.
#define SHUFFLE_WHOLE(T) \
  static T OVL __loom_shuffle(T x, uint index) { return __loom_shuffle_among(x, index, __loom_sub_group_members()); }
SHUFFLE_WHOLE(char)
SHUFFLE_WHOLE(uchar)
SHUFFLE_WHOLE(short)
SHUFFLE_WHOLE(ushort)
SHUFFLE_WHOLE(int)
SHUFFLE_WHOLE(uint)
SHUFFLE_WHOLE(long)
SHUFFLE_WHOLE(ulong)
SHUFFLE_WHOLE(float)
SHUFFLE_WHOLE(double)
SHUFFLE_WHOLE(half)

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
  SG_COLLECTIVE(T, max, maximum, lowest)
SG_COLLECTIVES(char, min, max, CHAR_MIN, CHAR_MAX)
SG_COLLECTIVES(uchar, min, max, 0, UCHAR_MAX)
SG_COLLECTIVES(short, min, max, SHRT_MIN, SHRT_MAX)
SG_COLLECTIVES(ushort, min, max, 0, USHRT_MAX)
SG_COLLECTIVES(int, min, max, INT_MIN, INT_MAX)
SG_COLLECTIVES(uint, min, max, 0, UINT_MAX)
SG_COLLECTIVES(long, min, max, LONG_MIN, LONG_MAX)
SG_COLLECTIVES(ulong, min, max, 0, ULONG_MAX)
SG_COLLECTIVES(float, fmin, fmax, -INFINITY, INFINITY)
SG_COLLECTIVES(double, fmin, fmax, -INFINITY, INFINITY)
SG_COLLECTIVES(half, fmin, fmax, -INFINITY, INFINITY)

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
// cl_khr_subgroup_rotate: the value of the work-item `delta` places further round the sub-group,
// or round its cluster of `cluster` work-items (a power of two up to the sub-group size).
#define SG_ROTATES(T)                                                                            \
  T OVL sub_group_rotate(T x, int delta) {                                                       \
    const uint size = get_sub_group_size();                                                      \
    const uint ahead = (uint)(delta % (int)size + (int)size);                                    \
    return __loom_shuffle(x, (get_sub_group_local_id() + ahead) % size);                         \
  }                                                                                              \
  T OVL sub_group_clustered_rotate(T x, int delta, uint cluster) {                               \
    const uint id = get_sub_group_local_id(), ahead = (uint)(delta % (int)cluster + (int)cluster); \
    return __loom_shuffle(x, id - id % cluster + (id % cluster + ahead) % cluster);              \
  }
SG_ROTATES(char)
SG_ROTATES(uchar)
SG_ROTATES(short)
SG_ROTATES(ushort)
SG_ROTATES(int)
SG_ROTATES(uint)
SG_ROTATES(long)
SG_ROTATES(ulong)
SG_ROTATES(float)
SG_ROTATES(double)
SG_ROTATES(half)

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
SG_SHUFFLES(half)

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
SG_INTEL_VECTORS(half)

// Intel's names for broadcast, reductions and scans of 8- and 16-bit integers
// (cl_intel_subgroups_char and _short), which SPIR-V leaves as calls by name.
#define SG_INTEL_NARROW(T)                                                                  \
  T OVL intel_sub_group_broadcast(T x, uint id) { return sub_group_broadcast(x, id); }      \
  T##2 OVL intel_sub_group_broadcast(T##2 x, uint id) { return sub_group_broadcast(x, id); } \
  T##3 OVL intel_sub_group_broadcast(T##3 x, uint id) { return sub_group_broadcast(x, id); } \
  T##4 OVL intel_sub_group_broadcast(T##4 x, uint id) { return sub_group_broadcast(x, id); } \
  T##8 OVL intel_sub_group_broadcast(T##8 x, uint id) { return sub_group_broadcast(x, id); } \
  SG_INTEL_NARROW_OP(T, add) SG_INTEL_NARROW_OP(T, min) SG_INTEL_NARROW_OP(T, max)
#define SG_INTEL_NARROW_OP(T, op)                                                                      \
  T OVL intel_sub_group_reduce_##op(T x) { return sub_group_reduce_##op(x); }                         \
  T OVL intel_sub_group_scan_inclusive_##op(T x) { return sub_group_scan_inclusive_##op(x); }         \
  T OVL intel_sub_group_scan_exclusive_##op(T x) { return sub_group_scan_exclusive_##op(x); }
SG_INTEL_NARROW(char)
SG_INTEL_NARROW(uchar)
SG_INTEL_NARROW(short)
SG_INTEL_NARROW(ushort)
