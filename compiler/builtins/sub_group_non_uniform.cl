// The non-uniform sub-group functions of OpenCL C 3.0: cl_khr_subgroup_non_uniform_vote,
// cl_khr_subgroup_ballot, cl_khr_subgroup_non_uniform_arithmetic and
// cl_khr_subgroup_clustered_reduce (SPIR-V's OpGroupNonUniform*, which the translator names so).
// They act among the work-items of the sub-group that call them together, the active ones
// (__loom_sub_group_active), which need not be contiguous. Ballots are uint4, one bit per
// sub-group local id; sub-groups have at most 32 work-items, so only .x can have bits.

int OVL sub_group_elect(void) { return get_sub_group_local_id() == ctz(__loom_sub_group_active()); }

int OVL sub_group_non_uniform_all(int predicate) {
  const uint active = __loom_sub_group_active();
  return __loom_sub_group_ballot(predicate, active) == active;
}
int OVL sub_group_non_uniform_any(int predicate) { return __loom_sub_group_ballot(predicate, __loom_sub_group_active()) != 0; }

uint4 OVL sub_group_ballot(int predicate) { return (uint4)(__loom_sub_group_ballot(predicate, __loom_sub_group_active()), 0, 0, 0); }

int OVL sub_group_ballot_bit_extract(uint4 value, uint index) {
  const uint word = index / 32 % 4;  // past bit 127 the result is undefined: stay in the ballot
  return (((uint*)&value)[word] >> (index % 32)) & 1;
}
int OVL sub_group_inverse_ballot(uint4 value) { return sub_group_ballot_bit_extract(value, get_sub_group_local_id()); }

// The bits of the sub-group local ids below `n`.
static uint4 __loom_ids_below(uint n) {
  uint4 bits;
  for (uint word = 0; word < 4; ++word) {
    const uint below = n <= word * 32 ? 0 : n - word * 32;
    ((uint*)&bits)[word] = below >= 32 ? ~0u : (1u << below) - 1;
  }
  return bits;
}
static uint __loom_bit_count(uint4 bits) { return popcount(bits.x) + popcount(bits.y) + popcount(bits.z) + popcount(bits.w); }
// The ids a ballot's bits may name: up to the maximum sub-group size (as the conformance tests read it).
static uint4 __loom_valid_ids(void) { return __loom_ids_below(get_max_sub_group_size()); }

uint4 OVL get_sub_group_eq_mask(void) {
  const uint id = get_sub_group_local_id();
  return __loom_ids_below(id + 1) & ~__loom_ids_below(id);
}
uint4 OVL get_sub_group_ge_mask(void) { return __loom_valid_ids() & ~__loom_ids_below(get_sub_group_local_id()); }
uint4 OVL get_sub_group_gt_mask(void) { return __loom_valid_ids() & ~__loom_ids_below(get_sub_group_local_id() + 1); }
uint4 OVL get_sub_group_le_mask(void) { return __loom_ids_below(get_sub_group_local_id() + 1); }
uint4 OVL get_sub_group_lt_mask(void) { return __loom_ids_below(get_sub_group_local_id()); }

uint OVL sub_group_ballot_bit_count(uint4 value) { return __loom_bit_count(value & __loom_valid_ids()); }
uint OVL sub_group_ballot_inclusive_scan(uint4 value) { return __loom_bit_count(value & get_sub_group_le_mask()); }
uint OVL sub_group_ballot_exclusive_scan(uint4 value) { return __loom_bit_count(value & get_sub_group_lt_mask()); }
// Undefined where no valid bit is set.
uint OVL sub_group_ballot_find_lsb(uint4 value) {
  value &= __loom_valid_ids();
  for (uint word = 0; word < 4; ++word)
    if (((uint*)&value)[word] != 0) return word * 32 + ctz(((uint*)&value)[word]);
  return ~0u;
}
uint OVL sub_group_ballot_find_msb(uint4 value) {
  value &= __loom_valid_ids();
  for (uint word = 4; word-- > 0;)
    if (((uint*)&value)[word] != 0) return word * 32 + 31 - clz(((uint*)&value)[word]);
  return ~0u;
}

// Broadcasts among the active work-items, of every type (and width, for the indexed one).
#define SG_NON_UNIFORM_BROADCAST(T)                                                                    \
  T OVL sub_group_non_uniform_broadcast(T x, uint id) { return __loom_shuffle_among(x, id, __loom_sub_group_active()); }
#define SG_NON_UNIFORM_SCALAR(T)                                                                       \
  SG_NON_UNIFORM_BROADCAST(T) SG_NON_UNIFORM_BROADCAST(T##2) SG_NON_UNIFORM_BROADCAST(T##3)            \
  SG_NON_UNIFORM_BROADCAST(T##4) SG_NON_UNIFORM_BROADCAST(T##8) SG_NON_UNIFORM_BROADCAST(T##16)        \
  T OVL sub_group_broadcast_first(T x) {                                                               \
    const uint active = __loom_sub_group_active();                                                     \
    return __loom_shuffle_among(x, ctz(active), active);                                               \
  }                                                                                                    \
  int OVL sub_group_non_uniform_all_equal(T x) {                                                       \
    const uint active = __loom_sub_group_active();                                                     \
    return __loom_sub_group_ballot(x == __loom_shuffle_among(x, ctz(active), active), active) == active; \
  }

// Reductions and scans visit every active work-item in order of id: each one's value goes to all
// (so every shuffle has the same members), and each work-item folds those whose ids lie in its
// range [first, end). The first value starts the fold: an empty range gives `identity`.
#define SG_FOLD(T, name, op, identity)                                                                  \
  static T OVL __loom_fold_##name(T x, uint active, uint first, uint end) {                            \
    T result = (T)(identity);                                                                           \
    bool started = false;                                                                               \
    for (uint rest = active; rest != 0; rest &= rest - 1) {                                             \
      const uint j = ctz(rest);                                                                         \
      const T other = __loom_shuffle_among(x, j, active);                                               \
      if (j < first || j >= end) continue;                                                              \
      result = started ? op(result, other) : other;                                                     \
      started = true;                                                                                   \
    }                                                                                                   \
    return result;                                                                                      \
  }                                                                                                     \
  T OVL sub_group_non_uniform_reduce_##name(T x) { return __loom_fold_##name(x, __loom_sub_group_active(), 0, 32); } \
  T OVL sub_group_non_uniform_scan_inclusive_##name(T x) {                                              \
    return __loom_fold_##name(x, __loom_sub_group_active(), 0, get_sub_group_local_id() + 1);           \
  }                                                                                                     \
  T OVL sub_group_non_uniform_scan_exclusive_##name(T x) {                                              \
    return __loom_fold_##name(x, __loom_sub_group_active(), 0, get_sub_group_local_id());               \
  }                                                                                                     \
  /* Clusters of `size` (a power of 2) consecutive ids. */                                              \
  T OVL sub_group_clustered_reduce_##name(T x, uint size) {                                             \
    const uint first = get_sub_group_local_id() & ~(size - 1);                                          \
    return __loom_fold_##name(x, __loom_sub_group_active(), first, first + size);                       \
  }
#define SG_MUL(a, b) ((a) * (b))
#define SG_AND(a, b) ((a) & (b))
#define SG_OR(a, b) ((a) | (b))
#define SG_XOR(a, b) ((a) ^ (b))
#define SG_ARITHMETIC(T, minimum, maximum, lowest, highest) \
  SG_NON_UNIFORM_SCALAR(T)                                  \
  SG_FOLD(T, add, SG_ADD, 0)                                \
  SG_FOLD(T, mul, SG_MUL, 1)                                \
  SG_FOLD(T, min, minimum, highest)                         \
  SG_FOLD(T, max, maximum, lowest)
#define SG_INTEGER_ARITHMETIC(T, lowest, highest) \
  SG_ARITHMETIC(T, min, max, lowest, highest)     \
  SG_FOLD(T, and, SG_AND, ~(T)0)                  \
  SG_FOLD(T, or, SG_OR, 0)                        \
  SG_FOLD(T, xor, SG_XOR, 0)
SG_INTEGER_ARITHMETIC(char, CHAR_MIN, CHAR_MAX)
SG_INTEGER_ARITHMETIC(uchar, 0, UCHAR_MAX)
SG_INTEGER_ARITHMETIC(short, SHRT_MIN, SHRT_MAX)
SG_INTEGER_ARITHMETIC(ushort, 0, USHRT_MAX)
SG_INTEGER_ARITHMETIC(int, INT_MIN, INT_MAX)
SG_INTEGER_ARITHMETIC(uint, 0, UINT_MAX)
SG_INTEGER_ARITHMETIC(long, LONG_MIN, LONG_MAX)
SG_INTEGER_ARITHMETIC(ulong, 0, ULONG_MAX)
SG_ARITHMETIC(float, fmin, fmax, -INFINITY, INFINITY)
SG_ARITHMETIC(double, fmin, fmax, -INFINITY, INFINITY)
SG_ARITHMETIC(half, fmin, fmax, -INFINITY, INFINITY)

// The logical operations: the bitwise ones on predicates made 0 or 1 (and the result, where an
// empty range gives the bitwise identity).
#define SG_LOGICAL(name)                                                                                    \
  int OVL sub_group_non_uniform_reduce_logical_##name(int p) { return sub_group_non_uniform_reduce_##name(p != 0) != 0; } \
  int OVL sub_group_non_uniform_scan_inclusive_logical_##name(int p) {                                      \
    return sub_group_non_uniform_scan_inclusive_##name(p != 0) != 0;                                        \
  }                                                                                                         \
  int OVL sub_group_non_uniform_scan_exclusive_logical_##name(int p) {                                      \
    return sub_group_non_uniform_scan_exclusive_##name(p != 0) != 0;                                        \
  }                                                                                                         \
  int OVL sub_group_clustered_reduce_logical_##name(int p, uint size) {                                     \
    return sub_group_clustered_reduce_##name(p != 0, size) != 0;                                            \
  }
SG_LOGICAL(and)
SG_LOGICAL(or)
SG_LOGICAL(xor)
